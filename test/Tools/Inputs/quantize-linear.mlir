// A linear + ReLU for tcc quantize: weights chosen so that their s8 values
// are hand-computable (row scales 0.01, 0.02 and, for the zero row, 1).
func.func @forward(%x: tensor<2x4xf32> {tcc.name = "x"}) -> (tensor<2x3xf32> {tcc.name = "y"}) {
  %w = tcc.constant dense_resource<fc.weight> : tensor<3x4xf32>
  %b = tcc.constant dense_resource<fc.bias> : tensor<3xf32>
  %y = tcc.linear %x, %w, %b : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %r = tcc.relu %y : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
{-#
  dialect_resources: {
    builtin: {
      // [[1.27, -0.64, 0.25, 0.5], [0.5, 2.54, -1.0, 0.1], [0, 0, 0, 0]]
      fc.weight: "0x040000005C8FA23F0AD723BF0000803E0000003F0000003F5C8F2240000080BFCDCCCC3D00000000000000000000000000000000",
      // [0.11, -0.21, 0.3]
      fc.bias: "0x04000000AE47E13D3D0A57BE9A99993E"
    }
  }
#-}
