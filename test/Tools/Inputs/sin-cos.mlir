func.func @main(%x: tensor<8xf32> {tcc.name = "x"}, %d: tensor<8xf64> {tcc.name = "d"}) -> (tensor<8xf32> {tcc.name = "s"}, tensor<8xf32> {tcc.name = "c"}, tensor<8xf64> {tcc.name = "sd"}, tensor<8xf64> {tcc.name = "cd"}) {
  %s = tcc.sin %x : tensor<8xf32>
  %c = tcc.cos %x : tensor<8xf32>
  %sd = tcc.sin %d : tensor<8xf64>
  %cd = tcc.cos %d : tensor<8xf64>
  return %s, %c, %sd, %cd : tensor<8xf32>, tensor<8xf32>, tensor<8xf64>, tensor<8xf64>
}
