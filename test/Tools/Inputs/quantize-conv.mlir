// conv2d (with bias) + ReLU, a depthwise conv2d, and a residual add, for
// tcc quantize.
func.func @forward(%x: tensor<1x2x4x4xf32> {tcc.name = "image"}) -> (tensor<1x2x4x4xf32> {tcc.name = "features"}) {
  %w = tcc.constant dense<[[[[0.5, -0.25], [0.125, 1.0]], [[-0.5, 0.75], [0.25, 0.0]]], [[[1.0, 0.5], [-0.25, 0.5]], [[0.0, -1.0], [0.5, 0.25]]]]> : tensor<2x2x2x2xf32>
  %b = tcc.constant dense<[0.125, -0.0625]> : tensor<2xf32>
  %c = tcc.conv2d %x, %w, %b {padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>, tensor<2xf32>) -> tensor<1x2x5x5xf32>
  %r = tcc.relu %c : tensor<1x2x5x5xf32>
  %dww = tcc.constant dense<[[[[0.5, 0.25], [-0.5, 1.0]]], [[[1.0, -0.5], [0.25, 0.5]]]]> : tensor<2x1x2x2xf32>
  %d = tcc.conv2d %r, %dww {groups = 2 : i64} : (tensor<1x2x5x5xf32>, tensor<2x1x2x2xf32>) -> tensor<1x2x4x4xf32>
  %s = tcc.add %d, %x : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %s : tensor<1x2x4x4xf32>
}
