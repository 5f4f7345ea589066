// An integer-form CNN head: conv (one group, per-channel requantize, int32
// bias, ReLU as maximum with the zero point), depthwise conv, a linear
// layer dequantized to f32 with relu, and a linear layer whose weight is
// an input (no packed form: generated code).
func.func @main(%x: tensor<1x2x4x4xui8> {tcc.name = "x"}, %wq: tensor<32x3xi8> {tcc.name = "w"}) -> (tensor<1x3xf32> {tcc.name = "y"}, tensor<1x3xi32> {tcc.name = "z"}) {
  %xzp = tcc.constant dense<100> : tensor<ui8>
  %w1 = tcc.constant dense<[[[[1, -2], [3, 4]], [[-5, 6], [7, -8]]], [[[9, 10], [-11, 12]], [[13, -14], [15, 16]]]]> : tensor<2x2x2x2xi8>
  %w1zp = tcc.constant dense<0> : tensor<2xi8>
  %b1 = tcc.constant dense<[[[100]], [[-300]]]> : tensor<2x1x1xi32>
  %m1 = tcc.constant dense<[0.031, 0.017]> : tensor<2xf32>
  %yzp = tcc.constant dense<3> : tensor<2xui8>
  %floor = tcc.constant dense<3> : tensor<ui8>
  %a1 = tcc.conv2d_integer %x, %w1, %xzp, %w1zp {padding = array<i64: 1, 1>} : (tensor<1x2x4x4xui8>, tensor<2x2x2x2xi8>, tensor<ui8>, tensor<2xi8>) -> tensor<1x2x5x5xi32>
  %s1 = tcc.add %a1, %b1 : (tensor<1x2x5x5xi32>, tensor<2x1x1xi32>) -> tensor<1x2x5x5xi32>
  %q1 = tcc.requantize %s1, %m1, %yzp {axis = 1 : i64} : (tensor<1x2x5x5xi32>, tensor<2xf32>, tensor<2xui8>) -> tensor<1x2x5x5xui8>
  %h1 = tcc.maximum %q1, %floor : (tensor<1x2x5x5xui8>, tensor<ui8>) -> tensor<1x2x5x5xui8>
  %w2 = tcc.constant dense<[[[[1, 2, 1], [2, 4, 2], [1, 2, 1]]], [[[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]]]> : tensor<2x1x3x3xi8>
  %w2zp = tcc.constant dense<0> : tensor<i8>
  %m2 = tcc.constant dense<0.0625> : tensor<f32>
  %zp3 = tcc.constant dense<3> : tensor<ui8>
  %a2 = tcc.conv2d_integer %h1, %w2, %zp3, %w2zp {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x2x5x5xui8>, tensor<2x1x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x2x3x3xi32>
  %h2 = tcc.requantize %a2, %m2, %zp3 : (tensor<1x2x3x3xi32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xui8>
  %f = tcc.reshape %h2 : tensor<1x2x3x3xui8> to tensor<1x18xui8>
  %w3 = tcc.constant dense<[[1, -1, 2], [3, 5, -7], [0, 1, 0], [2, 2, 2], [-3, 1, 4], [1, 1, -1], [5, 0, -5], [1, 2, 3], [-1, -2, -3], [4, 4, -4], [0, 0, 1], [7, -7, 0], [1, 0, 1], [2, -1, 2], [-6, 3, 1], [1, 1, 1], [0, 2, -2], [3, -3, 3]]> : tensor<18x3xi8>
  %m3 = tcc.constant dense<[0.5, 0.25, 0.125]> : tensor<3xf32>
  %zero = tcc.constant dense<0> : tensor<3xi32>
  %a3 = tcc.matmul_integer %f, %w3, %zp3, %w2zp : (tensor<1x18xui8>, tensor<18x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x3xi32>
  %d3 = tcc.dequantize %a3, %m3, %zero : (tensor<1x3xi32>, tensor<3xf32>, tensor<3xi32>) -> tensor<1x3xf32>
  %y = tcc.relu %d3 : tensor<1x3xf32>
  %x32 = tcc.reshape %x : tensor<1x2x4x4xui8> to tensor<1x32xui8>
  %z = tcc.matmul_integer %x32, %wq, %xzp, %w2zp : (tensor<1x32xui8>, tensor<32x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x3xi32>
  return %y, %z : tensor<1x3xf32>, tensor<1x3xi32>
}
