func.func @main(%x: tensor<2x3xf32> {tcc.name = "x"}, %y: tensor<3xf32> {tcc.name = "y"}) -> (tensor<2x3xf32> {tcc.name = "out"}) {
  %0 = tcc.add %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = tcc.relu %0 : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
