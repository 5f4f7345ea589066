func.func @forward(%x: tensor<64xf32> {tcc.name = "x"},
                   %y: tensor<64xf32> {tcc.name = "y"})
    -> (tensor<64xf32> {tcc.name = "z"}) {
  %m = tcc.mul %x, %y : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %r = tcc.relu %m : tensor<64xf32>
  return %r : tensor<64xf32>
}
