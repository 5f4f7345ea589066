// RUN: tcc-opt --split-input-file %s | FileCheck %s
// Round trip: print -> parse -> print is identical, in the custom and the
// generic form, and the generic form parses back to the custom one.
// RUN: tcc-opt --split-input-file %s > %t.custom
// RUN: tcc-opt --split-input-file %t.custom > %t.custom2
// RUN: diff %t.custom %t.custom2
// RUN: tcc-opt --split-input-file --mlir-print-op-generic %s > %t.generic
// RUN: tcc-opt --split-input-file --mlir-print-op-generic %t.generic > %t.generic2
// RUN: diff %t.generic %t.generic2
// RUN: tcc-opt --split-input-file %t.generic | diff %t.custom -

// Tests that constants parse with inline and resource data.
// CHECK-LABEL: func.func @constant
func.func @constant() -> (tensor<2xf32>, tensor<2xf32>, tensor<2x2xi1>) {
  // CHECK: tcc.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %0 = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: tcc.constant dense_resource<w> : tensor<2xf32>
  %1 = tcc.constant dense_resource<w> : tensor<2xf32>
  // CHECK: tcc.constant dense<true> : tensor<2x2xi1>
  %2 = tcc.constant dense<true> : tensor<2x2xi1>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2x2xi1>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// Tests every same-type unary op.
// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<4x3xf32>, %i: tensor<4x3xi32>, %b: tensor<4x3xi1>) {
  // CHECK: tcc.neg %{{.*}} : tensor<4x3xf32>
  %0 = tcc.neg %x : tensor<4x3xf32>
  // CHECK: tcc.neg %{{.*}} : tensor<4x3xi32>
  %1 = tcc.neg %i : tensor<4x3xi32>
  // CHECK: tcc.abs %{{.*}} : tensor<4x3xi32>
  %2 = tcc.abs %i : tensor<4x3xi32>
  // CHECK: tcc.relu %{{.*}} : tensor<4x3xf32>
  %3 = tcc.relu %x : tensor<4x3xf32>
  // CHECK: tcc.sign %{{.*}} : tensor<4x3xf32>
  %4 = tcc.sign %x : tensor<4x3xf32>
  // CHECK: tcc.exp %{{.*}} : tensor<4x3xf32>
  %5 = tcc.exp %x : tensor<4x3xf32>
  // CHECK: tcc.log %{{.*}} : tensor<4x3xf32>
  %6 = tcc.log %x : tensor<4x3xf32>
  // CHECK: tcc.log1p %{{.*}} : tensor<4x3xf32>
  %7 = tcc.log1p %x : tensor<4x3xf32>
  // CHECK: tcc.sqrt %{{.*}} : tensor<4x3xf32>
  %8 = tcc.sqrt %x : tensor<4x3xf32>
  // CHECK: tcc.rsqrt %{{.*}} : tensor<4x3xf32>
  %9 = tcc.rsqrt %x : tensor<4x3xf32>
  // CHECK: tcc.tanh %{{.*}} : tensor<4x3xf32>
  %10 = tcc.tanh %x : tensor<4x3xf32>
  // CHECK: tcc.sigmoid %{{.*}} : tensor<4x3xf32>
  %11 = tcc.sigmoid %x : tensor<4x3xf32>
  // CHECK: tcc.silu %{{.*}} : tensor<4x3xf32>
  %12 = tcc.silu %x : tensor<4x3xf32>
  // CHECK: tcc.erf %{{.*}} : tensor<4x3xf32>
  %13 = tcc.erf %x : tensor<4x3xf32>
  // CHECK: tcc.sin %{{.*}} : tensor<4x3xf32>
  %14 = tcc.sin %x : tensor<4x3xf32>
  // CHECK: tcc.cos %{{.*}} : tensor<4x3xf32>
  %15 = tcc.cos %x : tensor<4x3xf32>
  // CHECK: tcc.floor %{{.*}} : tensor<4x3xf32>
  %16 = tcc.floor %x : tensor<4x3xf32>
  // CHECK: tcc.ceil %{{.*}} : tensor<4x3xf32>
  %17 = tcc.ceil %x : tensor<4x3xf32>
  // CHECK: tcc.round %{{.*}} : tensor<4x3xf32>
  %18 = tcc.round %x : tensor<4x3xf32>
  // CHECK: tcc.logical_not %{{.*}} : tensor<4x3xi1>
  %19 = tcc.logical_not %b : tensor<4x3xi1>
  // CHECK: tcc.gelu %{{.*}} : tensor<4x3xf32>
  %20 = tcc.gelu %x : tensor<4x3xf32>
  // CHECK: tcc.gelu %{{.*}} approximate tanh : tensor<4x3xf32>
  %21 = tcc.gelu %x approximate tanh : tensor<4x3xf32>
  // CHECK: tcc.clamp %{{.*}} min 0.000000e+00 max 6.000000e+00 : tensor<4x3xf32>
  %22 = tcc.clamp %x min 0.0 max 6.0 : tensor<4x3xf32>
  // CHECK: tcc.clamp %{{.*}} max 6.000000e+00 : tensor<4x3xi32>
  %23 = tcc.clamp %i max 6.0 : tensor<4x3xi32>
  // CHECK: tcc.dropout %{{.*}} {p = 1.000000e-01 : f64} : tensor<4x3xf32>
  %24 = tcc.dropout %x {p = 0.1 : f64} : tensor<4x3xf32>
  return
}

