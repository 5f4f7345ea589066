// Self-attention over 2 heads of 4 (seq 8) with q, k and v projections of
// the same input: at -O2 tcc-merge-linears makes them one 8x24x8 GEMM and
// the attention matmuls read q, k and v as slices of its result in place
// (offsets 0, 8 and 16, leading dimension 24). The output projection has a
// residual epilogue, so it stays its own GEMM. Output 1 is a slice of a
// computed value that a matmul also reads in place (offset 4, leading
// dimension 8); returned, it is computed too.
func.func @main(%x: tensor<8x1x8xf32>) -> (tensor<8x1x8xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
  %wq = tcc.constant dense<[[-0.176, -0.349, 0.151, -0.428, 0.036, -0.134, -0.442, 0.007], [-0.463, -0.066, -0.430, -0.409, -0.075, 0.327, -0.376, -0.277], [0.127, 0.448, 0.077, -0.103, 0.476, -0.453, 0.358, -0.210], [-0.356, -0.382, -0.192, 0.316, -0.319, 0.082, 0.139, -0.128], [0.048, -0.437, -0.440, -0.294, 0.180, -0.072, -0.186, 0.086], [-0.047, -0.200, 0.294, 0.199, -0.256, 0.074, 0.025, 0.375], [0.229, -0.212, 0.480, -0.382, -0.082, 0.257, -0.348, -0.011], [-0.461, 0.168, 0.265, 0.073, 0.375, -0.186, 0.195, 0.094]]> : tensor<8x8xf32>
  %bq = tcc.constant dense<[-0.496, 0.299, -0.328, -0.027, 0.225, 0.056, -0.174, 0.018]> : tensor<8xf32>
  %q = tcc.linear %x, %wq, %bq : (tensor<8x1x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x1x8xf32>
  %q3 = tcc.reshape %q : tensor<8x1x8xf32> to tensor<8x2x4xf32>
  %qh = tcc.transpose %q3 {permutation = array<i64: 1, 0, 2>} : tensor<8x2x4xf32> -> tensor<2x8x4xf32>
  %wk = tcc.constant dense<[[0.080, -0.044, 0.340, 0.445, -0.026, 0.164, -0.439, 0.201], [0.147, 0.493, 0.322, -0.215, -0.114, 0.169, -0.477, -0.038], [-0.332, -0.383, -0.441, 0.268, -0.371, -0.252, -0.109, 0.371], [-0.419, -0.051, 0.049, 0.383, 0.319, 0.364, -0.222, -0.085], [-0.141, 0.384, 0.458, -0.349, -0.324, -0.268, -0.267, -0.015], [0.089, -0.237, -0.496, -0.081, -0.131, 0.066, 0.453, 0.190], [0.015, 0.118, 0.176, -0.446, 0.400, 0.280, 0.375, 0.298], [-0.108, -0.101, -0.396, 0.134, -0.438, -0.433, -0.291, -0.338]]> : tensor<8x8xf32>
  %bk = tcc.constant dense<[0.055, 0.284, -0.394, 0.060, -0.252, -0.223, 0.272, 0.008]> : tensor<8xf32>
  %k = tcc.linear %x, %wk, %bk : (tensor<8x1x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x1x8xf32>
  %k3 = tcc.reshape %k : tensor<8x1x8xf32> to tensor<8x2x4xf32>
  %kt = tcc.transpose %k3 {permutation = array<i64: 1, 2, 0>} : tensor<8x2x4xf32> -> tensor<2x4x8xf32>
  %s = tcc.matmul %qh, %kt : (tensor<2x8x4xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  %p = tcc.softmax %s {dim = 2 : i64} : tensor<2x8x8xf32>
  %wv = tcc.constant dense<[[-0.160, -0.447, -0.500, -0.349, -0.399, -0.136, -0.474, 0.374], [0.114, -0.351, -0.248, -0.153, -0.136, -0.377, 0.349, 0.493], [-0.034, -0.016, -0.414, -0.398, -0.157, -0.235, 0.329, -0.339], [-0.477, 0.451, 0.028, -0.353, 0.043, -0.473, 0.028, 0.479], [0.363, 0.196, -0.239, -0.133, -0.333, 0.272, 0.033, 0.279], [-0.170, -0.277, 0.312, 0.485, 0.353, 0.306, 0.318, 0.240], [-0.273, 0.018, -0.144, -0.471, -0.472, -0.221, -0.241, 0.193], [0.457, -0.053, 0.437, 0.488, 0.455, -0.135, -0.280, -0.273]]> : tensor<8x8xf32>
  %bv = tcc.constant dense<[0.062, 0.260, 0.412, -0.057, 0.113, 0.006, 0.012, 0.193]> : tensor<8xf32>
  %v = tcc.linear %x, %wv, %bv : (tensor<8x1x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x1x8xf32>
  %v3 = tcc.reshape %v : tensor<8x1x8xf32> to tensor<8x2x4xf32>
  %vh = tcc.transpose %v3 {permutation = array<i64: 1, 0, 2>} : tensor<8x2x4xf32> -> tensor<2x8x4xf32>
  %o = tcc.matmul %p, %vh : (tensor<2x8x8xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %ot = tcc.transpose %o {permutation = array<i64: 1, 0, 2>} : tensor<2x8x4xf32> -> tensor<8x2x4xf32>
  %o3 = tcc.reshape %ot : tensor<8x2x4xf32> to tensor<8x1x8xf32>
  %wo = tcc.constant dense<[[-0.303, -0.296, 0.124, 0.400, 0.340, -0.021, 0.153, 0.300], [-0.415, 0.161, 0.410, 0.282, 0.250, -0.022, -0.321, 0.289], [-0.167, 0.301, 0.472, -0.104, -0.099, 0.447, 0.225, -0.330], [-0.373, -0.349, 0.405, 0.307, -0.354, 0.327, 0.480, 0.157], [-0.150, 0.049, -0.369, -0.486, 0.471, 0.150, 0.027, 0.434], [-0.066, 0.372, 0.326, -0.289, -0.248, -0.207, -0.259, 0.086], [-0.241, -0.081, -0.369, 0.410, -0.146, -0.042, 0.083, 0.404], [-0.079, 0.418, 0.002, 0.032, 0.024, -0.481, -0.060, -0.317]]> : tensor<8x8xf32>
  %bo = tcc.constant dense<[-0.048, 0.033, -0.022, 0.442, 0.199, 0.377, 0.442, -0.240]> : tensor<8xf32>
  %y = tcc.linear %o3, %wo, %bo : (tensor<8x1x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x1x8xf32>
  %out = tcc.add %x, %y : (tensor<8x1x8xf32>, tensor<8x1x8xf32>) -> tensor<8x1x8xf32>
  %r = tcc.relu %x : tensor<8x1x8xf32>
  %r2 = tcc.reshape %r : tensor<8x1x8xf32> to tensor<8x8xf32>
  %rs = tcc.slice %r2 {start = array<i64: 0, 4>, end = array<i64: 8, 8>, step = array<i64: 1, 1>} : tensor<8x8xf32> -> tensor<8x4xf32>
  %w4 = tcc.constant dense<[[0.060, 0.443, 0.340, -0.363], [-0.378, -0.058, -0.427, -0.259], [-0.427, 0.169, 0.284, 0.397], [-0.346, 0.216, 0.160, -0.357]]> : tensor<4x4xf32>
  %m = tcc.matmul %rs, %w4 : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  return %out, %m, %rs : tensor<8x1x8xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}
