// Softmax, layer norm and reductions: loops with an inner sequential
// reduction, and a full reduction that runs as one thread.
func.func @main(%x: tensor<4x8x32xf32> {tcc.name = "x"}, %w: tensor<32xf32> {tcc.name = "w"}) -> (tensor<4x8x32xf32> {tcc.name = "s"}, tensor<4x8x32xf32> {tcc.name = "n"}, tensor<f32> {tcc.name = "total"}, tensor<4x32xf32> {tcc.name = "m"}) {
  %s = tcc.softmax %x {dim = 2 : i64} : tensor<4x8x32xf32>
  %n = tcc.layer_norm %x weight %w {normalized_shape = array<i64: 32>} : (tensor<4x8x32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
  %t = tcc.reduce_sum %x {dims = array<i64: 0, 1, 2>} : tensor<4x8x32xf32> -> tensor<f32>
  %m = tcc.reduce_max %x {dims = array<i64: 1>} : tensor<4x8x32xf32> -> tensor<4x32xf32>
  return %s, %n, %t, %m : tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<f32>, tensor<4x32xf32>
}
