func.func @main(%x: tensor<2xf32>) -> tensor<1000000x1000000xf32> {
  %c = tcc.constant dense<0.0> : tensor<1000000x1000000xf32>
  return %c : tensor<1000000x1000000xf32>
}
