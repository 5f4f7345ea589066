// RUN: tcc-opt --split-input-file --verify-diagnostics %s

// Tests that a constant needs a dense or dense_resource literal.
func.func @a_constant_needs_a_dense_or_dense_resour() {
  // expected-error @+1 {{value must be a dense or dense_resource literal}}
  %0 = tcc.constant sparse<[[0]], [1.0]> : tensor<2xf32>
  return
}

// -----

// Tests that a dense_resource blob must exist.
func.func @a_dense_resource_blob_must_exist() {
  // expected-error @+1 {{dense_resource 'nope' has no blob in the file}}
  %0 = tcc.constant dense_resource<nope> : tensor<2xf32>
  return
}

// -----

// Tests that a dense_resource blob holds exactly the bytes of its type.
func.func @a_dense_resource_blob_holds_exactly_the() {
  // expected-error @+1 {{dense_resource 'short' holds 8 bytes but 'tensor<3xf32>' needs 12}}
  %0 = tcc.constant dense_resource<short> : tensor<3xf32>
  return
}
{-#
  dialect_resources: {
    builtin: {
      short: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// Tests that a dense_resource blob is aligned to its element size.
func.func @a_dense_resource_blob_is_aligned_to_its() {
  // expected-error @+1 {{dense_resource 'packed' is aligned to 1 bytes but its 'f32' elements need 4}}
  %0 = tcc.constant dense_resource<packed> : tensor<2xf32>
  return
}
{-#
  dialect_resources: {
    builtin: {
      packed: "0x010000000000803F00000040"
    }
  }
#-}

// -----

// Tests that a tensor's byte size must fit in int64_t (its element count does).
func.func @a_tensor_s_byte_size_must_fit_in_int64_t(%x: tensor<2305843009213693952xf32>) {
  // expected-error @+1 {{operand #0 has type 'tensor<2305843009213693952xf32>' whose size in bytes overflows int64_t}}
  %0 = tcc.exp %x : tensor<2305843009213693952xf32>
  return
}

// -----

// Tests that float-only unary ops reject integer tensors.
func.func @float_only_unary_ops_reject_integer_tens(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.exp %x : tensor<3xi32>
  return
}

// -----

// Tests that numeric unary ops reject i1 tensors.
func.func @numeric_unary_ops_reject_i1_tensors(%x: tensor<3xi1>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of numeric (not i1) values}}
  %0 = tcc.neg %x : tensor<3xi1>
  return
}

// -----

// Tests that logical_not takes i1 tensors.
func.func @logical_not_takes_i1_tensors(%x: tensor<3xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 1-bit signless integer values}}
  %0 = tcc.logical_not %x : tensor<3xf32>
  return
}

// -----

// Tests that tcc ops take statically shaped tensors.
func.func @tcc_ops_take_statically_shaped_tensors(%x: tensor<?xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor}}
  %0 = tcc.relu %x : tensor<?xf32>
  return
}

// -----

// Tests that clamp needs a bound.
func.func @clamp_needs_a_bound(%x: tensor<3xf32>) {
  // expected-error @+1 {{needs at least one of 'min' and 'max'}}
  %0 = tcc.clamp %x : tensor<3xf32>
  return
}

// -----

// Tests that clamp bounds are not NaN.
func.func @clamp_bounds_are_not_nan(%x: tensor<3xf32>) {
  // expected-error @+1 {{'min' is NaN}}
  %0 = tcc.clamp %x min 0x7FF8000000000000 : tensor<3xf32>
  return
}

// -----

// Tests that clamp bounds on integer tensors are whole numbers.
func.func @clamp_bounds_on_integer_tensors_are_whol(%x: tensor<3xi32>) {
  // expected-error @+1 {{'max' must be a whole number for 'i32' elements, got 2.5}}
  %0 = tcc.clamp %x max 2.5 : tensor<3xi32>
  return
}

// -----

// Tests that dropout's probability is in [0, 1].
func.func @dropout_s_probability_is_in__0__1(%x: tensor<3xf32>) {
  // expected-error @+1 {{probability p must be in [0, 1], got 1.5}}
  %0 = tcc.dropout %x {p = 1.5 : f64} : tensor<3xf32>
  return
}

// -----

// Tests that binary operands must broadcast.
func.func @binary_operands_must_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.add %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that binary operands share an element type.
func.func @binary_operands_share_an_element_type(%a: tensor<3xf32>, %b: tensor<3xf64>) {
  // expected-error @+2 {{operands have different element types: 'f32' and 'f64'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.mul %a, %b : (tensor<3xf32>, tensor<3xf64>) -> tensor<3xf32>
  return
}

// -----

// Tests that a written result type must match the inferred one.
func.func @a_written_result_type_must_match_the_inf(%a: tensor<4x1xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<4x1xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.sub %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x1xf32>
  return
}

// -----

// Tests that div is defined on floating-point tensors.
func.func @div_is_defined_on_floating_point_tensors(%a: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.div %a, %a : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

// Tests that arithmetic rejects i1 tensors.
func.func @arithmetic_rejects_i1_tensors(%a: tensor<3xi1>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of numeric (not i1) values}}
  %0 = tcc.add %a, %a : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return
}

// -----

// Tests that comparisons produce i1.
func.func @comparisons_produce_i1(%a: tensor<3xf32>) {
  // expected-error @+1 {{result #0 must be statically shaped tensor of 1-bit signless integer values}}
  %0 = tcc.lt %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// Tests that logical ops take i1 tensors.
func.func @logical_ops_take_i1_tensors(%a: tensor<3xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 1-bit signless integer values}}
  %0 = tcc.logical_or %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  return
}

// -----

// Tests that select's condition is i1.
func.func @select_s_condition_is_i1(%c: tensor<3xf32>, %a: tensor<3xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 1-bit signless integer values}}
  %0 = tcc.select %c, %a, %a : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// Tests that select's branches share an element type.
func.func @select_s_branches_share_an_element_type(%c: tensor<3xi1>, %a: tensor<3xf32>, %b: tensor<3xi32>) {
  // expected-error @+2 {{operands have different element types: 'f32' and 'i32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.select %c, %a, %b : (tensor<3xi1>, tensor<3xf32>, tensor<3xi32>) -> tensor<3xf32>
  return
}

// -----

