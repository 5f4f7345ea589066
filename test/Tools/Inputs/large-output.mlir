func.func @main(%x: tensor<2xf32>) -> tensor<2000xf32> {
  %c = tcc.constant dense<1.5> : tensor<2000xf32>
  return %c : tensor<2000xf32>
}
