// Channels-last convolutions of one group, every one an Sgemm step on the
// cuda target (--cuda-conv=gemm): a 3x3 of stride 2 with padding, bias and
// ReLU and a 3x3 of dilation 2 with bias (im2col kernels, vector accesses:
// C is a multiple of 4), a 1x1 of stride 1 with a residual before ReLU (no
// im2col: it reads its input), a 1x1 of stride 2 with tanh-GELU (im2col);
// batch 2, weights as inputs.
func.func @main(%x: tensor<2x9x9x8xf32> {tcc.name = "x"}, %w1: tensor<16x3x3x8xf32> {tcc.name = "w1"}, %b1: tensor<16xf32> {tcc.name = "b1"}, %w2: tensor<16x1x1x16xf32> {tcc.name = "w2"}, %w3: tensor<4x3x3x16xf32> {tcc.name = "w3"}, %b3: tensor<4xf32> {tcc.name = "b3"}, %w4: tensor<8x1x1x16xf32> {tcc.name = "w4"}) -> (tensor<2x5x5x4xf32> {tcc.name = "y3"}, tensor<2x3x3x8xf32> {tcc.name = "y4"}) {
  %c1 = tcc.conv2d %x, %w1, %b1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, layout = #tcc.layout<nhwc>} : (tensor<2x9x9x8xf32>, tensor<16x3x3x8xf32>, tensor<16xf32>) -> tensor<2x5x5x16xf32>
  %r1 = tcc.relu %c1 : tensor<2x5x5x16xf32>
  %c2 = tcc.conv2d %r1, %w2 {layout = #tcc.layout<nhwc>} : (tensor<2x5x5x16xf32>, tensor<16x1x1x16xf32>) -> tensor<2x5x5x16xf32>
  %a2 = tcc.add %c2, %r1 : (tensor<2x5x5x16xf32>, tensor<2x5x5x16xf32>) -> tensor<2x5x5x16xf32>
  %r2 = tcc.relu %a2 : tensor<2x5x5x16xf32>
  %y3 = tcc.conv2d %r2, %w3, %b3 {padding = array<i64: 2, 2>, dilation = array<i64: 2, 2>, layout = #tcc.layout<nhwc>} : (tensor<2x5x5x16xf32>, tensor<4x3x3x16xf32>, tensor<4xf32>) -> tensor<2x5x5x4xf32>
  %c4 = tcc.conv2d %r2, %w4 {stride = array<i64: 2, 2>, layout = #tcc.layout<nhwc>} : (tensor<2x5x5x16xf32>, tensor<8x1x1x16xf32>) -> tensor<2x3x3x8xf32>
  %y4 = tcc.gelu %c4 approximate tanh : tensor<2x3x3x8xf32>
  return %y3, %y4 : tensor<2x5x5x4xf32>, tensor<2x3x3x8xf32>
}