// -----

// Tests the broadcasting binary, comparison and logical ops.
// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<4x3xf32>, %b: tensor<3xf32>, %i: tensor<2x1xi64>,
                  %j: tensor<5xi64>, %p: tensor<4x1xi1>, %q: tensor<3xi1>) {
  // CHECK: tcc.add %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %0 = tcc.add %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK: tcc.sub %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = tcc.sub %b, %a : (tensor<3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  // CHECK: tcc.mul %{{.*}}, %{{.*}} : (tensor<2x1xi64>, tensor<5xi64>) -> tensor<2x5xi64>
  %2 = tcc.mul %i, %j : (tensor<2x1xi64>, tensor<5xi64>) -> tensor<2x5xi64>
  // CHECK: tcc.div %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %3 = tcc.div %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK: tcc.pow %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %4 = tcc.pow %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK: tcc.maximum %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %5 = tcc.maximum %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK: tcc.minimum %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %6 = tcc.minimum %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK: tcc.remainder %{{.*}}, %{{.*}} : (tensor<2x1xi64>, tensor<5xi64>) -> tensor<2x5xi64>
  %7 = tcc.remainder %i, %j : (tensor<2x1xi64>, tensor<5xi64>) -> tensor<2x5xi64>
  // CHECK: tcc.floor_divide %{{.*}}, %{{.*}} : (tensor<2x1xi64>, tensor<5xi64>) -> tensor<2x5xi64>
  %8 = tcc.floor_divide %i, %j : (tensor<2x1xi64>, tensor<5xi64>) -> tensor<2x5xi64>
  // CHECK: tcc.eq %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  %9 = tcc.eq %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  // CHECK: tcc.ne %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  %10 = tcc.ne %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  // CHECK: tcc.lt %{{.*}}, %{{.*}} : (tensor<2x1xi64>, tensor<5xi64>) -> tensor<2x5xi1>
  %11 = tcc.lt %i, %j : (tensor<2x1xi64>, tensor<5xi64>) -> tensor<2x5xi1>
  // CHECK: tcc.le %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  %12 = tcc.le %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  // CHECK: tcc.gt %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  %13 = tcc.gt %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  // CHECK: tcc.ge %{{.*}}, %{{.*}} : (tensor<4x1xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  %14 = tcc.ge %p, %q : (tensor<4x1xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  // CHECK: tcc.logical_and %{{.*}}, %{{.*}} : (tensor<4x1xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  %15 = tcc.logical_and %p, %q : (tensor<4x1xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  // CHECK: tcc.logical_or %{{.*}}, %{{.*}} : (tensor<4x1xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  %16 = tcc.logical_or %p, %q : (tensor<4x1xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  // CHECK: tcc.logical_xor %{{.*}}, %{{.*}} : (tensor<4x1xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  %17 = tcc.logical_xor %p, %q : (tensor<4x1xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  return
}

