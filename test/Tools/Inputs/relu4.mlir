func.func @main(%x: tensor<4xf32> {tcc.name = "x"}) -> (tensor<4xf32> {tcc.name = "y"}) {
  %y = tcc.relu %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
