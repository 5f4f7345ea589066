// RUN: tcc-opt --split-input-file --tcc-fold-batch-norm %s | FileCheck %s

// The batch norms below share gamma = [1, 2], beta = [0.25, 0.5],
// mean = [1, -1], var = [3, 0] and eps = 1, so the per-channel scale
// gamma / sqrt(var + eps) is [0.5, 2]. The weight [[1, 2], [3, 4]] (one row
// per output channel) becomes [[0.5, 1], [6, 8]]; the bias [3, 5] becomes
// (b - mean) * scale + beta = [1.25, 12.5], and a missing bias becomes
// [-0.25, 2.5].

// Tests that batch norm after an NCHW conv with a bias folds into new weight
// and bias blobs, and the old weights go away.
// CHECK-LABEL: func.func @conv_with_bias
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x3x3xf32>)
// CHECK-DAG: %[[W:.*]] = tcc.constant dense_resource<conv.weight.bn> : tensor<2x1x1x2xf32>
// CHECK-DAG: %[[B:.*]] = tcc.constant dense_resource<conv.bias.bn> : tensor<2xf32>
// CHECK: %[[C:.*]] = tcc.conv2d %[[X]], %[[W]], %[[B]] {padding = array<i64: 1, 0>}
// CHECK-NOT: tcc.batch_norm
// CHECK: return %[[C]]
// CHECK-NOT: conv.weight:
// CHECK-DAG: conv.weight.bn: "0x400000000000003F0000803F0000C04000000041"
// CHECK-DAG: conv.bias.bn: "0x400000000000A03F00004841"
func.func @conv_with_bias(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x5x2xf32> {
  %w = tcc.constant dense_resource<conv.weight> : tensor<2x1x1x2xf32>
  %b = tcc.constant dense_resource<conv.bias> : tensor<2xf32>
  %gamma = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %beta = tcc.constant dense<[0.25, 0.5]> : tensor<2xf32>
  %mean = tcc.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %var = tcc.constant dense<[3.0, 0.0]> : tensor<2xf32>
  %c = tcc.conv2d %x, %w, %b {padding = array<i64: 1, 0>} : (tensor<1x1x3x3xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x2x5x2xf32>
  %y = tcc.batch_norm %c, %gamma, %beta, %mean, %var {eps = 1.0 : f64} : (tensor<1x2x5x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x5x2xf32>
  return %y : tensor<1x2x5x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      conv.weight: "0x040000000000803F000000400000404000008040",
      conv.bias: "0x04000000000040400000A040"
    }
  }
#-}

// -----

// Tests that a conv without a bias gets one, named after beta.
// CHECK-LABEL: func.func @conv_without_bias
// CHECK-DAG: %[[W:.*]] = tcc.constant dense_resource<conv.weight.bn> : tensor<2x1x1x2xf32>
// CHECK-DAG: %[[B:.*]] = tcc.constant dense_resource<bn.bias.bn> : tensor<2xf32>
// CHECK: %[[C:.*]] = tcc.conv2d %{{.*}}, %[[W]], %[[B]] :
// CHECK-NEXT: return %[[C]]
// CHECK-DAG: conv.weight.bn: "0x400000000000003F0000803F0000C04000000041"
// CHECK-DAG: bn.bias.bn: "0x40000000000080BE00002040"
func.func @conv_without_bias(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x2xf32> {
  %w = tcc.constant dense_resource<conv.weight> : tensor<2x1x1x2xf32>
  %gamma = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %beta = tcc.constant dense_resource<bn.bias> : tensor<2xf32>
  %mean = tcc.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %var = tcc.constant dense<[3.0, 0.0]> : tensor<2xf32>
  %c = tcc.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x2xf32>) -> tensor<1x2x3x2xf32>
  %y = tcc.batch_norm %c, %gamma, %beta, %mean, %var {eps = 1.0 : f64} : (tensor<1x2x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x2xf32>
  return %y : tensor<1x2x3x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      conv.weight: "0x040000000000803F000000400000404000008040",
      bn.bias: "0x040000000000803E0000003F"
    }
  }
#-}

// -----

// Tests that an NHWC conv (OHWI weight: output channel still dim 0) folds
// through the transpose back to NCHW, which stays.
// CHECK-LABEL: func.func @nhwc_conv
// CHECK-DAG: %[[W:.*]] = tcc.constant dense_resource<conv.weight.bn> : tensor<2x1x2x1xf32>
// CHECK-DAG: %[[B:.*]] = tcc.constant dense_resource<conv.bias.bn> : tensor<2xf32>
// CHECK: %[[C:.*]] = tcc.conv2d %{{.*}}, %[[W]], %[[B]] {layout = #tcc.layout<nhwc>}
// CHECK-NEXT: %[[T:.*]] = tcc.transpose %[[C]] {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[T]]
// CHECK-DAG: conv.weight.bn: "0x400000000000003F0000803F0000C04000000041"
// CHECK-DAG: conv.bias.bn: "0x400000000000A03F00004841"
func.func @nhwc_conv(%x: tensor<1x3x3x1xf32>) -> tensor<1x2x3x2xf32> {
  %w = tcc.constant dense_resource<conv.weight> : tensor<2x1x2x1xf32>
  %b = tcc.constant dense_resource<conv.bias> : tensor<2xf32>
  %gamma = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %beta = tcc.constant dense<[0.25, 0.5]> : tensor<2xf32>
  %mean = tcc.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %var = tcc.constant dense<[3.0, 0.0]> : tensor<2xf32>
  %c = tcc.conv2d %x, %w, %b {layout = #tcc.layout<nhwc>} : (tensor<1x3x3x1xf32>, tensor<2x1x2x1xf32>, tensor<2xf32>) -> tensor<1x3x2x2xf32>
  %t = tcc.transpose %c {permutation = array<i64: 0, 3, 1, 2>} : tensor<1x3x2x2xf32> -> tensor<1x2x3x2xf32>
  %y = tcc.batch_norm %t, %gamma, %beta, %mean, %var {eps = 1.0 : f64} : (tensor<1x2x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x2xf32>
  return %y : tensor<1x2x3x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      conv.weight: "0x040000000000803F000000400000404000008040",
      conv.bias: "0x04000000000040400000A040"
    }
  }
#-}

// -----

// Tests that batch norm after a linear with an [N, out] result folds.
// CHECK-LABEL: func.func @linear
// CHECK-DAG: %[[W:.*]] = tcc.constant dense_resource<fc.weight.bn> : tensor<2x2xf32>
// CHECK-DAG: %[[B:.*]] = tcc.constant dense_resource<fc.bias.bn> : tensor<2xf32>
// CHECK: %[[L:.*]] = tcc.linear %{{.*}}, %[[W]], %[[B]]
// CHECK-NEXT: return %[[L]]
// CHECK-DAG: fc.weight.bn: "0x400000000000003F0000803F0000C04000000041"
// CHECK-DAG: fc.bias.bn: "0x400000000000A03F00004841"
func.func @linear(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %w = tcc.constant dense_resource<fc.weight> : tensor<2x2xf32>
  %b = tcc.constant dense_resource<fc.bias> : tensor<2xf32>
  %gamma = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %beta = tcc.constant dense<[0.25, 0.5]> : tensor<2xf32>
  %mean = tcc.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %var = tcc.constant dense<[3.0, 0.0]> : tensor<2xf32>
  %l = tcc.linear %x, %w, %b : (tensor<4x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %y = tcc.batch_norm %l, %gamma, %beta, %mean, %var {eps = 1.0 : f64} : (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      fc.weight: "0x040000000000803F000000400000404000008040",
      fc.bias: "0x04000000000040400000A040"
    }
  }
#-}

// -----

// Tests that nothing folds when the conv's result has another user (it
// needs the unnormalized value).
// CHECK-LABEL: func.func @conv_result_used_twice
// CHECK: %[[C:.*]] = tcc.conv2d
// CHECK: %[[Y:.*]] = tcc.batch_norm %[[C]]
// CHECK: return %[[Y]], %[[C]]
func.func @conv_result_used_twice(%x: tensor<1x1x3x3xf32>) -> (tensor<1x2x3x2xf32>, tensor<1x2x3x2xf32>) {
  %w = tcc.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xf32>
  %p = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c = tcc.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x2xf32>) -> tensor<1x2x3x2xf32>
  %y = tcc.batch_norm %c, %p, %p, %p, %p : (tensor<1x2x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x2xf32>
  return %y, %c : tensor<1x2x3x2xf32>, tensor<1x2x3x2xf32>
}

// -----

// Tests that nothing folds when a batch-norm parameter, the conv's weight
// or the linear's bias is not a constant.
// CHECK-LABEL: func.func @not_constant
// CHECK-COUNT-3: tcc.batch_norm
func.func @not_constant(%x: tensor<1x1x3x3xf32>, %var: tensor<2xf32>, %wv: tensor<2x1x1x2xf32>, %v: tensor<4x2xf32>, %bv: tensor<2xf32>) -> (tensor<1x2x3x2xf32>, tensor<1x2x3x2xf32>, tensor<4x2xf32>) {
  %w = tcc.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xf32>
  %fw = tcc.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %p = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c = tcc.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x2xf32>) -> tensor<1x2x3x2xf32>
  %y = tcc.batch_norm %c, %p, %p, %p, %var : (tensor<1x2x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x2xf32>
  %c2 = tcc.conv2d %x, %wv : (tensor<1x1x3x3xf32>, tensor<2x1x1x2xf32>) -> tensor<1x2x3x2xf32>
  %y2 = tcc.batch_norm %c2, %p, %p, %p, %p : (tensor<1x2x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x2xf32>
  %l = tcc.linear %v, %fw, %bv : (tensor<4x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %y3 = tcc.batch_norm %l, %p, %p, %p, %p : (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %y, %y2, %y3 : tensor<1x2x3x2xf32>, tensor<1x2x3x2xf32>, tensor<4x2xf32>
}

// -----

// Tests that batch norm over dim 1 of a rank-3 linear result (not the
// linear's features) and batch norm after other ops do not fold.
// CHECK-LABEL: func.func @wrong_producer
// CHECK-COUNT-2: tcc.batch_norm
func.func @wrong_producer(%x: tensor<4x2x3xf32>, %z: tensor<1x2x3x3xf32>) -> (tensor<4x2x2xf32>, tensor<1x2x3x3xf32>) {
  %fw = tcc.constant dense<[[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %p = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %l = tcc.linear %x, %fw : (tensor<4x2x3xf32>, tensor<2x3xf32>) -> tensor<4x2x2xf32>
  %y = tcc.batch_norm %l, %p, %p, %p, %p : (tensor<4x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<4x2x2xf32>
  %r = tcc.relu %z : tensor<1x2x3x3xf32>
  %y2 = tcc.batch_norm %r, %p, %p, %p, %p : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %y, %y2 : tensor<4x2x2xf32>, tensor<1x2x3x3xf32>
}

// -----

// Tests that nothing folds when var + eps is not positive for a channel
// (var = -1, eps = 1e-5): the batch norm's NaNs are not a scaled weight's.
// CHECK-LABEL: func.func @negative_variance
// CHECK: tcc.conv2d %{{.*}}, %{{.*}} :
// CHECK-NEXT: tcc.batch_norm
func.func @negative_variance(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x2xf32> {
  %w = tcc.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xf32>
  %p = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %var = tcc.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %c = tcc.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x2xf32>) -> tensor<1x2x3x2xf32>
  %y = tcc.batch_norm %c, %p, %p, %p, %var : (tensor<1x2x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x2xf32>
  return %y : tensor<1x2x3x2xf32>
}
