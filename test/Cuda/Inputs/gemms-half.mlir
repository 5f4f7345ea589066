// bf16 and fp16 GEMMs that run on cuBLASLt alone (what --precision makes
// of fp32 ones), their operands inputs: a bf16 linear with bias and ReLU, a
// bf16 matmul with a residual, a batched fp16 matmul, and a bf16 linear
// whose ReLU is spelled as tcc-autocast leaves it (cast to f32, relu, cast
// back).
func.func @main(%x: tensor<8x16xbf16> {tcc.name = "x"}, %w: tensor<12x16xbf16> {tcc.name = "w"}, %b: tensor<12xbf16> {tcc.name = "b"}, %y: tensor<8x12xbf16> {tcc.name = "y"}, %m: tensor<12x5xbf16> {tcc.name = "m"}, %r: tensor<8x5xbf16> {tcc.name = "r"}, %p: tensor<3x8x12xf16> {tcc.name = "p"}, %q: tensor<3x12x4xf16> {tcc.name = "q"}, %v: tensor<6x16xbf16> {tcc.name = "v"}) -> (tensor<8x12xbf16> {tcc.name = "h"}, tensor<8x5xbf16> {tcc.name = "z"}, tensor<3x8x4xf16> {tcc.name = "pq"}, tensor<8x6xbf16> {tcc.name = "g"}) {
  %l = tcc.linear %x, %w, %b : (tensor<8x16xbf16>, tensor<12x16xbf16>, tensor<12xbf16>) -> tensor<8x12xbf16>
  %h = tcc.relu %l : tensor<8x12xbf16>
  %s = tcc.matmul %y, %m : (tensor<8x12xbf16>, tensor<12x5xbf16>) -> tensor<8x5xbf16>
  %z = tcc.add %s, %r : (tensor<8x5xbf16>, tensor<8x5xbf16>) -> tensor<8x5xbf16>
  %pq = tcc.matmul %p, %q : (tensor<3x8x12xf16>, tensor<3x12x4xf16>) -> tensor<3x8x4xf16>
  %k = tcc.linear %x, %v : (tensor<8x16xbf16>, tensor<6x16xbf16>) -> tensor<8x6xbf16>
  %kf = tcc.cast %k : tensor<8x6xbf16> to tensor<8x6xf32>
  %kr = tcc.relu %kf : tensor<8x6xf32>
  %g = tcc.cast %kr : tensor<8x6xf32> to tensor<8x6xbf16>
  return %h, %z, %pq, %g : tensor<8x12xbf16>, tensor<8x5xbf16>, tensor<3x8x4xf16>, tensor<8x6xbf16>
}
