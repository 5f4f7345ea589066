// Matmul, convolution, pooling, a transpose and casts to 16-bit floats (the
// convolution NCHW: run channels-last as im2col and a GEMM by default).
func.func @main(%x: tensor<1x3x16x16xf32> {tcc.name = "x"}, %a: tensor<8x48xf32> {tcc.name = "a"}) -> (tensor<1x4x7x7xf32> {tcc.name = "c"}, tensor<8x8xf32> {tcc.name = "p"}, tensor<48x8xf16> {tcc.name = "h"}, tensor<8x48xbf16> {tcc.name = "g"}) {
  %w = tcc.constant dense<0.25> : tensor<4x3x3x3xf32>
  %c = tcc.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x16x16xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x16x16xf32>
  %r = tcc.relu %c : tensor<1x4x16x16xf32>
  %m = tcc.max_pool2d %r {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>} : tensor<1x4x16x16xf32> -> tensor<1x4x7x7xf32>
  %t = tcc.transpose %a {permutation = array<i64: 1, 0>} : tensor<8x48xf32> -> tensor<48x8xf32>
  %p = tcc.matmul %a, %t : (tensor<8x48xf32>, tensor<48x8xf32>) -> tensor<8x8xf32>
  %h = tcc.cast %t : tensor<48x8xf32> to tensor<48x8xf16>
  %g = tcc.cast %a : tensor<8x48xf32> to tensor<8x48xbf16>
  return %m, %p, %h, %g : tensor<1x4x7x7xf32>, tensor<8x8xf32>, tensor<48x8xf16>, tensor<8x48xbf16>
}