// Tests that select's three operands broadcast together.
func.func @select_s_three_operands_broadcast_togeth(%c: tensor<4x1xi1>, %a: tensor<3xf32>, %b: tensor<5x1x1xf32>) {
  %0 = tcc.select %c, %a, %b : (tensor<4x1xi1>, tensor<3xf32>, tensor<5x1x1xf32>) -> tensor<5x4x3xf32>
  %1 = tcc.select %c, %a, %a : (tensor<4x1xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %d = tcc.constant dense<true> : tensor<2x1x1xi1>
  // expected-error @+2 {{shape 'tensor<5x1x1xf32>' does not broadcast with the others}}
  // expected-error @+1 {{failed to infer returned types}}
  %2 = tcc.select %d, %a, %b : (tensor<2x1x1xi1>, tensor<3xf32>, tensor<5x1x1xf32>) -> tensor<5x4x3xf32>
  return
}

// -----

// Tests that cast keeps the shape.
func.func @cast_keeps_the_shape(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = tcc.cast %a : tensor<2x3xf32> to tensor<3x2xi32>
  return
}

// -----

// Tests that bitcast needs element types of one width.
func.func @bitcast_needs_one_width(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{reinterprets 'f32' as 'i64', which has a different bit width}}
  %0 = tcc.bitcast %a : tensor<2x3xf32> to tensor<2x3xi64>
  return
}

// -----

// Tests that bitcast keeps the shape.
func.func @bitcast_keeps_the_shape(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = tcc.bitcast %a : tensor<2x3xf32> to tensor<3x2xi32>
  return
}

// -----

