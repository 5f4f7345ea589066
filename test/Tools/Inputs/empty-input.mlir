func.func @main(%a: tensor<0x8xf32>, %b: tensor<8xf32>) -> tensor<0x8xf32> {
  %0 = tcc.add %a, %b : (tensor<0x8xf32>, tensor<8xf32>) -> tensor<0x8xf32>
  return %0 : tensor<0x8xf32>
}
