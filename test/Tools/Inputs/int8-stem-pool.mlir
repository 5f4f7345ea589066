// An integer-form ResNet stem: a convolution requantized to ui8, an 8-bit
// max pool 3x3/2 (pad 1), and a convolution reading the pool's result.
func.func @main(%x: tensor<1x2x6x8xui8> {tcc.name = "x"}) -> (tensor<1x3x3x4xui8> {tcc.name = "y"}) {
  %xzp = tcc.constant dense<100> : tensor<ui8>
  %w1 = tcc.constant dense<[[[[1, -2], [3, 4]], [[-5, 6], [7, -8]]], [[[9, 10], [-11, 12]], [[13, -14], [15, 16]]], [[[2, 0], [0, -2]], [[1, 1], [-1, 3]]]]> : tensor<3x2x2x2xi8>
  %wzp = tcc.constant dense<0> : tensor<i8>
  %m1 = tcc.constant dense<[0.031, 0.017, 0.023]> : tensor<3xf32>
  %hzp = tcc.constant dense<3> : tensor<3xui8>
  %a1 = tcc.conv2d_integer %x, %w1, %xzp, %wzp {padding = array<i64: 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x2x6x8xui8>, tensor<3x2x2x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x3x7x9xi32>
  %h = tcc.requantize %a1, %m1, %hzp {axis = 1 : i64} : (tensor<1x3x7x9xi32>, tensor<3xf32>, tensor<3xui8>) -> tensor<1x3x7x9xui8>
  %p = tcc.max_pool2d %h {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x3x7x9xui8> -> tensor<1x3x4x5xui8>
  %w2 = tcc.constant dense<[[[[1, 2], [2, 1]], [[0, 1], [1, 0]], [[-1, 2], [3, -2]]], [[[-1, 0], [0, 1]], [[2, 2], [-2, 1]], [[1, 1], [1, 1]]], [[[4, -3], [2, 1]], [[0, 0], [1, -1]], [[-2, 1], [0, 3]]]]> : tensor<3x3x2x2xi8>
  %pzp = tcc.constant dense<3> : tensor<ui8>
  %m2 = tcc.constant dense<0.0625> : tensor<f32>
  %a2 = tcc.conv2d_integer %p, %w2, %pzp, %wzp : (tensor<1x3x4x5xui8>, tensor<3x3x2x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x3x3x4xi32>
  %y = tcc.requantize %a2, %m2, %pzp : (tensor<1x3x3x4xi32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x3x4xui8>
  return %y : tensor<1x3x3x4xui8>
}
