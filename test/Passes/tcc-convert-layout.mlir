// RUN: tcc-opt --split-input-file --tcc-convert-layout %s | FileCheck %s
// RUN: tcc-opt --split-input-file --tcc-fold-batch-norm --tcc-convert-layout %s | FileCheck %s --check-prefix=RESNET

// Tests that an NCHW conv becomes NHWC with its weight blob transposed OIHW
// -> OHWI at compile time ([[1, 2], [3, 4]] over (I, kW) becomes
// [[1, 3], [2, 4]] over (kW, I)), the relu runs channels-last and the
// transposes sit only at the NCHW input and output.
// CHECK-LABEL: func.func @conv_relu
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x3x3xf32>)
// CHECK-DAG: %[[W:.*]] = tcc.constant dense_resource<conv.weight.nhwc> : tensor<1x1x2x2xf32>
// CHECK-DAG: %[[XT:.*]] = tcc.transpose %[[X]] {permutation = array<i64: 0, 2, 3, 1>} : tensor<1x2x3x3xf32> -> tensor<1x3x3x2xf32>
// CHECK: %[[C:.*]] = tcc.conv2d %[[XT]], %[[W]] {layout = #tcc.layout<nhwc>} : (tensor<1x3x3x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x3x2x1xf32>
// CHECK-NEXT: %[[R:.*]] = tcc.relu %[[C]] : tensor<1x3x2x1xf32>
// CHECK-NEXT: %[[Y:.*]] = tcc.reshape %[[R]] : tensor<1x3x2x1xf32> to tensor<1x1x3x2xf32>
// CHECK-NEXT: return %[[Y]]
// CHECK: conv.weight.nhwc: "0x400000000000803F000040400000004000008040"
func.func @conv_relu(%x: tensor<1x2x3x3xf32>) -> tensor<1x1x3x2xf32> {
  %w = tcc.constant dense_resource<conv.weight> : tensor<1x2x1x2xf32>
  %c = tcc.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<1x2x1x2xf32>) -> tensor<1x1x3x2xf32>
  %r = tcc.relu %c : tensor<1x1x3x2xf32>
  return %r : tensor<1x1x3x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      conv.weight: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// Tests that two convs in a row cancel the transposes between them, and that
