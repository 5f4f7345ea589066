func.func @main(%x: tensor<19xf32> {tcc.name = "x"}) -> (tensor<19xf32> {tcc.name = "y"}) {
  %s = tcc.sigmoid %x : tensor<19xf32>
  %y = tcc.add %s, %x : (tensor<19xf32>, tensor<19xf32>) -> tensor<19xf32>
  return %y : tensor<19xf32>
}
