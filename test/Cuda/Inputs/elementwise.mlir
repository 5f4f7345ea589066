// A fused elementwise chain with the math tcc expands itself (exp, tanh,
// erf, log) and a broadcast.
func.func @main(%x: tensor<64x130xf32> {tcc.name = "x"}, %b: tensor<130xf32> {tcc.name = "b"}) -> (tensor<64x130xf32> {tcc.name = "y"}) {
  %0 = tcc.add %x, %b : (tensor<64x130xf32>, tensor<130xf32>) -> tensor<64x130xf32>
  %1 = tcc.gelu %0 : tensor<64x130xf32>
  %2 = tcc.sigmoid %1 : tensor<64x130xf32>
  %3 = tcc.tanh %2 : tensor<64x130xf32>
  %4 = tcc.exp %3 : tensor<64x130xf32>
  %5 = tcc.log %4 : tensor<64x130xf32>
  %6 = tcc.mul %5, %x : (tensor<64x130xf32>, tensor<64x130xf32>) -> tensor<64x130xf32>
  return %6 : tensor<64x130xf32>
}
