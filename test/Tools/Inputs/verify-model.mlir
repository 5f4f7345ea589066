// y = exp(x + b), s = the row sums of y (tcc-compile-verify.test).
func.func @main(%x: tensor<4x8xf32> {tcc.name = "x"}, %b: tensor<8xf32> {tcc.name = "b"})
    -> (tensor<4x8xf32> {tcc.name = "y"}, tensor<4xf32> {tcc.name = "s"}) {
  %0 = tcc.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = tcc.exp %0 : tensor<4x8xf32>
  %2 = tcc.reduce_sum %1 {dims = array<i64: 1>} : tensor<4x8xf32> -> tensor<4xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4xf32>
}
