// GEMMs that run on cuBLASLt alone, their operands inputs (so that every
// element differs and a swapped or transposed operand shows): a linear with
// bias and ReLU, a matmul with a residual added before ReLU, a linear with
// bias and tanh-GELU, and a batched matmul.
func.func @main(%x: tensor<8x16xf32> {tcc.name = "x"}, %w: tensor<12x16xf32> {tcc.name = "w"}, %b: tensor<12xf32> {tcc.name = "b"}, %m: tensor<12x5xf32> {tcc.name = "m"}, %r: tensor<8x5xf32> {tcc.name = "r"}, %w2: tensor<6x12xf32> {tcc.name = "w2"}, %b2: tensor<6xf32> {tcc.name = "b2"}, %p: tensor<3x8x12xf32> {tcc.name = "p"}, %q: tensor<3x12x4xf32> {tcc.name = "q"}) -> (tensor<8x5xf32> {tcc.name = "z"}, tensor<8x6xf32> {tcc.name = "g"}, tensor<3x8x4xf32> {tcc.name = "pq"}) {
  %h = tcc.linear %x, %w, %b : (tensor<8x16xf32>, tensor<12x16xf32>, tensor<12xf32>) -> tensor<8x12xf32>
  %a = tcc.relu %h : tensor<8x12xf32>
  %s = tcc.matmul %a, %m : (tensor<8x12xf32>, tensor<12x5xf32>) -> tensor<8x5xf32>
  %t = tcc.add %s, %r : (tensor<8x5xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
  %z = tcc.relu %t : tensor<8x5xf32>
  %k = tcc.linear %a, %w2, %b2 : (tensor<8x12xf32>, tensor<6x12xf32>, tensor<6xf32>) -> tensor<8x6xf32>
  %g = tcc.gelu %k approximate tanh : tensor<8x6xf32>
  %pq = tcc.matmul %p, %q : (tensor<3x8x12xf32>, tensor<3x12x4xf32>) -> tensor<3x8x4xf32>
  return %z, %g, %pq : tensor<8x5xf32>, tensor<8x6xf32>, tensor<3x8x4xf32>
}
