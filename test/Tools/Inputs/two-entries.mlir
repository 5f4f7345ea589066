func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tcc.neg %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @forward(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tcc.abs %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
