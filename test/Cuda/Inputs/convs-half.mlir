// bf16 and fp16 convolutions of one group as tcc-autocast leaves them
// (--precision), every one an im2col kernel in its type (when it needs
// one) and a half-precision Sgemm step on the cuda target: a bf16 3x3 of
// stride 2 with padding and bias whose ReLU is between casts, a bf16 1x1
// of stride 1 with a residual before ReLU (no im2col), a bf16 1x1 of
// stride 2 (im2col without padding), an fp16 3x3 of dilation 2 with
// padding and bias; batch 2, weights as inputs.
func.func @main(%x: tensor<2x9x9x8xbf16> {tcc.name = "x"}, %w1: tensor<16x3x3x8xbf16> {tcc.name = "w1"}, %b1: tensor<16xbf16> {tcc.name = "b1"}, %u: tensor<2x5x5x16xbf16> {tcc.name = "u"}, %w2: tensor<16x1x1x16xbf16> {tcc.name = "w2"}, %w4: tensor<8x1x1x16xbf16> {tcc.name = "w4"}, %p: tensor<2x6x6x8xf16> {tcc.name = "p"}, %w3: tensor<4x3x3x8xf16> {tcc.name = "w3"}, %b3: tensor<4xf16> {tcc.name = "b3"}) -> (tensor<2x5x5x16xbf16> {tcc.name = "y1"}, tensor<2x5x5x16xbf16> {tcc.name = "y2"}, tensor<2x3x3x8xbf16> {tcc.name = "y4"}, tensor<2x6x6x4xf16> {tcc.name = "y3"}) {
  %c1 = tcc.conv2d %x, %w1, %b1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, layout = #tcc.layout<nhwc>} : (tensor<2x9x9x8xbf16>, tensor<16x3x3x8xbf16>, tensor<16xbf16>) -> tensor<2x5x5x16xbf16>
  %f1 = tcc.cast %c1 : tensor<2x5x5x16xbf16> to tensor<2x5x5x16xf32>
  %r1 = tcc.relu %f1 : tensor<2x5x5x16xf32>
  %y1 = tcc.cast %r1 : tensor<2x5x5x16xf32> to tensor<2x5x5x16xbf16>
  %c2 = tcc.conv2d %u, %w2 {layout = #tcc.layout<nhwc>} : (tensor<2x5x5x16xbf16>, tensor<16x1x1x16xbf16>) -> tensor<2x5x5x16xbf16>
  %a2 = tcc.add %c2, %u : (tensor<2x5x5x16xbf16>, tensor<2x5x5x16xbf16>) -> tensor<2x5x5x16xbf16>
  %y2 = tcc.relu %a2 : tensor<2x5x5x16xbf16>
  %y4 = tcc.conv2d %u, %w4 {stride = array<i64: 2, 2>, layout = #tcc.layout<nhwc>} : (tensor<2x5x5x16xbf16>, tensor<8x1x1x16xbf16>) -> tensor<2x3x3x8xbf16>
  %y3 = tcc.conv2d %p, %w3, %b3 {padding = array<i64: 2, 2>, dilation = array<i64: 2, 2>, layout = #tcc.layout<nhwc>} : (tensor<2x6x6x8xf16>, tensor<4x3x3x8xf16>, tensor<4xf16>) -> tensor<2x6x6x4xf16>
  return %y1, %y2, %y4, %y3 : tensor<2x5x5x16xbf16>, tensor<2x5x5x16xbf16>, tensor<2x3x3x8xbf16>, tensor<2x6x6x4xf16>
}
