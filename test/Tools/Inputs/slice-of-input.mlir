// Slices of a model input read in place by matmuls: at offset 0 (x[:, 0:4],
// leading dimension 8) and at offset 4 floats (x[:, 4:8]), an alias of the
// input 16 bytes in. Nothing is copied.
func.func @main(%x: tensor<8x8xf32>, %w: tensor<4x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %s = tcc.slice %x {start = array<i64: 0, 4>, end = array<i64: 8, 8>, step = array<i64: 1, 1>} : tensor<8x8xf32> -> tensor<8x4xf32>
  %m = tcc.matmul %s, %w : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %s0 = tcc.slice %x {start = array<i64: 0, 0>, end = array<i64: 8, 4>, step = array<i64: 1, 1>} : tensor<8x8xf32> -> tensor<8x4xf32>
  %m0 = tcc.matmul %s0, %w : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  return %m, %m0 : tensor<8x4xf32>, tensor<8x4xf32>
}
