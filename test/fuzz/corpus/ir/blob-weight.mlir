func.func @main(%x: tensor<4xf16> {tcc.name = "x"}) -> (tensor<4xf16> {tcc.name = "y"}) {
  %w = tcc.constant dense_resource<w> : tensor<4xf16>
  %c = tcc.constant dense<[1.0, -0.0, 65504.0, 6.0e-8]> : tensor<4xf16>
  %0 = tcc.mul %x, %w : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %1 = tcc.add %0, %c : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %1 : tensor<4xf16>
}
{-#
  dialect_resources: { builtin: { w: "0x02000000003C00C0007C01FE" } }
#-}
