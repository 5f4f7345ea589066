// GEMMs for cuBLASLt: a linear with bias and ReLU, one with tanh-GELU, one
// with erf-GELU (which cuBLASLt lacks: a generated epilogue kernel), and a
// matmul with a residual added before the activation.
func.func @main(%x: tensor<64x128xf32> {tcc.name = "x"}, %r: tensor<64x32xf32> {tcc.name = "r"}) -> (tensor<64x32xf32> {tcc.name = "y"}, tensor<64x32xf32> {tcc.name = "z"}) {
  %w1 = tcc.constant dense<0.01> : tensor<96x128xf32>
  %b1 = tcc.constant dense<0.5> : tensor<96xf32>
  %w2 = tcc.constant dense<0.02> : tensor<64x96xf32>
  %b2 = tcc.constant dense<0.25> : tensor<64xf32>
  %w3 = tcc.constant dense<0.03> : tensor<32x64xf32>
  %m = tcc.constant dense<0.04> : tensor<32x32xf32>
  %h1 = tcc.linear %x, %w1, %b1 : (tensor<64x128xf32>, tensor<96x128xf32>, tensor<96xf32>) -> tensor<64x96xf32>
  %a1 = tcc.relu %h1 : tensor<64x96xf32>
  %h2 = tcc.linear %a1, %w2, %b2 : (tensor<64x96xf32>, tensor<64x96xf32>, tensor<64xf32>) -> tensor<64x64xf32>
  %a2 = tcc.gelu %h2 approximate tanh : tensor<64x64xf32>
  %h3 = tcc.linear %a2, %w3 : (tensor<64x64xf32>, tensor<32x64xf32>) -> tensor<64x32xf32>
  %y = tcc.gelu %h3 : tensor<64x32xf32>
  %p = tcc.matmul %y, %m : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %s = tcc.add %p, %r : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  %z = tcc.relu %s : tensor<64x32xf32>
  return %y, %z : tensor<64x32xf32>, tensor<64x32xf32>
}