// pointwise ops with a per-channel constant ([1, C, 1, 1], non-splat) and a
// splat take the constants permuted to channels-last.
// CHECK-LABEL: func.func @conv_chain
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK: %[[XT:.*]] = tcc.transpose %[[X]] {permutation = array<i64: 0, 2, 3, 1>}
// CHECK: %[[C1:.*]] = tcc.conv2d %[[XT]], %{{.*}} {layout = #tcc.layout<nhwc>}
// CHECK: %[[A:.*]] = tcc.add %[[C1]], %[[B:.*]] : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
// CHECK: %[[M:.*]] = tcc.mul %[[A]], %{{.*}} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
// CHECK: %[[C2:.*]] = tcc.conv2d %[[M]], %{{.*}} {layout = #tcc.layout<nhwc>}
// CHECK-NEXT: %[[Y:.*]] = tcc.transpose %[[C2]] {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[Y]]
// CHECK: bias.nhwc: "0x400000000000803F00000040"
func.func @conv_chain(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = tcc.constant dense<0.5> : tensor<2x2x1x1xf32>
  %b = tcc.constant dense_resource<bias> : tensor<1x2x1x1xf32>
  %two = tcc.constant dense<2.0> : tensor<1x2x4x4xf32>
  %c1 = tcc.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a = tcc.add %c1, %b : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %m = tcc.mul %a, %two : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c2 = tcc.conv2d %m, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %c2 : tensor<1x2x4x4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      bias: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// Tests that a flatten of an NHWC feature map feeding a linear with a
// constant weight takes the transpose into the weight: columns in (c, h, w)
// order [0..7] become (h, w, c) order [0, 4, 1, 5, 2, 6, 3, 7].
// CHECK-LABEL: func.func @flatten_into_linear
// CHECK: %[[C:.*]] = tcc.conv2d
// CHECK-NEXT: %[[F:.*]] = tcc.reshape %[[C]] : tensor<1x2x2x2xf32> to tensor<1x8xf32>
// CHECK-NEXT: %[[L:.*]] = tcc.linear %[[F]], %{{.*}} : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x1xf32>
// CHECK-NEXT: return %[[L]]
// CHECK: fc.weight.permuted: "0x4000000000000000000080400000803F0000A040000000400000C040000040400000E040"
func.func @flatten_into_linear(%x: tensor<1x2x2x2xf32>) -> tensor<1x1xf32> {
  %w = tcc.constant dense<1.0> : tensor<2x2x1x1xf32>
  %fw = tcc.constant dense_resource<fc.weight> : tensor<1x8xf32>
  %c = tcc.conv2d %x, %w : (tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32>
  %f = tcc.reshape %c : tensor<1x2x2x2xf32> to tensor<1x8xf32>
  %l = tcc.linear %f, %fw : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x1xf32>
  return %l : tensor<1x1xf32>
}
{-#
  dialect_resources: {
    builtin: {
      fc.weight: "0x04000000000000000000803F0000004000004040000080400000A0400000C0400000E040"
    }
  }
#-}

// -----

// Tests that the pooling ops convert too, and that a transpose that only
// moves size-1 dims (after global pooling) becomes a reshape that merges
// with the flatten: no transpose is left after the input's.
// CHECK-LABEL: func.func @pooling
// CHECK: tcc.transpose
// CHECK-NOT: tcc.transpose
// CHECK: tcc.max_pool2d %{{.*}} {kernel_size = array<i64: 2, 2>, layout = #tcc.layout<nhwc>, stride = array<i64: 2, 2>} : tensor<1x4x4x2xf32> -> tensor<1x2x2x2xf32>
// CHECK: tcc.avg_pool2d %{{.*}} {kernel_size = array<i64: 1, 1>, layout = #tcc.layout<nhwc>, stride = array<i64: 1, 1>} : tensor<1x2x2x2xf32> -> tensor<1x2x2x2xf32>
// CHECK: %[[G:.*]] = tcc.adaptive_avg_pool2d %{{.*}} {layout = #tcc.layout<nhwc>, output_size = array<i64: 1, 1>} : tensor<1x2x2x2xf32> -> tensor<1x1x1x2xf32>
// CHECK-NEXT: %[[F:.*]] = tcc.reshape %[[G]] : tensor<1x1x1x2xf32> to tensor<1x2xf32>
// CHECK-NEXT: return %[[F]]
func.func @pooling(%x: tensor<1x2x4x4xf32>) -> tensor<1x2xf32> {
  %m = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  %a = tcc.avg_pool2d %m {kernel_size = array<i64: 1, 1>, stride = array<i64: 1, 1>} : tensor<1x2x2x2xf32> -> tensor<1x2x2x2xf32>
  %g = tcc.adaptive_avg_pool2d %a {output_size = array<i64: 1, 1>} : tensor<1x2x2x2xf32> -> tensor<1x2x1x1xf32>
  %f = tcc.reshape %g : tensor<1x2x1x1xf32> to tensor<1x2xf32>
  return %f : tensor<1x2xf32>
}

// -----

// Tests what keeps a transpose inside: an op the rules do not cover (batch
// norm, which normalizes dim 1). Two converted convs and two transposes
// left: the conversion is kept.
// CHECK-LABEL: func.func @transpose_before_batch_norm
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x3x3xf32>, %[[P:.*]]: tensor<2xf32>)
// CHECK: %[[XT:.*]] = tcc.transpose %[[X]] {permutation = array<i64: 0, 2, 3, 1>}
// CHECK: %[[C:.*]] = tcc.conv2d %[[XT]]
// CHECK-NEXT: %[[R:.*]] = tcc.relu %[[C]]
// CHECK-NEXT: %[[C2:.*]] = tcc.conv2d %[[R]]
// CHECK-NEXT: %[[T:.*]] = tcc.transpose %[[C2]] {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: %[[BN:.*]] = tcc.batch_norm %[[T]], %[[P]]
// CHECK-NEXT: return %[[BN]]
func.func @transpose_before_batch_norm(%x: tensor<1x2x3x3xf32>, %p: tensor<2xf32>) -> tensor<1x2x3x3xf32> {
  %w = tcc.constant dense<1.0> : tensor<2x2x1x1xf32>
  %c = tcc.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %r = tcc.relu %c : tensor<1x2x3x3xf32>
  %c2 = tcc.conv2d %r, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %bn = tcc.batch_norm %c2, %p, %p, %p, %p : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %bn : tensor<1x2x3x3xf32>
}

// -----

// Tests that a function stays NCHW when the conversion would leave more
// transposes than it converts ops: a lone conv with a bias and clamp
// between an NCHW argument and an NCHW result (two transposes for one op).
// CHECK-LABEL: func.func @lone_conv
// CHECK-NOT: tcc.transpose
// CHECK: tcc.conv2d %{{.*}} {padding = array<i64: 1, 1>} :
// CHECK-NOT: tcc.transpose
// CHECK: return
func.func @lone_conv(%x: tensor<1x2x5x5xf32>) -> tensor<1x3x5x5xf32> {
  %w = tcc.constant dense<0.5> : tensor<3x2x3x3xf32>
  %b = tcc.constant dense<[[[1.0]], [[2.0]], [[3.0]]]> : tensor<3x1x1xf32>
  %c = tcc.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x5xf32>
  %a = tcc.add %c, %b : (tensor<1x3x5x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32>
  %y = tcc.clamp %a {min = 0.0 : f64, max = 6.0 : f64} : tensor<1x3x5x5xf32>
  return %y : tensor<1x3x5x5xf32>
}

// -----

// Tests that a function stays NCHW when two convs' results meet ops the
// rules do not move (a batch norm on non-constant parameters, an add of
// another argument): three or four transposes for two ops.
// CHECK-LABEL: func.func @unprofitable
// CHECK-NOT: tcc.transpose
// CHECK-NOT: layout
// CHECK: return
func.func @unprofitable(%x: tensor<1x2x3x3xf32>, %z: tensor<1x2x3x3xf32>, %p: tensor<2xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %w = tcc.constant dense<1.0> : tensor<2x2x1x1xf32>
  %c = tcc.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %bn = tcc.batch_norm %c, %p, %p, %p, %p : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %c2 = tcc.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %a = tcc.add %c2, %z : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %bn, %a : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}

// -----

// Tests that ops already in NHWC and ops outside any conv network are left
// alone.
// CHECK-LABEL: func.func @already_nhwc
// CHECK-NOT: tcc.transpose
// CHECK: tcc.conv2d %{{.*}} {layout = #tcc.layout<nhwc>}
// CHECK-NOT: tcc.transpose
// CHECK: return
func.func @already_nhwc(%x: tensor<1x3x3x2xf32>, %y: tensor<4x4xf32>) -> (tensor<1x3x3x2xf32>, tensor<4x4xf32>) {
  %w = tcc.constant dense<1.0> : tensor<2x1x1x2xf32>
  %c = tcc.conv2d %x, %w {layout = #tcc.layout<nhwc>} : (tensor<1x3x3x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x3x3x2xf32>
  %r = tcc.relu %y : tensor<4x4xf32>
  return %c, %r : tensor<1x3x3x2xf32>, tensor<4x4xf32>
}

// -----

// Tests the goal on a ResNet-style network (stem conv, batch norm, relu, max
// pool, a residual block, global pooling, flatten, linear): after batch-norm
// folding and the layout pass (second RUN line) the only transpose left
// turns the NCHW input into NHWC. The layout pass alone keeps a transpose
// before each batch norm.
// CHECK-LABEL: func.func @resnet
// CHECK-COUNT-3: tcc.batch_norm
// RESNET-LABEL: func.func @resnet
// RESNET: tcc.transpose %arg0 {permutation = array<i64: 0, 2, 3, 1>}
// RESNET-NOT: tcc.transpose
// RESNET-NOT: tcc.batch_norm
// RESNET-COUNT-3: tcc.conv2d {{.*}} {{{.*}}layout = #tcc.layout<nhwc>
// RESNET-NOT: tcc.transpose
// RESNET: tcc.linear
// RESNET-NEXT: return
func.func @resnet(%x: tensor<1x3x8x8xf32>) -> tensor<1x5xf32> {
  %w0 = tcc.constant dense<0.1> : tensor<4x3x3x3xf32>
  %w1 = tcc.constant dense<0.2> : tensor<4x4x3x3xf32>
  %w2 = tcc.constant dense<-0.1> : tensor<4x4x3x3xf32>
  %g = tcc.constant dense<[1.0, 0.5, 2.0, 1.5]> : tensor<4xf32>
  %b = tcc.constant dense<[0.1, -0.2, 0.3, 0.0]> : tensor<4xf32>
  %m = tcc.constant dense<[0.0, 0.5, -0.5, 1.0]> : tensor<4xf32>
  %v = tcc.constant dense<[1.0, 2.0, 0.5, 4.0]> : tensor<4xf32>
  %fw = tcc.constant dense<0.25> : tensor<5x4xf32>
  %fb = tcc.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %c0 = tcc.conv2d %x, %w0 {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %n0 = tcc.batch_norm %c0, %g, %b, %m, %v : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %r0 = tcc.relu %n0 : tensor<1x4x8x8xf32>
  %p0 = tcc.max_pool2d %r0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  %c1 = tcc.conv2d %p0, %w1 {padding = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32>
  %n1 = tcc.batch_norm %c1, %g, %b, %m, %v : (tensor<1x4x4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %r1 = tcc.relu %n1 : tensor<1x4x4x4xf32>
  %c2 = tcc.conv2d %r1, %w2 {padding = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32>
  %n2 = tcc.batch_norm %c2, %g, %b, %m, %v : (tensor<1x4x4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %s = tcc.add %n2, %p0 : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r2 = tcc.relu %s : tensor<1x4x4x4xf32>
  %gp = tcc.adaptive_avg_pool2d %r2 {output_size = array<i64: 1, 1>} : tensor<1x4x4x4xf32> -> tensor<1x4x1x1xf32>
  %f = tcc.reshape %gp : tensor<1x4x1x1xf32> to tensor<1x4xf32>
  %y = tcc.linear %f, %fw, %fb : (tensor<1x4xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<1x5xf32>
  return %y : tensor<1x5xf32>
}

// -----

// Tests that a residual add of the NCHW input runs NHWC on the transpose
// that already feeds the first conv, so only the input and output
// transposes are left.
// CHECK-LABEL: func.func @residual_from_input
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x3x3xf32>)
// CHECK: %[[XT:.*]] = tcc.transpose %[[X]] {permutation = array<i64: 0, 2, 3, 1>}
// CHECK: %[[C:.*]] = tcc.conv2d %[[XT]]
// CHECK-NEXT: %[[R:.*]] = tcc.relu %[[C]]
// CHECK-NEXT: %[[C2:.*]] = tcc.conv2d %[[R]]
// CHECK-NEXT: %[[A:.*]] = tcc.add %[[C2]], %[[XT]] : (tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
// CHECK-NEXT: %[[Y:.*]] = tcc.transpose %[[A]] {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[Y]]
func.func @residual_from_input(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = tcc.constant dense<0.5> : tensor<2x2x1x1xf32>
  %c = tcc.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %r = tcc.relu %c : tensor<1x2x3x3xf32>
  %c2 = tcc.conv2d %r, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %a = tcc.add %c2, %x : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %a : tensor<1x2x3x3xf32>
}

// -----

// Tests that a pointwise op of a transpose and the transpose's own input
// stays as it is: sinking would reuse that same transpose for the other
// operand and give back the op it started from (this once never ended).
// CHECK-LABEL: func.func @transpose_and_its_input
// CHECK-SAME: (%[[X:.*]]: tensor<4x4xf32>)
// CHECK-NEXT: %[[T:.*]] = tcc.transpose %[[X]] {permutation = array<i64: 1, 0>}
// CHECK-NEXT: %[[M:.*]] = tcc.maximum %[[T]], %[[X]]
// CHECK-NEXT: return %[[M]]
func.func @transpose_and_its_input(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %t = tcc.transpose %x {permutation = array<i64: 1, 0>} : tensor<4x4xf32> -> tensor<4x4xf32>
  %m = tcc.maximum %t, %x : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// -----

// Tests that an EfficientNet squeeze-excitation block stays channels-last:
// the transpose after the conv, shared by SiLU's sigmoid and mul, sinks
// through both; the global pool (reduce_mean over H, W) reduces NHWC's dims
// 1 and 2; the [1, C, 1, 1] scale becomes [1, 1, 1, C] (a reshape of the
// SE conv's output, no data moved), so the scaling mul is a contiguous
// NHWC broadcast. Only the input's and the result's transposes are left.
// CHECK-LABEL: func.func @squeeze_excitation
// CHECK-COUNT-1: tcc.transpose
// CHECK: %[[C:.*]] = tcc.conv2d %{{.*}} {layout = #tcc.layout<nhwc>{{.*}}} : {{.*}} -> tensor<1x4x4x8xf32>
// CHECK-NEXT: %[[S:.*]] = tcc.sigmoid %[[C]] : tensor<1x4x4x8xf32>
// CHECK-NEXT: %[[SILU:.*]] = tcc.mul %[[C]], %[[S]] : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT: %[[P:.*]] = tcc.reduce_mean %[[SILU]] {dims = array<i64: 1, 2>, keepdim = true} : tensor<1x4x4x8xf32> -> tensor<1x1x1x8xf32>
// CHECK-NOT: tcc.transpose
// CHECK: %[[E:.*]] = tcc.conv2d %{{.*}} -> tensor<1x1x1x8xf32>
// CHECK-NEXT: %[[G:.*]] = tcc.sigmoid %[[E]] : tensor<1x1x1x8xf32>
// CHECK-NEXT: %[[Y:.*]] = tcc.mul %[[G]], %[[SILU]] : (tensor<1x1x1x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT: %[[R:.*]] = tcc.transpose %[[Y]] {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[R]]
func.func @squeeze_excitation(%x: tensor<1x3x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %w = tcc.constant dense<0.5> : tensor<8x3x1x1xf32>
  %w1 = tcc.constant dense<0.25> : tensor<2x8x1x1xf32>
  %w2 = tcc.constant dense<0.125> : tensor<8x2x1x1xf32>
  %c = tcc.conv2d %x, %w : (tensor<1x3x4x4xf32>, tensor<8x3x1x1xf32>) -> tensor<1x8x4x4xf32>
  %s = tcc.sigmoid %c : tensor<1x8x4x4xf32>
  %silu = tcc.mul %c, %s : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %p = tcc.reduce_mean %silu {dims = array<i64: 2, 3>, keepdim = true} : tensor<1x8x4x4xf32> -> tensor<1x8x1x1xf32>
  %r = tcc.conv2d %p, %w1 : (tensor<1x8x1x1xf32>, tensor<2x8x1x1xf32>) -> tensor<1x2x1x1xf32>
  %rr = tcc.relu %r : tensor<1x2x1x1xf32>
  %e = tcc.conv2d %rr, %w2 : (tensor<1x2x1x1xf32>, tensor<8x2x1x1xf32>) -> tensor<1x8x1x1xf32>
  %g = tcc.sigmoid %e : tensor<1x8x1x1xf32>
  %y = tcc.mul %g, %silu : (tensor<1x8x1x1xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %y : tensor<1x8x4x4xf32>
}

// -----

// Tests that a global pool without keepdim reads NHWC directly when the
// kept dims (N, C) come out in the same order, as before a classifier.
// CHECK-LABEL: func.func @pool_to_vector
// CHECK: %[[C:.*]] = tcc.conv2d %{{.*}} {layout = #tcc.layout<nhwc>} : {{.*}} -> tensor<1x4x4x8xf32>
// CHECK-NEXT: %[[P:.*]] = tcc.reduce_mean %[[C]] {dims = array<i64: 1, 2>} : tensor<1x4x4x8xf32> -> tensor<1x8xf32>
// CHECK-NEXT: return %[[P]]
func.func @pool_to_vector(%x: tensor<1x3x4x4xf32>) -> tensor<1x8xf32> {
  %w = tcc.constant dense<0.5> : tensor<8x3x1x1xf32>
  %c = tcc.conv2d %x, %w : (tensor<1x3x4x4xf32>, tensor<8x3x1x1xf32>) -> tensor<1x8x4x4xf32>
  %p = tcc.reduce_mean %c {dims = array<i64: 2, 3>} : tensor<1x8x4x4xf32> -> tensor<1x8xf32>
  return %p : tensor<1x8xf32>
}

// -----

// Tests that a transpose shared by a pointwise op and a user that cannot
// take it (a matmul) stays where it is: sinking it through the sigmoid
// alone would add a transpose.
// CHECK-LABEL: func.func @shared_with_other_user
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x8xf32>)
// CHECK-NEXT: %[[T:.*]] = tcc.transpose %[[X]] {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: tcc.sigmoid %[[T]] : tensor<1x8x4x4xf32>
// CHECK-NEXT: tcc.matmul %[[T]], %[[T]]
func.func @shared_with_other_user(%x: tensor<1x4x4x8xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) {
  %t = tcc.transpose %x {permutation = array<i64: 0, 3, 1, 2>} : tensor<1x4x4x8xf32> -> tensor<1x8x4x4xf32>
  %s = tcc.sigmoid %t : tensor<1x8x4x4xf32>
  %m = tcc.matmul %t, %t : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %s, %m : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
}

// -----

// Tests that a transpose shared by SiLU's two ops alone sinks below both.
// CHECK-LABEL: func.func @shared_by_silu
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x8xf32>)
// CHECK-NEXT: %[[S:.*]] = tcc.sigmoid %[[X]] : tensor<1x4x4x8xf32>
// CHECK-NEXT: %[[M:.*]] = tcc.mul %[[X]], %[[S]] : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT: %[[T:.*]] = tcc.transpose %[[M]] {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[T]]
func.func @shared_by_silu(%x: tensor<1x4x4x8xf32>) -> tensor<1x8x4x4xf32> {
  %t = tcc.transpose %x {permutation = array<i64: 0, 3, 1, 2>} : tensor<1x4x4x8xf32> -> tensor<1x8x4x4xf32>
  %s = tcc.sigmoid %t : tensor<1x8x4x4xf32>
  %m = tcc.mul %t, %s : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %m : tensor<1x8x4x4xf32>
}
