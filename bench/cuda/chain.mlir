// The GPU benchmark's fused elementwise chain (issue 16: at least 0.8 of a
// device-to-device copy's bandwidth): a bias, SiLU and a residual product,
// one read of x and one write of y per element (the bias stays in cache),
// 128 MiB each (the H200's L2 holds 60 MB).
func.func @main(%x: tensor<4096x8192xf32> {tcc.name = "x"}, %b: tensor<8192xf32> {tcc.name = "b"}) -> (tensor<4096x8192xf32> {tcc.name = "y"}) {
  %0 = tcc.add %x, %b : (tensor<4096x8192xf32>, tensor<8192xf32>) -> tensor<4096x8192xf32>
  %1 = tcc.sigmoid %0 : tensor<4096x8192xf32>
  %2 = tcc.mul %0, %1 : (tensor<4096x8192xf32>, tensor<4096x8192xf32>) -> tensor<4096x8192xf32>
  %3 = tcc.mul %2, %x : (tensor<4096x8192xf32>, tensor<4096x8192xf32>) -> tensor<4096x8192xf32>
  return %3 : tensor<4096x8192xf32>
}
