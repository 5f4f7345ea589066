func.func @main(%x: tensor<20000000000xf32>) -> tensor<2xf32> {
  %0 = tcc.slice %x {start = array<i64: 0>, end = array<i64: 2>, step = array<i64: 1>} : tensor<20000000000xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
