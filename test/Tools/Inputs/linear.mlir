func.func @main(%x: tensor<64x128xf32> {tcc.name = "x"}) -> (tensor<64x32xf32> {tcc.name = "y"}) {
  %w = tcc.constant dense<0.5> : tensor<32x128xf32>
  %y = tcc.linear %x, %w : (tensor<64x128xf32>, tensor<32x128xf32>) -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}
