func.func @main(%x: tensor<256xf32> {tcc.name = "x"}) -> (tensor<256xf32> {tcc.name = "y"}) {
  %0 = tcc.exp %x : tensor<256xf32>
  %1 = tcc.neg %0 : tensor<256xf32>
  %2 = tcc.exp %1 : tensor<256xf32>
  %3 = tcc.neg %2 : tensor<256xf32>
  return %3 : tensor<256xf32>
}
