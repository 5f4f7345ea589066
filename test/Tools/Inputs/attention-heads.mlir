// Attention over 2 heads of 4 (seq 8): the head transposes around both
// matmuls are read and written in place through sgemm strides. Output 1 also
// returns a transposed operand, which then must be computed; %kt2 has a use
// besides the matmul, so it is computed too (and read in place there).
func.func @main(%q: tensor<8x1x8xf32>, %k: tensor<8x1x8xf32>, %v: tensor<8x1x8xf32>) -> (tensor<8x1x8xf32>, tensor<2x8x4xf32>, tensor<2x4x8xf32>) {
  %q3 = tcc.reshape %q : tensor<8x1x8xf32> to tensor<8x2x4xf32>
  %qh = tcc.transpose %q3 {permutation = array<i64: 1, 0, 2>} : tensor<8x2x4xf32> -> tensor<2x8x4xf32>
  %k3 = tcc.reshape %k : tensor<8x1x8xf32> to tensor<8x2x4xf32>
  %kt2 = tcc.transpose %k3 {permutation = array<i64: 1, 2, 0>} : tensor<8x2x4xf32> -> tensor<2x4x8xf32>
  %s = tcc.matmul %qh, %kt2 : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  %p = tcc.softmax %s {dim = 2 : i64} : tensor<2x8x8xf32>
  %v3 = tcc.reshape %v : tensor<8x1x8xf32> to tensor<8x2x4xf32>
  %vh = tcc.transpose %v3 {permutation = array<i64: 1, 0, 2>} : tensor<8x2x4xf32> -> tensor<2x8x4xf32>
  %o = tcc.matmul %p, %vh : (tensor<2x8x8xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %ot = tcc.transpose %o {permutation = array<i64: 1, 0, 2>} : tensor<2x8x4xf32> -> tensor<8x2x4xf32>
  %out = tcc.reshape %ot : tensor<8x2x4xf32> to tensor<8x1x8xf32>
  return %out, %qh, %kt2 : tensor<8x1x8xf32>, tensor<2x8x4xf32>, tensor<2x4x8xf32>
}