// -----

// Tests select's three-way broadcast and cast between element types.
// CHECK-LABEL: func.func @select_cast
func.func @select_cast(%c: tensor<4x1xi1>, %a: tensor<3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xi8> {
  // CHECK: tcc.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x1xi1>, tensor<3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %0 = tcc.select %c, %a, %b : (tensor<4x1xi1>, tensor<3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  // CHECK: tcc.cast %{{.*}} : tensor<4x3xf32> to tensor<4x3xbf16>
  %1 = tcc.cast %0 : tensor<4x3xf32> to tensor<4x3xbf16>
  // CHECK: tcc.cast %{{.*}} : tensor<4x3xbf16> to tensor<4x3xi8>
  %2 = tcc.cast %1 : tensor<4x3xbf16> to tensor<4x3xi8>
  return %2 : tensor<4x3xi8>
}

// -----

// Tests bitcast between element types of one width.
// CHECK-LABEL: func.func @bitcast
func.func @bitcast(%x: tensor<2x3xf32>, %h: tensor<5xf16>) -> (tensor<2x3xi32>, tensor<5xbf16>) {
  // CHECK: tcc.bitcast %{{.*}} : tensor<2x3xf32> to tensor<2x3xi32>
  %0 = tcc.bitcast %x : tensor<2x3xf32> to tensor<2x3xi32>
  // CHECK: tcc.bitcast %{{.*}} : tensor<5xf16> to tensor<5xbf16>
  %1 = tcc.bitcast %h : tensor<5xf16> to tensor<5xbf16>
  return %0, %1 : tensor<2x3xi32>, tensor<5xbf16>
}

// -----

// Tests batched matmul and linear with and without bias.
// CHECK-LABEL: func.func @linear_algebra
func.func @linear_algebra(%a: tensor<2x8x16xf32>, %b: tensor<16x4xf32>,
                          %w: tensor<5x16xf32>, %bias: tensor<5xf32>) {
  // CHECK: tcc.matmul %{{.*}}, %{{.*}} : (tensor<2x8x16xf32>, tensor<16x4xf32>) -> tensor<2x8x4xf32>
  %0 = tcc.matmul %a, %b : (tensor<2x8x16xf32>, tensor<16x4xf32>) -> tensor<2x8x4xf32>
  // CHECK: tcc.linear %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x8x16xf32>, tensor<5x16xf32>, tensor<5xf32>) -> tensor<2x8x5xf32>
  %1 = tcc.linear %a, %w, %bias : (tensor<2x8x16xf32>, tensor<5x16xf32>, tensor<5xf32>) -> tensor<2x8x5xf32>
  // CHECK: tcc.linear %{{.*}}, %{{.*}} : (tensor<2x8x16xf32>, tensor<5x16xf32>) -> tensor<2x8x5xf32>
  %2 = tcc.linear %a, %w : (tensor<2x8x16xf32>, tensor<5x16xf32>) -> tensor<2x8x5xf32>
  return
}

// -----

// Tests conv2d (grouped, strided, dilated, NHWC) and the pooling ops.
// CHECK-LABEL: func.func @conv_pool
func.func @conv_pool(%x: tensor<1x4x9x9xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>,
                     %xh: tensor<1x9x9x4xf32>, %wh: tensor<6x3x3x4xf32>) {
  // CHECK: tcc.conv2d %{{.*}}, %{{.*}}, %{{.*}} {groups = 2 : i64, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x5x5xf32>
  %0 = tcc.conv2d %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, groups = 2} : (tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x5x5xf32>
  // CHECK: tcc.conv2d %{{.*}}, %{{.*}} {dilation = array<i64: 2, 3>, groups = 2 : i64} : (tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x5x3xf32>
  %1 = tcc.conv2d %x, %w {dilation = array<i64: 2, 3>, groups = 2} : (tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x5x3xf32>
  // CHECK: tcc.conv2d %{{.*}}, %{{.*}} {layout = #tcc.layout<nhwc>} : (tensor<1x9x9x4xf32>, tensor<6x3x3x4xf32>) -> tensor<1x7x7x6xf32>
  %2 = tcc.conv2d %xh, %wh {layout = #tcc.layout<nhwc>} : (tensor<1x9x9x4xf32>, tensor<6x3x3x4xf32>) -> tensor<1x7x7x6xf32>
  // CHECK: tcc.max_pool2d %{{.*}} {ceil_mode = true, kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  %3 = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, ceil_mode = true} : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  // CHECK: tcc.max_pool2d %{{.*}} {dilation = array<i64: 2, 2>, kernel_size = array<i64: 3, 3>, layout = #tcc.layout<nhwc>, padding = array<i64: 1, 1>, stride = array<i64: 1, 1>} : tensor<1x9x9x4xf32> -> tensor<1x7x7x4xf32>
  %4 = tcc.max_pool2d %xh {kernel_size = array<i64: 3, 3>, stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 2>, layout = #tcc.layout<nhwc>} : tensor<1x9x9x4xf32> -> tensor<1x7x7x4xf32>
  // CHECK: tcc.avg_pool2d %{{.*}} {count_include_pad = false, divisor_override = 3 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  %5 = tcc.avg_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, count_include_pad = false, divisor_override = 3} : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  // CHECK: tcc.adaptive_avg_pool2d %{{.*}} {output_size = array<i64: 1, 2>} : tensor<1x4x9x9xf32> -> tensor<1x4x1x2xf32>
  %6 = tcc.adaptive_avg_pool2d %x {output_size = array<i64: 1, 2>} : tensor<1x4x9x9xf32> -> tensor<1x4x1x2xf32>
  return
}

// -----

// Tests reductions (negative dims stay as written until folding).
// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<2x3x4xf32>, %b: tensor<2x3xi1>) {
  // CHECK: tcc.reduce_sum %{{.*}} {dims = array<i64: 0, 2>} : tensor<2x3x4xf32> -> tensor<3xf32>
  %0 = tcc.reduce_sum %x {dims = array<i64: 0, 2>} : tensor<2x3x4xf32> -> tensor<3xf32>
  // CHECK: tcc.reduce_mean %{{.*}} {dims = array<i64: -1>, keepdim = true} : tensor<2x3x4xf32> -> tensor<2x3x1xf32>
  %1 = tcc.reduce_mean %x {dims = array<i64: -1>, keepdim = true} : tensor<2x3x4xf32> -> tensor<2x3x1xf32>
  // CHECK: tcc.reduce_max %{{.*}} {dims = array<i64: 1>} : tensor<2x3xi1> -> tensor<2xi1>
  %2 = tcc.reduce_max %b {dims = array<i64: 1>} : tensor<2x3xi1> -> tensor<2xi1>
  // CHECK: tcc.reduce_min %{{.*}} {dims = array<i64: 0, 1, 2>} : tensor<2x3x4xf32> -> tensor<f32>
  %3 = tcc.reduce_min %x {dims = array<i64: 0, 1, 2>} : tensor<2x3x4xf32> -> tensor<f32>
  // CHECK: tcc.reduce_prod %{{.*}} {dims = array<i64: 1>} : tensor<2x3x4xf32> -> tensor<2x4xf32>
  %4 = tcc.reduce_prod %x {dims = array<i64: 1>} : tensor<2x3x4xf32> -> tensor<2x4xf32>
  // CHECK: tcc.argmax %{{.*}} {dim = 1 : i64} : tensor<2x3x4xf32> -> tensor<2x4xi64>
  %5 = tcc.argmax %x {dim = 1} : tensor<2x3x4xf32> -> tensor<2x4xi64>
  // CHECK: tcc.argmin %{{.*}} {dim = -1 : i64, keepdim = true} : tensor<2x3x4xf32> -> tensor<2x3x1xi64>
  %6 = tcc.argmin %x {dim = -1, keepdim = true} : tensor<2x3x4xf32> -> tensor<2x3x1xi64>
  return
}

// -----

// Tests softmax and the normalizations.
// CHECK-LABEL: func.func @normalization
func.func @normalization(%x: tensor<2x3x4xf32>, %g: tensor<3x4xf32>, %img: tensor<2x3x5x5xf32>, %c: tensor<3xf32>) {
  // CHECK: tcc.softmax %{{.*}} {dim = -1 : i64} : tensor<2x3x4xf32>
  %0 = tcc.softmax %x {dim = -1} : tensor<2x3x4xf32>
  // CHECK: tcc.log_softmax %{{.*}} {dim = 1 : i64} : tensor<2x3x4xf32>
  %1 = tcc.log_softmax %x {dim = 1} : tensor<2x3x4xf32>
  // CHECK: tcc.layer_norm %{{.*}} weight %{{.*}} bias %{{.*}} {normalized_shape = array<i64: 3, 4>} : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %2 = tcc.layer_norm %x weight %g bias %g {normalized_shape = array<i64: 3, 4>} : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: tcc.layer_norm %{{.*}} bias %{{.*}} {eps = 9.9999999999999995E-7 : f64, normalized_shape = array<i64: 3, 4>} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %3 = tcc.layer_norm %x bias %g {normalized_shape = array<i64: 3, 4>, eps = 1.0e-6} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: tcc.layer_norm %{{.*}} {normalized_shape = array<i64: 4>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %4 = tcc.layer_norm %x {normalized_shape = array<i64: 4>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: tcc.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5x5xf32>
  %5 = tcc.batch_norm %img, %c, %c, %c, %c : (tensor<2x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5x5xf32>
  return
}

// -----

// Tests the shape and layout ops.
// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>, %v: tensor<3xi32>) {
  // CHECK: tcc.reshape %{{.*}} : tensor<2x3x4xf32> to tensor<6x4xf32>
  %0 = tcc.reshape %x : tensor<2x3x4xf32> to tensor<6x4xf32>
  // CHECK: tcc.transpose %{{.*}} {permutation = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %1 = tcc.transpose %x {permutation = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  // CHECK: tcc.broadcast_to %{{.*}} : tensor<3xi32> to tensor<2x3xi32>
  %2 = tcc.broadcast_to %v : tensor<3xi32> to tensor<2x3xi32>
  // CHECK: tcc.slice %{{.*}} {end = array<i64: 2, 3, 4>, start = array<i64: 1, 0, 1>, step = array<i64: 1, 2, 2>} : tensor<2x3x4xf32> -> tensor<1x2x2xf32>
  %3 = tcc.slice %x {start = array<i64: 1, 0, 1>, end = array<i64: 2, 3, 4>, step = array<i64: 1, 2, 2>} : tensor<2x3x4xf32> -> tensor<1x2x2xf32>
  // CHECK: tcc.concat %{{.*}}, %{{.*}}, %{{.*}} {dim = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x3x4xf32>) -> tensor<2x11x4xf32>
  %4 = tcc.concat %x, %y, %x {dim = 1} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x3x4xf32>) -> tensor<2x11x4xf32>
  // CHECK: tcc.pad %{{.*}} {pad = array<i64: 1, 2, 0, -1>, value = -1.000000e+00 : f64} : tensor<2x3x4xf32> -> tensor<2x2x7xf32>
  %5 = tcc.pad %x {pad = array<i64: 1, 2, 0, -1>, value = -1.0} : tensor<2x3x4xf32> -> tensor<2x2x7xf32>
  return
}

// -----

// Tests the indexing ops.
// CHECK-LABEL: func.func @indexing
func.func @indexing(%x: tensor<4x5xf32>, %i: tensor<4x2xi64>, %j: tensor<3xi32>,
                    %table: tensor<10x8xbf16>, %ids: tensor<2x3xi64>) {
  // CHECK: tcc.gather %{{.*}}, %{{.*}} {dim = 1 : i64} : (tensor<4x5xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  %0 = tcc.gather %x, %i {dim = 1} : (tensor<4x5xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  // CHECK: tcc.index_select %{{.*}}, %{{.*}} {dim = 0 : i64} : (tensor<4x5xf32>, tensor<3xi32>) -> tensor<3x5xf32>
  %1 = tcc.index_select %x, %j {dim = 0} : (tensor<4x5xf32>, tensor<3xi32>) -> tensor<3x5xf32>
  // CHECK: tcc.embedding %{{.*}}, %{{.*}} : (tensor<2x3xi64>, tensor<10x8xbf16>) -> tensor<2x3x8xbf16>
  %2 = tcc.embedding %ids, %table : (tensor<2x3xi64>, tensor<10x8xbf16>) -> tensor<2x3x8xbf16>
  return
}

// -----

// Tests that scatter round-trips with the default reduction left out, each
// named reduction, i32 indices, a larger indexed dim and i1 data.
// CHECK-LABEL: func.func @scatter
func.func @scatter(%x: tensor<4x5xf32>, %i: tensor<4x2xi64>, %u: tensor<4x2xf32>,
                   %j: tensor<6x5xi32>, %v: tensor<6x5xf32>, %b: tensor<3xi1>,
                   %k: tensor<2xi64>, %c: tensor<2xi1>) {
  // CHECK: tcc.scatter %{{.*}}, %{{.*}}, %{{.*}} {dim = 1 : i64} : (tensor<4x5xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x5xf32>
  %0 = tcc.scatter %x, %i, %u {dim = 1} : (tensor<4x5xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x5xf32>
  // CHECK: tcc.scatter %{{.*}}, %{{.*}}, %{{.*}} {dim = 1 : i64, reduction = #tcc.scatter_reduction<add>}
  %1 = tcc.scatter %x, %i, %u {dim = 1, reduction = #tcc.scatter_reduction<add>} : (tensor<4x5xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x5xf32>
  // CHECK: reduction = #tcc.scatter_reduction<mul>
  %2 = tcc.scatter %x, %i, %u {dim = 1, reduction = #tcc.scatter_reduction<mul>} : (tensor<4x5xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x5xf32>
  // CHECK: reduction = #tcc.scatter_reduction<max>
  %3 = tcc.scatter %x, %i, %u {dim = 1, reduction = #tcc.scatter_reduction<max>} : (tensor<4x5xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x5xf32>
  // CHECK: tcc.scatter %{{.*}}, %{{.*}}, %{{.*}} {dim = 0 : i64, reduction = #tcc.scatter_reduction<min>} : (tensor<4x5xf32>, tensor<6x5xi32>, tensor<6x5xf32>) -> tensor<4x5xf32>
  %4 = tcc.scatter %x, %j, %v {dim = 0, reduction = #tcc.scatter_reduction<min>} : (tensor<4x5xf32>, tensor<6x5xi32>, tensor<6x5xf32>) -> tensor<4x5xf32>
  // CHECK: tcc.scatter %{{.*}}, %{{.*}}, %{{.*}} {dim = 0 : i64} : (tensor<3xi1>, tensor<2xi64>, tensor<2xi1>) -> tensor<3xi1>
  %5 = tcc.scatter %b, %k, %c {dim = 0} : (tensor<3xi1>, tensor<2xi64>, tensor<2xi1>) -> tensor<3xi1>
  return
}

// -----

// Tests that function arguments and results carry tcc.name.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{.*}}: tensor<1x4xf32> {tcc.name = "input0"}) -> (tensor<1x4xf32> {tcc.name = "output0"})
func.func @main(%x: tensor<1x4xf32> {tcc.name = "input0"}) -> (tensor<1x4xf32> {tcc.name = "output0"}) {
  %0 = tcc.relu %x : tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

// Tests that a fusion group with its yield parses and round-trips.
// CHECK-LABEL: func.func @fusion
// CHECK: tcc.fusion(%{{.*}}, %{{.*}}) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
// CHECK: tcc.yield %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<8xf32>
func.func @fusion(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = tcc.fusion (%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%x: tensor<8xf32>, %y: tensor<8xf32>):
    %1 = tcc.mul %x, %y : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %2 = tcc.sigmoid %1 : tensor<8xf32>
    tcc.yield %1, %2 : tensor<8xf32>, tensor<8xf32>
  }
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Tests that quantize, dequantize and requantize take per-tensor and
// per-channel parameters and infer the zero point's or scale's type.
// CHECK-LABEL: func.func @affine_quantization
func.func @affine_quantization(%x: tensor<4x8xf32>, %s: tensor<f32>, %zp: tensor<ui8>,
                               %sc: tensor<4xf32>, %zpc: tensor<4xi8>, %acc: tensor<4x8xi32>,
                               %zp32: tensor<i32>) -> (tensor<4x8xui8>, tensor<4x8xi8>, tensor<4x8xf32>, tensor<4x8xi8>, tensor<4x8xi32>) {
  // CHECK: tcc.quantize %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<4x8xui8>
  %0 = tcc.quantize %x, %s, %zp : (tensor<4x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<4x8xui8>
  // CHECK: tcc.quantize %{{.*}} {axis = 0 : i64} : (tensor<4x8xf32>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x8xi8>
  %1 = tcc.quantize %x, %sc, %zpc {axis = 0 : i64} : (tensor<4x8xf32>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x8xi8>
  // CHECK: tcc.dequantize %{{.*}} {axis = -2 : i64} : (tensor<4x8xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x8xf32>
  %2 = tcc.dequantize %1, %sc, %zpc {axis = -2 : i64} : (tensor<4x8xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x8xf32>
  // CHECK: tcc.requantize %{{.*}} {axis = 0 : i64} : (tensor<4x8xi32>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x8xi8>
  %3 = tcc.requantize %acc, %sc, %zpc {axis = 0 : i64} : (tensor<4x8xi32>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x8xi8>
  // CHECK: tcc.quantize %{{.*}} : (tensor<4x8xf32>, tensor<f32>, tensor<i32>) -> tensor<4x8xi32>
  %4 = tcc.quantize %x, %s, %zp32 : (tensor<4x8xf32>, tensor<f32>, tensor<i32>) -> tensor<4x8xi32>
  return %0, %1, %2, %3, %4 : tensor<4x8xui8>, tensor<4x8xi8>, tensor<4x8xf32>, tensor<4x8xi8>, tensor<4x8xi32>
}

// -----

// Tests that matmul_integer mixes ui8 and i8, broadcasts batch dims and
// takes per-row and per-column zero points.
// CHECK-LABEL: func.func @matmul_integer
func.func @matmul_integer(%a: tensor<2x4x3xui8>, %b: tensor<3x5xi8>, %azp: tensor<4xui8>, %bzp: tensor<5xi8>) -> tensor<2x4x5xi32> {
  // CHECK: tcc.matmul_integer %{{.*}} : (tensor<2x4x3xui8>, tensor<3x5xi8>, tensor<4xui8>, tensor<5xi8>) -> tensor<2x4x5xi32>
  %0 = tcc.matmul_integer %a, %b, %azp, %bzp : (tensor<2x4x3xui8>, tensor<3x5xi8>, tensor<4xui8>, tensor<5xi8>) -> tensor<2x4x5xi32>
  return %0 : tensor<2x4x5xi32>
}

// -----

// Tests that conv2d_integer infers conv2d's shape, depthwise included.
// CHECK-LABEL: func.func @conv2d_integer
func.func @conv2d_integer(%x: tensor<1x8x9x9xui8>, %w: tensor<8x1x3x3xi8>, %xzp: tensor<ui8>, %wzp: tensor<8xi8>) -> tensor<1x8x5x5xi32> {
  // CHECK: tcc.conv2d_integer %{{.*}} {groups = 8 : i64, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x8x9x9xui8>, tensor<8x1x3x3xi8>, tensor<ui8>, tensor<8xi8>) -> tensor<1x8x5x5xi32>
  %0 = tcc.conv2d_integer %x, %w, %xzp, %wzp {groups = 8 : i64, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x8x9x9xui8>, tensor<8x1x3x3xi8>, tensor<ui8>, tensor<8xi8>) -> tensor<1x8x5x5xi32>
  return %0 : tensor<1x8x5x5xi32>
}
