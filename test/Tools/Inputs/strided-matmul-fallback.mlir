// Transposed matmul operands that sgemm cannot read in place, so the
// transposes are computed: batch dims that do not flatten to one stride
// (%xt; %q and %k, as in a batch-2 attention), and a reshape that merges
// dims a transpose made non-adjacent (%yr). %k's two transposes are
// computed after %q's: %q must stay alive until the matmul reads it.
func.func @main(%x: tensor<2x3x4x5xf32>, %w: tensor<5x6xf32>, %y: tensor<8x2x4xf32>, %w2: tensor<4x6xf32>, %q4: tensor<2x5x2x8xf32>, %k4: tensor<2x5x2x8xf32>) -> (tensor<3x2x4x6xf32>, tensor<16x6xf32>, tensor<2x2x5x5xf32>) {
  %xt = tcc.transpose %x {permutation = array<i64: 1, 0, 2, 3>} : tensor<2x3x4x5xf32> -> tensor<3x2x4x5xf32>
  %a = tcc.matmul %xt, %w : (tensor<3x2x4x5xf32>, tensor<5x6xf32>) -> tensor<3x2x4x6xf32>
  %yt = tcc.transpose %y {permutation = array<i64: 1, 0, 2>} : tensor<8x2x4xf32> -> tensor<2x8x4xf32>
  %yr = tcc.reshape %yt : tensor<2x8x4xf32> to tensor<16x4xf32>
  %b = tcc.matmul %yr, %w2 : (tensor<16x4xf32>, tensor<4x6xf32>) -> tensor<16x6xf32>
  %q = tcc.transpose %q4 {permutation = array<i64: 0, 2, 1, 3>} : tensor<2x5x2x8xf32> -> tensor<2x2x5x8xf32>
  %k = tcc.transpose %k4 {permutation = array<i64: 0, 2, 1, 3>} : tensor<2x5x2x8xf32> -> tensor<2x2x5x8xf32>
  %kt = tcc.transpose %k {permutation = array<i64: 0, 1, 3, 2>} : tensor<2x2x5x8xf32> -> tensor<2x2x8x5xf32>
  %s = tcc.matmul %q, %kt : (tensor<2x2x5x8xf32>, tensor<2x2x8x5xf32>) -> tensor<2x2x5x5xf32>
  return %a, %b, %s : tensor<3x2x4x6xf32>, tensor<16x6xf32>, tensor<2x2x5x5xf32>
}