// Tests that matmul operands have rank 2 or more.
func.func @matmul_operands_have_rank_2_or_more(%a: tensor<3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{operands must have rank 2 or more}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.matmul %a, %b : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that the contraction dimensions of matmul agree.
func.func @the_contraction_dimensions_of_matmul_agr(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{contraction dimensions differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

// Tests that matmul batch dims broadcast.
func.func @matmul_batch_dims_broadcast(%a: tensor<2x2x3xf32>, %b: tensor<3x3x4xf32>) {
  // expected-error @+2 {{batch dimensions of 'tensor<2x2x3xf32>' and 'tensor<3x3x4xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.matmul %a, %b : (tensor<2x2x3xf32>, tensor<3x3x4xf32>) -> tensor<2x2x4xf32>
  return
}

// -----

// Tests that linear's weight is [out, in].
func.func @linear_s_weight_is__out__in(%x: tensor<2x4xf32>, %w: tensor<4xf32>) {
  // expected-error @+2 {{weight must be [out, in], got 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.linear %x, %w : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2xf32>
  return
}

// -----

// Tests that linear's input ends in the weight's in-features.
func.func @linear_s_input_ends_in_the_weight_s_in_f(%x: tensor<2x5xf32>, %w: tensor<3x4xf32>) {
  // expected-error @+2 {{input's last dim 5 does not match weight 'tensor<3x4xf32>' (expected 4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.linear %x, %w : (tensor<2x5xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that linear's bias is [out].
func.func @linear_s_bias_is__out(%x: tensor<2x4xf32>, %w: tensor<3x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{bias must be [3], got 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.linear %x, %w, %b : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that linear's input has rank 1 or more.
func.func @linear_s_input_has_rank_1_or_more(%x: tensor<f32>, %w: tensor<3x4xf32>) {
  // expected-error @+2 {{input must have rank 1 or more, got 'tensor<f32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.linear %x, %w : (tensor<f32>, tensor<3x4xf32>) -> tensor<3xf32>
  return
}

// -----

// Tests that conv2d's input is 4-D.
func.func @conv2d_s_input_is_4_d(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{input must be [N, C, H, W], got 'tensor<3x8x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<4x6x6xf32>
  return
}

// -----

// Tests that conv2d's weight is 4-D.
func.func @conv2d_s_weight_is_4_d(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+2 {{weight must be [O, C/groups, kH, kW], got 'tensor<4x3x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that conv2d's stride has two values.
func.func @conv2d_s_stride_has_two_values(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'stride' must have 2 values (height, width), got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {stride = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that conv2d's stride is positive.
func.func @conv2d_s_stride_is_positive(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'stride' values must be at least 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {stride = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that conv2d's padding is not negative.
func.func @conv2d_s_padding_is_not_negative(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'padding' values must be at least 0, got -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {padding = array<i64: -1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that conv2d's dilation is positive.
func.func @conv2d_s_dilation_is_positive(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'dilation' values must be at least 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {dilation = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that conv2d's groups is positive.
func.func @conv2d_s_groups_is_positive(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'groups' must be at least 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {groups = 0} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that conv2d's input channels equal weight channels times groups.
func.func @conv2d_s_input_channels_equal_weight_cha(%x: tensor<1x4x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{weight 'tensor<4x3x3x3xf32>' with groups = 1 expects input channels = 3 * 1, but input 'tensor<1x4x8x8xf32>' has 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that conv2d's output channels divide by groups.
func.func @conv2d_s_output_channels_divide_by_group(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+2 {{output channels 3 are not divisible by groups = 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {groups = 2} : (tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32>
  return
}

// -----

// Tests that conv2d's bias is [O].
func.func @conv2d_s_bias_is__o(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{bias must be [4], got 'tensor<3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that conv2d's kernel dims are positive.
func.func @conv2d_s_kernel_dims_are_positive(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x0x3xf32>) {
  // expected-error @+2 {{kernel dims must be at least 1, got weight 'tensor<4x3x0x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x0x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that conv2d's dilated kernel fits in the padded input.
func.func @conv2d_s_dilated_kernel_fits_in_the_padd(%x: tensor<1x3x2x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{computed output height 0 is less than 1 (input 2, padding 0, kernel 3, dilation 1, stride 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w : (tensor<1x3x2x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x0x6xf32>
  return
}

// -----

// Tests that conv2d's operands share an element type.
func.func @conv2d_s_operands_share_an_element_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error @+2 {{operands have different element types: 'f32' and 'f16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that conv2d's NHWC weight is OHWI.
func.func @conv2d_s_nhwc_weight_is_ohwi(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>) {
  %0 = tcc.conv2d %x, %w {layout = #tcc.layout<nhwc>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32>
  %w2 = tcc.constant dense<1.0> : tensor<4x3x3x2xf32>
  // expected-error @+2 {{weight 'tensor<4x3x3x2xf32>' with groups = 1 expects input channels = 2 * 1, but input 'tensor<1x8x8x3xf32>' has 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %1 = tcc.conv2d %x, %w2 {layout = #tcc.layout<nhwc>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x2xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

// Tests that pooling input is 4-D.
func.func @pooling_input_is_4_d(%x: tensor<3x8x8xf32>) {
  // expected-error @+2 {{input must be [N, C, H, W], got 'tensor<3x8x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<3x8x8xf32> -> tensor<3x4x4xf32>
  return
}

// -----

// Tests that pooling kernel_size has two values.
func.func @pooling_kernel_size_has_two_values(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'kernel_size' must have 2 values (height, width), got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 2>, stride = array<i64: 2, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

// Tests that pooling stride is positive.
func.func @pooling_stride_is_positive(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'stride' values must be at least 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.avg_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 0>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

// Tests that pooling padding is at most half the kernel.
func.func @pooling_padding_is_at_most_half_the_kern(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{padding 2 is more than half the kernel size 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 1, 1>, padding = array<i64: 2, 0>} : tensor<1x3x8x8xf32> -> tensor<1x3x10x6xf32>
  return
}

// -----

// Tests that pooling output sizes are at least 1.
func.func @pooling_output_sizes_are_at_least_1(%x: tensor<1x3x8x2xf32>) {
  // expected-error @+2 {{computed output width 0 is less than 1 (input 2, padding 0, kernel 3, dilation 1, stride 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 1, 1>} : tensor<1x3x8x2xf32> -> tensor<1x3x6x0xf32>
  return
}

// -----

// Tests that ceil_mode pooling matches PyTorch's output size.
func.func @ceil_mode_pooling_matches_pytorch_s_outp(%x: tensor<1x1x5x5xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<1x1x3x3xf32>' are incompatible with return type(s) of operation 'tensor<1x1x4x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true} : tensor<1x1x5x5xf32> -> tensor<1x1x4x4xf32>
  return
}

// -----

// Tests that avg_pool2d's divisor_override is not 0.
func.func @avg_pool2d_s_divisor_override_is_not_0(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'divisor_override' must not be 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.avg_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, divisor_override = 0} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

// Tests that adaptive_avg_pool2d's output sizes are positive.
func.func @adaptive_avg_pool2d_s_output_sizes_are_p(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'output_size' values must be at least 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.adaptive_avg_pool2d %x {output_size = array<i64: 0, 1>} : tensor<1x3x8x8xf32> -> tensor<1x3x0x1xf32>
  return
}

// -----

// Tests that adaptive_avg_pool2d's input is non-empty.
func.func @adaptive_avg_pool2d_s_input_is_non_empty(%x: tensor<1x3x0x8xf32>) {
  // expected-error @+2 {{input 'tensor<1x3x0x8xf32>' must be non-empty in every non-batch dim}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>} : tensor<1x3x0x8xf32> -> tensor<1x3x1x1xf32>
  return
}

// -----

// Tests that reductions list at least one dim.
func.func @reductions_list_at_least_one_dim(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'dims' must list at least one dim (all dims for a full reduction)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.reduce_sum %x {dims = array<i64>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

// Tests that reduction dims are in [-rank, rank).
func.func @reduction_dims_are_in___rank__rank(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{dim 2 is out of range [-2, 2) for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.reduce_prod %x {dims = array<i64: 2>} : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

// Tests that reduction dims are not repeated.
func.func @reduction_dims_are_not_repeated(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{dim 1 is listed more than once}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.reduce_sum %x {dims = array<i64: 1, -1>} : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

// Tests that reduce_max has no identity for an empty dim.
func.func @reduce_max_has_no_identity_for_an_empty(%x: tensor<2x0xf32>) {
  // expected-error @+2 {{cannot reduce dim 1 of size 0 (no identity)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.reduce_max %x {dims = array<i64: 1>} : tensor<2x0xf32> -> tensor<2xf32>
  return
}

// -----

// Tests that reduce_mean is defined on floating-point tensors.
func.func @reduce_mean_is_defined_on_floating_point(%x: tensor<2x3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.reduce_mean %x {dims = array<i64: 1>} : tensor<2x3xi32> -> tensor<2xi32>
  return
}

// -----

// Tests that argmax's dim is in range.
func.func @argmax_s_dim_is_in_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{dim -3 is out of range [-2, 2) for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.argmax %x {dim = -3} : tensor<2x3xf32> -> tensor<3xi64>
  return
}

// -----

// Tests that argmin's dim is non-empty.
func.func @argmin_s_dim_is_non_empty(%x: tensor<2x0xf32>) {
  // expected-error @+2 {{cannot reduce dim 1 of size 0 (no identity)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.argmin %x {dim = 1} : tensor<2x0xf32> -> tensor<2xi64>
  return
}

// -----

// Tests that argmax returns i64.
func.func @argmax_returns_i64(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result #0 must be statically shaped tensor of 64-bit signless integer values}}
  %0 = tcc.argmax %x {dim = 1} : tensor<2x3xf32> -> tensor<2xi32>
  return
}

// -----

// Tests that softmax's dim is in range.
func.func @softmax_s_dim_is_in_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dim 2 is out of range [-2, 2) for rank 2}}
  %0 = tcc.softmax %x {dim = 2} : tensor<2x3xf32>
  return
}

// -----

// Tests that log_softmax is defined on floating-point tensors.
func.func @log_softmax_is_defined_on_floating_point(%x: tensor<2x3xi64>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.log_softmax %x {dim = 1} : tensor<2x3xi64>
  return
}

// -----

// Tests that layer_norm's normalized_shape is the input's trailing dims.
func.func @layer_norm_s_normalized_shape_is_the_inp(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{'normalized_shape' [3] must be non-empty and equal the last dims of input 'tensor<2x3x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.layer_norm %x {normalized_shape = array<i64: 3>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

// Tests that layer_norm's weight has the normalized shape.
func.func @layer_norm_s_weight_has_the_normalized_s(%x: tensor<2x3x4xf32>, %w: tensor<4xf32>) {
  // expected-error @+2 {{weight must have shape [3, 4], got 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.layer_norm %x weight %w {normalized_shape = array<i64: 3, 4>} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

// Tests that layer_norm's eps is not negative.
func.func @layer_norm_s_eps_is_not_negative(%x: tensor<2x4xf32>) {
  // expected-error @+2 {{'eps' must be at least 0, got -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.layer_norm %x {normalized_shape = array<i64: 4>, eps = -1.0} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

// Tests that batch_norm's input has a channel dim.
func.func @batch_norm_s_input_has_a_channel_dim(%x: tensor<3xf32>, %c: tensor<3xf32>) {
  // expected-error @+2 {{input must be [N, C, ...] (rank 2 or more), got 'tensor<3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.batch_norm %x, %c, %c, %c, %c : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// Tests that batch_norm's statistics are [C].
func.func @batch_norm_s_statistics_are__c(%x: tensor<2x3xf32>, %c: tensor<3xf32>, %v: tensor<2xf32>) {
  // expected-error @+2 {{running_var must be [3] (the input's channels), got 'tensor<2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.batch_norm %x, %c, %c, %c, %v : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that batch_norm's eps is not negative.
func.func @batch_norm_s_eps_is_not_negative(%x: tensor<2x3xf32>, %c: tensor<3xf32>) {
  // expected-error @+2 {{'eps' must be at least 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.batch_norm %x, %c, %c, %c, %c {eps = -1.0e-5} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that reshape keeps the element count.
func.func @reshape_keeps_the_element_count(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot reshape 'tensor<2x3xf32>' (6 elements) to 'tensor<7xf32>' (7 elements)}}
  %0 = tcc.reshape %a : tensor<2x3xf32> to tensor<7xf32>
  return
}

// -----

// Tests that reshape keeps the element type.
func.func @reshape_keeps_the_element_type(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{changes the element type from 'f32' to 'f16'}}
  %0 = tcc.reshape %a : tensor<2x3xf32> to tensor<6xf16>
  return
}

// -----

// Tests that transpose takes a permutation.
func.func @transpose_takes_a_permutation(%a: tensor<2x3x4xf32>) {
  // expected-error @+2 {{'permutation' [0, 0, 1] is not a permutation of the 3 dims of 'tensor<2x3x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.transpose %a {permutation = array<i64: 0, 0, 1>} : tensor<2x3x4xf32> -> tensor<2x2x3xf32>
  return
}

// -----

// Tests that transpose's permutation covers every dim.
func.func @transpose_s_permutation_covers_every_dim(%a: tensor<2x3x4xf32>) {
  // expected-error @+2 {{'permutation' [1, 0] is not a permutation of the 3 dims of 'tensor<2x3x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.transpose %a {permutation = array<i64: 1, 0>} : tensor<2x3x4xf32> -> tensor<3x2xf32>
  return
}

// -----

// Tests that broadcast_to does not lower the rank.
func.func @broadcast_to_does_not_lower_the_rank(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot broadcast 'tensor<2x3xf32>' to the lower-rank 'tensor<3xf32>'}}
  %0 = tcc.broadcast_to %a : tensor<2x3xf32> to tensor<3xf32>
  return
}

// -----

// Tests that broadcast_to only expands size-1 dims.
func.func @broadcast_to_only_expands_size_1_dims(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot broadcast 'tensor<2x3xf32>' to 'tensor<4x4x3xf32>': dim 0 has size 2, expected 1 or 4}}
  %0 = tcc.broadcast_to %a : tensor<2x3xf32> to tensor<4x4x3xf32>
  return
}

// -----

// Tests that broadcast_to keeps the element type.
func.func @broadcast_to_keeps_the_element_type(%a: tensor<3xf32>) {
  // expected-error @+1 {{changes the element type from 'f32' to 'i32'}}
  %0 = tcc.broadcast_to %a : tensor<3xf32> to tensor<2x3xi32>
  return
}

// -----

// Tests that slice has one start per dim.
func.func @slice_has_one_start_per_dim(%a: tensor<4x3xf32>) {
  // expected-error @+2 {{'start' must have one value per dim (2), got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.slice %a {start = array<i64: 0>, end = array<i64: 4, 3>, step = array<i64: 1, 1>} : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}

// -----

// Tests that slice steps are positive.
func.func @slice_steps_are_positive(%a: tensor<4x3xf32>) {
  // expected-error @+2 {{step of dim 1 must be at least 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.slice %a {start = array<i64: 0, 0>, end = array<i64: 4, 3>, step = array<i64: 1, 0>} : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}

// -----

// Tests that slice bounds are ordered and in range.
func.func @slice_bounds_are_ordered_and_in_range(%a: tensor<4x3xf32>) {
  // expected-error @+2 {{dim 0 needs 0 <= start <= end <= 4, got [3, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.slice %a {start = array<i64: 3, 0>, end = array<i64: 2, 3>, step = array<i64: 1, 1>} : tensor<4x3xf32> -> tensor<0x3xf32>
  return
}

// -----

// Tests that slice ends inside the dim.
func.func @slice_ends_inside_the_dim(%a: tensor<4x3xf32>) {
  // expected-error @+2 {{dim 1 needs 0 <= start <= end <= 3, got [0, 5)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.slice %a {start = array<i64: 0, 0>, end = array<i64: 4, 5>, step = array<i64: 1, 1>} : tensor<4x3xf32> -> tensor<4x5xf32>
  return
}

// -----

// Tests that concat inputs have one rank.
func.func @concat_inputs_have_one_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{inputs have different ranks: 'tensor<2x3xf32>' and 'tensor<3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.concat %a, %b {dim = 0} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<5x3xf32>
  return
}

// -----

// Tests that concat inputs agree outside the concatenated dim.
func.func @concat_inputs_agree_outside_the_concaten(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+2 {{inputs 'tensor<2x3xf32>' and 'tensor<2x4xf32>' differ in dim 1, which is not the concatenated dim 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.concat %a, %b {dim = 0} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that concat's dim is in range.
func.func @concat_s_dim_is_in_range(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{dim 2 is out of range [-2, 2) for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.concat %a, %a {dim = 2} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

// Tests that concat inputs have rank 1 or more.
func.func @concat_inputs_have_rank_1_or_more(%a: tensor<f32>) {
  // expected-error @+2 {{inputs must have rank 1 or more, got 'tensor<f32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.concat %a, %a {dim = 0} : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

// Tests that concat inputs share an element type.
func.func @concat_inputs_share_an_element_type(%a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+2 {{operands have different element types: 'f32' and 'i32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.concat %a, %b {dim = 0} : (tensor<2xf32>, tensor<2xi32>) -> tensor<4xf32>
  return
}

// -----

// Tests that concat needs an input.
func.func @concat_needs_an_input() {
  // expected-error @+2 {{needs at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.concat {dim = 0} : () -> tensor<2xf32>
  return
}

// -----

// Tests that gather's index has the input's rank.
func.func @gather_s_index_has_the_input_s_rank(%a: tensor<4x5xf32>, %i: tensor<4xi64>) {
  // expected-error @+2 {{index 'tensor<4xi64>' must have the rank of input 'tensor<4x5xf32>' (at least 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.gather %a, %i {dim = 0} : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<4xf32>
  return
}

// -----

// Tests that gather's index fits the input outside dim.
func.func @gather_s_index_fits_the_input_outside_di(%a: tensor<4x5xf32>, %i: tensor<5x2xi64>) {
  // expected-error @+2 {{index 'tensor<5x2xi64>' is larger than input 'tensor<4x5xf32>' in dim 0 (only dim 1 may be)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.gather %a, %i {dim = 1} : (tensor<4x5xf32>, tensor<5x2xi64>) -> tensor<5x2xf32>
  return
}

// -----

// Tests that gather's dim is in range.
func.func @gather_s_dim_is_in_range(%a: tensor<4x5xf32>, %i: tensor<4x5xi64>) {
  // expected-error @+2 {{dim -3 is out of range [-2, 2) for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.gather %a, %i {dim = -3} : (tensor<4x5xf32>, tensor<4x5xi64>) -> tensor<4x5xf32>
  return
}

// -----

// Tests that scatter's index has the input's rank.
func.func @scatter_s_index_has_the_input_s_rank(%a: tensor<4x5xf32>, %i: tensor<4xi64>, %u: tensor<4xf32>) {
  // expected-error @+2 {{index 'tensor<4xi64>' must have the rank of input 'tensor<4x5xf32>' (at least 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.scatter %a, %i, %u {dim = 0} : (tensor<4x5xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<4x5xf32>
  return
}

// -----

// Tests that scatter's updates have the index's shape.
func.func @scatter_s_updates_have_the_index_s_shape(%a: tensor<4x5xf32>, %i: tensor<4x2xi64>, %u: tensor<4x3xf32>) {
  // expected-error @+2 {{updates 'tensor<4x3xf32>' must have the shape of index 'tensor<4x2xi64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.scatter %a, %i, %u {dim = 1} : (tensor<4x5xf32>, tensor<4x2xi64>, tensor<4x3xf32>) -> tensor<4x5xf32>
  return
}

// -----

// Tests that scatter's updates have the input's element type.
func.func @scatter_s_updates_have_the_input_s_type(%a: tensor<4x5xf32>, %i: tensor<4x2xi64>, %u: tensor<4x2xf64>) {
  // expected-error @+2 {{updates 'tensor<4x2xf64>' must have the element type of input 'tensor<4x5xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.scatter %a, %i, %u {dim = 1} : (tensor<4x5xf32>, tensor<4x2xi64>, tensor<4x2xf64>) -> tensor<4x5xf32>
  return
}

// -----

// Tests that scatter's index fits the input outside dim.
func.func @scatter_s_index_fits_the_input_outside_dim(%a: tensor<4x5xf32>, %i: tensor<5x2xi64>, %u: tensor<5x2xf32>) {
  // expected-error @+2 {{index 'tensor<5x2xi64>' is larger than input 'tensor<4x5xf32>' in dim 0 (only dim 1 may be)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.scatter %a, %i, %u {dim = 1} : (tensor<4x5xf32>, tensor<5x2xi64>, tensor<5x2xf32>) -> tensor<4x5xf32>
  return
}

// -----

// Tests that scatter's dim is in range.
func.func @scatter_s_dim_is_in_range(%a: tensor<4x5xf32>, %i: tensor<4x5xi64>) {
  // expected-error @+2 {{dim 2 is out of range [-2, 2) for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.scatter %a, %i, %a {dim = 2} : (tensor<4x5xf32>, tensor<4x5xi64>, tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

// Tests that scatter reduces only numbers.
func.func @scatter_reduces_only_numbers(%a: tensor<4xi1>, %i: tensor<2xi64>, %u: tensor<2xi1>) {
  // expected-error @+2 {{reduction 'add' needs numbers, got 'tensor<4xi1>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.scatter %a, %i, %u {dim = 0, reduction = #tcc.scatter_reduction<add>} : (tensor<4xi1>, tensor<2xi64>, tensor<2xi1>) -> tensor<4xi1>
  return
}

// -----

// Tests that scatter's index is integer.
func.func @scatter_s_index_is_integer(%a: tensor<4x5xf32>) {
  // expected-error @+1 {{operand #1 must be statically shaped tensor of i64 or i32 values}}
  %0 = tcc.scatter %a, %a, %a {dim = 0} : (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

// Tests that scatter's result has the input's type.
func.func @scatter_s_result_has_the_input_s_type(%a: tensor<4x5xf32>, %i: tensor<4x5xi64>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4x5xf32>' are incompatible with return type(s) of operation 'tensor<4x5xf64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.scatter %a, %i, %a {dim = 0} : (tensor<4x5xf32>, tensor<4x5xi64>, tensor<4x5xf32>) -> tensor<4x5xf64>
  return
}

// -----

// Tests that gather's index is integer.
func.func @gather_s_index_is_integer(%a: tensor<4x5xf32>) {
  // expected-error @+1 {{operand #1 must be statically shaped tensor of i64 or i32 values}}
  %0 = tcc.gather %a, %a {dim = 0} : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

// Tests that index_select's index is 1-D.
func.func @index_select_s_index_is_1_d(%a: tensor<4x5xf32>, %i: tensor<2x2xi64>) {
  // expected-error @+2 {{index must be 1-D, got 'tensor<2x2xi64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.index_select %a, %i {dim = 0} : (tensor<4x5xf32>, tensor<2x2xi64>) -> tensor<2x5xf32>
  return
}

// -----

// Tests that index_select's dim is in range.
func.func @index_select_s_dim_is_in_range(%a: tensor<4x5xf32>, %i: tensor<2xi64>) {
  // expected-error @+2 {{dim 2 is out of range [-2, 2) for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.index_select %a, %i {dim = 2} : (tensor<4x5xf32>, tensor<2xi64>) -> tensor<4x5xf32>
  return
}

// -----

// Tests that embedding's weight is 2-D.
func.func @embedding_s_weight_is_2_d(%i: tensor<3xi64>, %w: tensor<10xf32>) {
  // expected-error @+2 {{weight must be [num_embeddings, embedding_dim], got 'tensor<10xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.embedding %i, %w : (tensor<3xi64>, tensor<10xf32>) -> tensor<3xf32>
  return
}

// -----

// Tests that embedding's indices are integer.
func.func @embedding_s_indices_are_integer(%i: tensor<3xf32>, %w: tensor<10x4xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of i64 or i32 values}}
  %0 = tcc.embedding %i, %w : (tensor<3xf32>, tensor<10x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

// Tests that pad has an even number of values.
func.func @pad_has_an_even_number_of_values(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{'pad' must have an even number of values, at most 2 per dim (4), got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.pad %a {pad = array<i64: 1, 1, 1>} : tensor<2x3xf32> -> tensor<3x5xf32>
  return
}

// -----

// Tests that pad has at most two values per dim.
func.func @pad_has_at_most_two_values_per_dim(%a: tensor<3xf32>) {
  // expected-error @+2 {{'pad' must have an even number of values, at most 2 per dim (2), got 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.pad %a {pad = array<i64: 1, 1, 1, 1>} : tensor<3xf32> -> tensor<5xf32>
  return
}

// -----

// Tests that negative padding leaves a non-negative size.
func.func @negative_padding_leaves_a_non_negative_s(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{padding [-2, -2] of dim 1 leaves a negative size -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.pad %a {pad = array<i64: -2, -2>} : tensor<2x3xf32> -> tensor<2x0xf32>
  return
}

// -----

// Tests that an integer tensor pads with a representable value.
func.func @an_integer_tensor_pads_with_a_representa(%a: tensor<2x3xui8>) {
  // expected-error @+2 {{padding value 2.560000e+02 is not representable in 'ui8'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.pad %a {pad = array<i64: 1, 1>, value = 256.0} : tensor<2x3xui8> -> tensor<2x5xui8>
  return
}

// -----

// Tests that tcc.name has no NUL byte (the artifact's names are C strings).
// expected-error @+1 {{'tcc.name' of argument #0 must not contain a NUL byte}}
func.func @name_with_nul(%x: tensor<2xf32> {tcc.name = "a\00b"}) {
  return
}

// -----

// Tests that tcc.name is a string.
// expected-error @+1 {{'tcc.name' of argument #0 must be a non-empty string, got 3 : i64}}
func.func @name_not_string(%x: tensor<2xf32> {tcc.name = 3 : i64}) {
  return
}

// -----

// Tests that tcc.name is not empty.
// expected-error @+1 {{'tcc.name' of result #0 must be a non-empty string, got ""}}
func.func @name_empty(%x: tensor<2xf32>) -> (tensor<2xf32> {tcc.name = ""}) {
  return %x : tensor<2xf32>
}

// -----

// Tests that argument names are unique.
// expected-error @+1 {{'tcc.name' "x" of argument #1 is already used by argument #0}}
func.func @name_duplicate_args(%a: tensor<2xf32> {tcc.name = "x"}, %b: tensor<2xf32> {tcc.name = "x"}) {
  return
}

// -----

// Tests that arguments and results share one namespace.
// expected-error @+1 {{'tcc.name' "x" of result #0 is already used by argument #0}}
func.func @name_duplicate_result(%a: tensor<2xf32> {tcc.name = "x"}) -> (tensor<2xf32> {tcc.name = "x"}) {
  return %a : tensor<2xf32>
}

// -----

// Tests that tcc.name only names function arguments and results.
func.func @name_on_op(%x: tensor<2xf32>) {
  // expected-error @+1 {{'tcc.name' is only valid on function arguments and results}}
  %0 = tcc.relu %x {tcc.name = "y"} : tensor<2xf32>
  return
}

// -----

// Tests that unknown tcc attributes on arguments are rejected.
// expected-error @+1 {{has unknown tcc attribute 'tcc.nmae' on argument #0}}
func.func @unknown_arg_attr(%x: tensor<2xf32> {tcc.nmae = "x"}) {
  return
}

// -----

// Tests that unknown tcc attributes on ops are rejected.
func.func @unknown_op_attr(%x: tensor<2xf32>) {
  // expected-error @+1 {{has unknown tcc attribute 'tcc.nmae'}}
  %0 = tcc.relu %x {tcc.nmae = "y"} : tensor<2xf32>
  return
}

// -----

// Tests that matmul operands share an element type.
func.func @matmul_mixed_types(%a: tensor<2x3xf32>, %b: tensor<3x4xf16>) {
  // expected-error @+2 {{operands have different element types: 'f32' and 'f16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf16>) -> tensor<2x4xf32>
  return
}

// -----

// Tests that linear operands share an element type.
func.func @linear_mixed_types(%x: tensor<2x4xf32>, %w: tensor<3x4xbf16>) {
  // expected-error @+2 {{operands have different element types: 'f32' and 'bf16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.linear %x, %w : (tensor<2x4xf32>, tensor<3x4xbf16>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that layer_norm operands share an element type.
func.func @layer_norm_mixed_types(%x: tensor<2x4xf32>, %b: tensor<4xf64>) {
  // expected-error @+2 {{operands have different element types: 'f32' and 'f64'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.layer_norm %x bias %b {normalized_shape = array<i64: 4>} : (tensor<2x4xf32>, tensor<4xf64>) -> tensor<2x4xf32>
  return
}

// -----

// Tests that batch_norm operands share an element type.
func.func @batch_norm_mixed_types(%x: tensor<2x3xf32>, %c: tensor<3xf32>, %h: tensor<3xf16>) {
  // expected-error @+2 {{operands have different element types: 'f32' and 'f16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.batch_norm %x, %c, %h, %c, %c : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that conv2d's window arithmetic is overflow-checked.
func.func @conv2d_huge_padding(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{height window arithmetic overflows int64_t}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d %x, %w {padding = array<i64: 4611686018427387904, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that padded sizes are overflow-checked.
func.func @pad_huge(%x: tensor<2xf32>) {
  // expected-error @+2 {{padded size of dim 0 overflows int64_t}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.pad %x {pad = array<i64: 9223372036854775807, 0>} : tensor<2xf32> -> tensor<2xf32>
  return
}

// -----

// Tests that concatenated sizes are overflow-checked.
func.func @concat_huge(%x: tensor<4611686018427387904xi8>) {
  // expected-error @+2 {{concatenated size overflows int64_t}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.concat %x, %x {dim = 0} : (tensor<4611686018427387904xi8>, tensor<4611686018427387904xi8>) -> tensor<1xi8>
  return
}

// -----

// Tests that exp rejects integer tensors.
func.func @exp_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.exp %x : tensor<3xi32>
  return
}

// -----

// Tests that log rejects integer tensors.
func.func @log_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.log %x : tensor<3xi32>
  return
}

// -----

// Tests that log1p rejects integer tensors.
func.func @log1p_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.log1p %x : tensor<3xi32>
  return
}

// -----

// Tests that sqrt rejects integer tensors.
func.func @sqrt_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.sqrt %x : tensor<3xi32>
  return
}

// -----

// Tests that rsqrt rejects integer tensors.
func.func @rsqrt_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.rsqrt %x : tensor<3xi32>
  return
}

// -----

// Tests that tanh rejects integer tensors.
func.func @tanh_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.tanh %x : tensor<3xi32>
  return
}

// -----

// Tests that sigmoid rejects integer tensors.
func.func @sigmoid_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.sigmoid %x : tensor<3xi32>
  return
}

// -----

// Tests that silu rejects integer tensors.
func.func @silu_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.silu %x : tensor<3xi32>
  return
}

// -----

// Tests that erf rejects integer tensors.
func.func @erf_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.erf %x : tensor<3xi32>
  return
}

// -----

// Tests that sin rejects integer tensors.
func.func @sin_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.sin %x : tensor<3xi32>
  return
}

// -----

// Tests that cos rejects integer tensors.
func.func @cos_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.cos %x : tensor<3xi32>
  return
}

// -----

// Tests that floor rejects integer tensors.
func.func @floor_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.floor %x : tensor<3xi32>
  return
}

// -----

// Tests that ceil rejects integer tensors.
func.func @ceil_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.ceil %x : tensor<3xi32>
  return
}

// -----

// Tests that round rejects integer tensors.
func.func @round_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.round %x : tensor<3xi32>
  return
}

// -----

// Tests that gelu rejects integer tensors.
func.func @gelu_integer(%x: tensor<3xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating point values}}
  %0 = tcc.gelu %x : tensor<3xi32>
  return
}

// -----

// Tests that neg rejects i1 tensors.
func.func @neg_bool(%x: tensor<3xi1>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of numeric (not i1) values}}
  %0 = tcc.neg %x : tensor<3xi1>
  return
}

// -----

// Tests that abs rejects i1 tensors.
func.func @abs_bool(%x: tensor<3xi1>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of numeric (not i1) values}}
  %0 = tcc.abs %x : tensor<3xi1>
  return
}

// -----

// Tests that relu rejects i1 tensors.
func.func @relu_bool(%x: tensor<3xi1>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of numeric (not i1) values}}
  %0 = tcc.relu %x : tensor<3xi1>
  return
}

// -----

// Tests that sign rejects i1 tensors.
func.func @sign_bool(%x: tensor<3xi1>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of numeric (not i1) values}}
  %0 = tcc.sign %x : tensor<3xi1>
  return
}

// -----

// Tests that add checks that its operands broadcast.
func.func @add_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.add %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that sub checks that its operands broadcast.
func.func @sub_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.sub %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that mul checks that its operands broadcast.
func.func @mul_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.mul %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that div checks that its operands broadcast.
func.func @div_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.div %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that pow checks that its operands broadcast.
func.func @pow_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.pow %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that maximum checks that its operands broadcast.
func.func @maximum_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.maximum %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that minimum checks that its operands broadcast.
func.func @minimum_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.minimum %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that remainder checks that its operands broadcast.
func.func @remainder_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.remainder %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that floor_divide checks that its operands broadcast.
func.func @floor_divide_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.floor_divide %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that eq checks that its operands broadcast.
func.func @eq_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.eq %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xi1>
  return
}

// -----

// Tests that ne checks that its operands broadcast.
func.func @ne_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.ne %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xi1>
  return
}

// -----

// Tests that lt checks that its operands broadcast.
func.func @lt_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.lt %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xi1>
  return
}

// -----

// Tests that le checks that its operands broadcast.
func.func @le_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.le %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xi1>
  return
}

// -----

// Tests that gt checks that its operands broadcast.
func.func @gt_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.gt %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xi1>
  return
}

// -----

// Tests that ge checks that its operands broadcast.
func.func @ge_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.ge %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xi1>
  return
}

// -----

// Tests that logical_and checks that its operands broadcast.
func.func @logical_and_broadcast(%a: tensor<4x3xi1>, %b: tensor<5xi1>) {
  // expected-error @+2 {{shapes 'tensor<4x3xi1>' and 'tensor<5xi1>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.logical_and %a, %b : (tensor<4x3xi1>, tensor<5xi1>) -> tensor<4x3xi1>
  return
}

// -----

// Tests that logical_or checks that its operands broadcast.
func.func @logical_or_broadcast(%a: tensor<4x3xi1>, %b: tensor<5xi1>) {
  // expected-error @+2 {{shapes 'tensor<4x3xi1>' and 'tensor<5xi1>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.logical_or %a, %b : (tensor<4x3xi1>, tensor<5xi1>) -> tensor<4x3xi1>
  return
}

// -----

// Tests that logical_xor checks that its operands broadcast.
func.func @logical_xor_broadcast(%a: tensor<4x3xi1>, %b: tensor<5xi1>) {
  // expected-error @+2 {{shapes 'tensor<4x3xi1>' and 'tensor<5xi1>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.logical_xor %a, %b : (tensor<4x3xi1>, tensor<5xi1>) -> tensor<4x3xi1>
  return
}

// -----

// Tests that reduce_min, like reduce_max, has no identity for an empty dim.
func.func @reduce_min_empty(%x: tensor<0x3xf32>) {
  // expected-error @+2 {{cannot reduce dim 0 of size 0 (no identity)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.reduce_min %x {dims = array<i64: 0>} : tensor<0x3xf32> -> tensor<3xf32>
  return
}

// -----

// Tests that a kernel's tile count is a positive integer.
// expected-error @+1 {{'tcc.tiles' must be an integer >= 1}}
func.func @bad_tiles() attributes {tcc.tiles = 0 : i64} {
  return
}

// -----

// Tests that scratch sizes are an array of byte sizes.
// expected-error @+1 {{'tcc.scratch_bytes' must be an array of byte sizes}}
func.func @bad_scratch() attributes {tcc.scratch_bytes = array<i64: -4>} {
  return
}

// -----

// Tests that a fusion yields values of its result types.
func.func @fusion_yield_type(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{result 0 has type 'tensor<8xf32>' but yields 'tensor<8xi1>'}}
  %0 = tcc.fusion (%a) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%x: tensor<8xf32>):
    %1 = tcc.gt %x, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    tcc.yield %1 : tensor<8xi1>
  }
  return %0 : tensor<8xf32>
}

// -----

// Tests that a fusion's block arguments match its inputs.
func.func @fusion_arguments(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{input 0 has type 'tensor<8xf32>' but block argument 0 has type 'tensor<4xf32>'}}
  %0 = tcc.fusion (%a) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%x: tensor<4xf32>):
    %1 = tcc.constant dense<0.0> : tensor<8xf32>
    tcc.yield %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// Tests that a fusion holds only tcc ops, and no nested fusion.
func.func @fusion_nested(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tcc.fusion (%a) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%x: tensor<8xf32>):
    // expected-error @+1 {{cannot appear in a tcc.fusion}}
    %1 = tcc.fusion (%x) : (tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%y: tensor<8xf32>):
      tcc.yield %y : tensor<8xf32>
    }
    tcc.yield %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// Tests that tcc.yield lives only in a fusion.
func.func @yield_outside(%a: tensor<8xf32>) {
  // expected-error @+1 {{expects parent op 'tcc.fusion'}}
  tcc.yield %a : tensor<8xf32>
}

// -----

// Tests that quantize's scale has the input's float type.
func.func @quantize_s_scale_has_the_input_s_type(%x: tensor<4xf32>, %s: tensor<f64>, %zp: tensor<ui8>) {
  // expected-error @+2 {{scale must have the input's element type 'f32', got 'tensor<f64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.quantize %x, %s, %zp : (tensor<4xf32>, tensor<f64>, tensor<ui8>) -> tensor<4xui8>
  return
}

// -----

// Tests that a per-channel scale matches the size of its axis.
func.func @per_channel_scale_matches_its_axis(%x: tensor<4x8xf32>, %s: tensor<8xf32>, %zp: tensor<8xi8>) {
  // expected-error @+2 {{per-channel scale 'tensor<8xf32>' does not match dim 0 of 'tensor<4x8xf32>' (size 4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.quantize %x, %s, %zp {axis = 0 : i64} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xi8>) -> tensor<4x8xi8>
  return
}

// -----

// Tests that a per-channel axis is in range.
func.func @per_channel_axis_is_in_range(%x: tensor<4x8xf32>, %s: tensor<8xf32>, %zp: tensor<8xi8>) {
  // expected-error @+2 {{axis 2 is out of range}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.quantize %x, %s, %zp {axis = 2 : i64} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xi8>) -> tensor<4x8xi8>
  return
}

// -----

// Tests that scale and zero point have one shape.
func.func @scale_and_zero_point_have_one_shape(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<4xui8>) {
  // expected-error @+2 {{scale 'tensor<f32>' and zero_point 'tensor<4xui8>' must have the same shape}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.quantize %x, %s, %zp : (tensor<4xf32>, tensor<f32>, tensor<4xui8>) -> tensor<4xui8>
  return
}

// -----

// Tests that a quantized result is ui8, i8 or i32.
func.func @quantized_result_is_ui8_i8_or_i32(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<i64>) {
  // expected-error @+1 {{operand #2 must be statically shaped tensor of ui8, i8 or i32 values, but got 'tensor<i64>'}}
  %0 = tcc.quantize %x, %s, %zp : (tensor<4xf32>, tensor<f32>, tensor<i64>) -> tensor<4xi64>
  return
}

// -----

// Tests that dequantize's zero point has the input's type.
func.func @dequantize_s_zero_point_has_the_input_s_type(%q: tensor<4xui8>, %s: tensor<f32>, %zp: tensor<i8>) {
  // expected-error @+2 {{zero_point must have the input's element type 'ui8', got 'tensor<i8>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.dequantize %q, %s, %zp : (tensor<4xui8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  return
}

// -----

// Tests that requantize takes an i32 accumulator.
func.func @requantize_takes_an_i32_accumulator(%acc: tensor<4xui8>, %m: tensor<f32>, %zp: tensor<ui8>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 32-bit signless integer values, but got 'tensor<4xui8>'}}
  %0 = tcc.requantize %acc, %m, %zp : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  return
}

// -----

// Tests that requantize's result is 8-bit.
func.func @requantize_s_result_is_8_bit(%acc: tensor<4xi32>, %m: tensor<f32>, %zp: tensor<i32>) {
  // expected-error @+1 {{result #0 must be statically shaped tensor of 8-bit unsigned integer or 8-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = tcc.requantize %acc, %m, %zp : (tensor<4xi32>, tensor<f32>, tensor<i32>) -> tensor<4xi32>
  return
}

// -----

// Tests that matmul_integer's operands are 8-bit.
func.func @matmul_integer_s_operands_are_8_bit(%a: tensor<2x3xi32>, %b: tensor<3x2xi8>, %azp: tensor<i32>, %bzp: tensor<i8>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 8-bit unsigned integer or 8-bit signless integer values, but got 'tensor<2x3xi32>'}}
  %0 = tcc.matmul_integer %a, %b, %azp, %bzp : (tensor<2x3xi32>, tensor<3x2xi8>, tensor<i32>, tensor<i8>) -> tensor<2x2xi32>
  return
}

// -----

// Tests that a per-column zero point of matmul_integer has N values.
func.func @matmul_integer_per_column_zero_point(%a: tensor<2x3xui8>, %b: tensor<3x2xi8>, %azp: tensor<ui8>, %bzp: tensor<3xi8>) {
  // expected-error @+2 {{rhs_zero_point must be 0-d or [2] (per column), got 'tensor<3xi8>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.matmul_integer %a, %b, %azp, %bzp : (tensor<2x3xui8>, tensor<3x2xi8>, tensor<ui8>, tensor<3xi8>) -> tensor<2x2xi32>
  return
}

// -----

// Tests that matmul_integer's contraction dims agree.
func.func @matmul_integer_contraction_dims_agree(%a: tensor<2x3xui8>, %b: tensor<4x2xi8>, %azp: tensor<ui8>, %bzp: tensor<i8>) {
  // expected-error @+2 {{contraction dimensions differ: 'tensor<2x3xui8>' and 'tensor<4x2xi8>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.matmul_integer %a, %b, %azp, %bzp : (tensor<2x3xui8>, tensor<4x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<2x2xi32>
  return
}

// -----

// Tests that conv2d_integer's input zero point is per tensor.
func.func @conv2d_integer_input_zero_point_is_per_tensor(%x: tensor<1x2x4x4xui8>, %w: tensor<2x2x1x1xi8>, %xzp: tensor<2xui8>, %wzp: tensor<i8>) {
  // expected-error @+2 {{input_zero_point must be 0-d, got 'tensor<2xui8>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d_integer %x, %w, %xzp, %wzp : (tensor<1x2x4x4xui8>, tensor<2x2x1x1xi8>, tensor<2xui8>, tensor<i8>) -> tensor<1x2x4x4xi32>
  return
}

// -----

// Tests that conv2d_integer checks groups as conv2d does.
func.func @conv2d_integer_checks_groups(%x: tensor<1x4x4x4xui8>, %w: tensor<4x1x1x1xi8>, %xzp: tensor<ui8>, %wzp: tensor<i8>) {
  // expected-error @+2 {{weight 'tensor<4x1x1x1xi8>' with groups = 2 expects input channels = 1 * 2, but input 'tensor<1x4x4x4xui8>' has 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.conv2d_integer %x, %w, %xzp, %wzp {groups = 2 : i64} : (tensor<1x4x4x4xui8>, tensor<4x1x1x1xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x4x4x4xi32>
  return
}
