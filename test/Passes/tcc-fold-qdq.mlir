// RUN: tcc-opt --split-input-file --tcc-fold-qdq %s | FileCheck %s

// Tests that dequantize -> matmul -> quantize becomes matmul_integer on the
// quantized operands and a requantize by s_a * s_b / s_y.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[QA:.*]]: tensor<4x3xui8>, %[[SA:.*]]: tensor<f32>, %[[ZA:.*]]: tensor<ui8>, %[[QB:.*]]: tensor<3x2xi8>, %[[SB:.*]]: tensor<f32>, %[[ZB:.*]]: tensor<i8>, %[[SY:.*]]: tensor<f32>, %[[ZY:.*]]: tensor<ui8>)
// CHECK-NOT: tcc.dequantize
// CHECK: %[[ACC:.*]] = tcc.matmul_integer %[[QA]], %[[QB]], %[[ZA]], %[[ZB]]
// CHECK: %[[P:.*]] = tcc.mul %[[SA]], %[[SB]]
// CHECK: %[[M:.*]] = tcc.div %[[P]], %[[SY]]
// CHECK: %[[Y:.*]] = tcc.requantize %[[ACC]], %[[M]], %[[ZY]] : (tensor<4x2xi32>, tensor<f32>, tensor<ui8>) -> tensor<4x2xui8>
// CHECK-NOT: tcc.matmul %
// CHECK: return %[[Y]]
func.func @matmul(%qa: tensor<4x3xui8>, %sa: tensor<f32>, %zpa: tensor<ui8>, %qb: tensor<3x2xi8>, %sb: tensor<f32>, %zpb: tensor<i8>, %sy: tensor<f32>, %zpy: tensor<ui8>) -> tensor<4x2xui8> {
  %a = tcc.dequantize %qa, %sa, %zpa : (tensor<4x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<4x3xf32>
  %b = tcc.dequantize %qb, %sb, %zpb : (tensor<3x2xi8>, tensor<f32>, tensor<i8>) -> tensor<3x2xf32>
  %c = tcc.matmul %a, %b : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %y = tcc.quantize %c, %sy, %zpy : (tensor<4x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<4x2xui8>
  return %y : tensor<4x2xui8>
}

// -----

// Tests that a per-output-channel weight makes a per-channel requantize
// along the conv's channel dim, with the output zero point broadcast.
// CHECK-LABEL: func.func @conv_per_channel
// CHECK: %[[ACC:.*]] = tcc.conv2d_integer %{{.*}} {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xui8>, tensor<4x3x3x3xi8>, tensor<ui8>, tensor<4xi8>) -> tensor<1x4x8x8xi32>
// CHECK: %[[M:.*]] = tcc.div %{{.*}} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: %[[Z:.*]] = tcc.broadcast_to %{{.*}} : tensor<ui8> to tensor<4xui8>
// CHECK: tcc.requantize %[[ACC]], %[[M]], %[[Z]] : (tensor<1x4x8x8xi32>, tensor<4xf32>, tensor<4xui8>) -> tensor<1x4x8x8xui8>
// CHECK-NOT: tcc.conv2d %
func.func @conv_per_channel(%qx: tensor<1x3x8x8xui8>, %sx: tensor<f32>, %zpx: tensor<ui8>, %qw: tensor<4x3x3x3xi8>, %sw: tensor<4xf32>, %zpw: tensor<4xi8>, %sy: tensor<f32>, %zpy: tensor<ui8>) -> tensor<1x4x8x8xui8> {
  %x = tcc.dequantize %qx, %sx, %zpx : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x8x8xf32>
  %w = tcc.dequantize %qw, %sw, %zpw {axis = 0 : i64} : (tensor<4x3x3x3xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x3x3x3xf32>
  %c = tcc.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %y = tcc.quantize %c, %sy, %zpy : (tensor<1x4x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xui8>
  return %y : tensor<1x4x8x8xui8>
}

// -----

// Tests that nothing folds when the float result has another user, or when
// the left operand is quantized per channel.
// CHECK-LABEL: func.func @not_folded
// CHECK-COUNT-2: tcc.matmul %
// CHECK-NOT: tcc.matmul_integer
func.func @not_folded(%qa: tensor<4x3xui8>, %sa: tensor<f32>, %zpa: tensor<ui8>, %sr: tensor<4xf32>, %zr: tensor<4xui8>, %qb: tensor<3x2xi8>, %sb: tensor<f32>, %zpb: tensor<i8>, %sy: tensor<f32>, %zpy: tensor<ui8>) -> (tensor<4x2xui8>, tensor<4x2xf32>, tensor<4x2xui8>) {
  %a = tcc.dequantize %qa, %sa, %zpa : (tensor<4x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<4x3xf32>
  %b = tcc.dequantize %qb, %sb, %zpb : (tensor<3x2xi8>, tensor<f32>, tensor<i8>) -> tensor<3x2xf32>
  %c = tcc.matmul %a, %b : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %y = tcc.quantize %c, %sy, %zpy : (tensor<4x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<4x2xui8>
  %r = tcc.dequantize %qa, %sr, %zr {axis = 0 : i64} : (tensor<4x3xui8>, tensor<4xf32>, tensor<4xui8>) -> tensor<4x3xf32>
  %c2 = tcc.matmul %r, %b : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %y2 = tcc.quantize %c2, %sy, %zpy : (tensor<4x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<4x2xui8>
  return %y, %c, %y2 : tensor<4x2xui8>, tensor<4x2xf32>, tensor<4x2xui8>
}

// -----

// Tests that a ReLU before the quantize becomes a maximum with the output
// zero point after the requantize (quantize(relu(y)) = max(quantize(y),
// zp)), and that a dequantized int32 bias of scale s_a * s_b (0.5 * 0.25)
// adds to the integer sums.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-SAME: (%[[QA:.*]]: tensor<4x3xui8>, %[[QB:.*]]: tensor<3x2xi8>, %[[BQ:.*]]: tensor<2xi32>)
// CHECK-NOT: tcc.dequantize
// CHECK: %[[ACC:.*]] = tcc.matmul_integer %[[QA]], %[[QB]]
// CHECK: %[[SUM:.*]] = tcc.add %[[ACC]], %[[BQ]] : (tensor<4x2xi32>, tensor<2xi32>) -> tensor<4x2xi32>
// CHECK: %[[Q:.*]] = tcc.requantize %[[SUM]]
// CHECK: %[[Y:.*]] = tcc.maximum %[[Q]], %{{.*}} : (tensor<4x2xui8>, tensor<ui8>) -> tensor<4x2xui8>
// CHECK-NOT: tcc.relu
// CHECK: return %[[Y]]
func.func @matmul_bias_relu(%qa: tensor<4x3xui8>, %qb: tensor<3x2xi8>, %bq: tensor<2xi32>) -> tensor<4x2xui8> {
  %sa = tcc.constant dense<0.5> : tensor<f32>
  %za = tcc.constant dense<1> : tensor<ui8>
  %sb = tcc.constant dense<0.25> : tensor<f32>
  %zb = tcc.constant dense<0> : tensor<i8>
  %sbias = tcc.constant dense<0.125> : tensor<2xf32>
  %zbias = tcc.constant dense<0> : tensor<2xi32>
  %sy = tcc.constant dense<0.1> : tensor<f32>
  %zy = tcc.constant dense<10> : tensor<ui8>
  %a = tcc.dequantize %qa, %sa, %za : (tensor<4x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<4x3xf32>
  %b = tcc.dequantize %qb, %sb, %zb : (tensor<3x2xi8>, tensor<f32>, tensor<i8>) -> tensor<3x2xf32>
  %bias = tcc.dequantize %bq, %sbias, %zbias {axis = 0 : i64} : (tensor<2xi32>, tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  %c = tcc.matmul %a, %b : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %d = tcc.add %c, %bias : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %r = tcc.relu %d : tensor<4x2xf32>
  %y = tcc.quantize %r, %sy, %zy : (tensor<4x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<4x2xui8>
  return %y : tensor<4x2xui8>
}

// -----

// Tests that a conv2d's dequantized bias becomes an int32 add of the bias
// reshaped per channel, and that a bias whose scale is not s_x * s_w
// (0.5 * 0.25 = 0.125, not 0.1) leaves the layer in float.
// CHECK-LABEL: func.func @conv_bias
// CHECK: %[[ACC:.*]] = tcc.conv2d_integer
// CHECK: %[[B:.*]] = tcc.reshape %{{.*}} : tensor<4xi32> to tensor<4x1x1xi32>
// CHECK: %[[SUM:.*]] = tcc.add %[[ACC]], %[[B]] : (tensor<1x4x8x8xi32>, tensor<4x1x1xi32>) -> tensor<1x4x8x8xi32>
// CHECK: tcc.requantize %[[SUM]]
// CHECK: tcc.conv2d %
// CHECK: tcc.quantize
func.func @conv_bias(%qx: tensor<1x3x8x8xui8>, %qw: tensor<4x3x3x3xi8>, %bq: tensor<4xi32>) -> (tensor<1x4x8x8xui8>, tensor<1x4x8x8xui8>) {
  %sx = tcc.constant dense<0.5> : tensor<f32>
  %zx = tcc.constant dense<0> : tensor<ui8>
  %sw = tcc.constant dense<0.25> : tensor<4xf32>
  %zw = tcc.constant dense<0> : tensor<4xi8>
  %sbias = tcc.constant dense<0.125> : tensor<4xf32>
  %sbad = tcc.constant dense<0.1> : tensor<4xf32>
  %zbias = tcc.constant dense<0> : tensor<4xi32>
  %sy = tcc.constant dense<0.1> : tensor<f32>
  %zy = tcc.constant dense<10> : tensor<ui8>
  %x = tcc.dequantize %qx, %sx, %zx : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x8x8xf32>
  %w = tcc.dequantize %qw, %sw, %zw {axis = 0 : i64} : (tensor<4x3x3x3xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x3x3x3xf32>
  %bias = tcc.dequantize %bq, %sbias, %zbias {axis = 0 : i64} : (tensor<4xi32>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  %bad = tcc.dequantize %bq, %sbad, %zbias {axis = 0 : i64} : (tensor<4xi32>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  %c = tcc.conv2d %x, %w, %bias {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %y = tcc.quantize %c, %sy, %zy : (tensor<1x4x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xui8>
  %c2 = tcc.conv2d %x, %w, %bad {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %y2 = tcc.quantize %c2, %sy, %zy : (tensor<1x4x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xui8>
  return %y, %y2 : tensor<1x4x8x8xui8>, tensor<1x4x8x8xui8>
}

// -----

// Tests that a max-pool and a reshape of a tensor dequantized per tensor by
// a positive constant scale run on the 8-bit tensor, and that quantizing
// it again with the same scale and zero point folds away.
// CHECK-LABEL: func.func @pool_flatten
// CHECK-SAME: (%[[Q:.*]]: tensor<1x4x8x8xui8>)
// CHECK-NOT: tcc.dequantize
// CHECK: %[[P:.*]] = tcc.max_pool2d %[[Q]] {{.*}} : tensor<1x4x8x8xui8> -> tensor<1x4x4x4xui8>
// CHECK: %[[R:.*]] = tcc.reshape %[[P]] : tensor<1x4x4x4xui8> to tensor<1x64xui8>
// CHECK-NOT: tcc.quantize
// CHECK: return %[[R]]
func.func @pool_flatten(%q: tensor<1x4x8x8xui8>) -> tensor<1x64xui8> {
  %s = tcc.constant dense<0.125> : tensor<f32>
  %zp = tcc.constant dense<3> : tensor<ui8>
  %x = tcc.dequantize %q, %s, %zp : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xf32>
  %p = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  %r = tcc.reshape %p : tensor<1x4x4x4xf32> to tensor<1x64xf32>
  %y = tcc.quantize %r, %s, %zp : (tensor<1x64xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x64xui8>
  return %y : tensor<1x64xui8>
}

// -----

// Tests that a quantize with other parameters stays (it requantizes), after
// a max-pool that did move to the 8-bit side.
// CHECK-LABEL: func.func @pool_requantized
// CHECK: %[[P:.*]] = tcc.max_pool2d %{{.*}} : tensor<1x4x8x8xi8> -> tensor<1x4x4x4xi8>
// CHECK: %[[D:.*]] = tcc.dequantize %[[P]]
// CHECK: tcc.quantize %[[D]]
func.func @pool_requantized(%q: tensor<1x4x8x8xi8>) -> tensor<1x4x4x4xi8> {
  %s = tcc.constant dense<0.125> : tensor<f32>
  %s2 = tcc.constant dense<0.25> : tensor<f32>
  %zp = tcc.constant dense<-3> : tensor<i8>
  %x = tcc.dequantize %q, %s, %zp : (tensor<1x4x8x8xi8>, tensor<f32>, tensor<i8>) -> tensor<1x4x8x8xf32>
  %p = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  %y = tcc.quantize %p, %s2, %zp : (tensor<1x4x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

// -----

// Tests that a scale that is not a constant (its sign unknown) or a
// dequantize with another user keeps the max-pool in float.
// CHECK-LABEL: func.func @pool_unknown_scale
// CHECK: %[[X:.*]] = tcc.dequantize
// CHECK: tcc.max_pool2d %[[X]] {{.*}} : tensor<1x4x8x8xf32>
func.func @pool_unknown_scale(%q: tensor<1x4x8x8xui8>, %s: tensor<f32>) -> tensor<1x4x4x4xf32> {
  %zp = tcc.constant dense<3> : tensor<ui8>
  %x = tcc.dequantize %q, %s, %zp : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xf32>
  %p = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  return %p : tensor<1x4x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @pool_negative_scale
// CHECK: tcc.max_pool2d %{{.*}} : tensor<1x4x8x8xf32>
func.func @pool_negative_scale(%q: tensor<1x4x8x8xui8>) -> tensor<1x4x4x4xf32> {
  %s = tcc.constant dense<-0.5> : tensor<f32>
  %zp = tcc.constant dense<3> : tensor<ui8>
  %x = tcc.dequantize %q, %s, %zp : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xf32>
  %p = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  return %p : tensor<1x4x4x4xf32>
}
