// RUN: tcc-opt --tcc-autocast --tcc-fold-constants %s | FileCheck %s
// RUN: tcc-opt --tcc-autocast=precision=fp16 --tcc-fold-constants %s | FileCheck %s --check-prefix=FP16

// Tests that a constant weight is converted once, at compile time: after
// constant folding the linear reads a constant of the low precision (a
// blob: 4 bytes of alignment, then the elements little-endian), rounded to
// nearest even as computed by hand.
//   bf16 (7 fraction bits): 1 + 2^-8 (halfway) -> 1.0 = 0x3F80;
//   1 + 3 * 2^-8 (halfway) -> 1 + 2^-6 = 0x3F82; 3.0 = 0x4040;
//   -(1 + 2^-7 + 2^-9) -> -(1 + 2^-7) = 0xBF81; 65504 -> 65536 = 0x4780.
//   fp16 (10 fraction bits): all exact: 0x3C04, 0x3C0C, 0x4200, 0xBC0A,
//   0x7BFF (65504, fp16's largest).
// CHECK-LABEL: func.func @weights
// CHECK: %[[W:.*]] = tcc.constant dense_resource<[[BLOB:.*]]> : tensor<1x5xbf16>
// CHECK-NOT: tcc.cast {{.*}}1x5xf32> to
// CHECK: tcc.linear %{{.*}}, %[[W]] : (tensor<2x5xbf16>, tensor<1x5xbf16>) -> tensor<2x1xbf16>
// CHECK: [[BLOB]]: "0x40000000803F823F404081BF8047"
// FP16: tcc.constant dense_resource<[[BLOB:.*]]> : tensor<1x5xf16>
// FP16: [[BLOB]]: "0x40000000043C0C3C00420ABCFF7B"
func.func @weights(%x: tensor<2x5xf32>) -> tensor<2x1xf32> {
  %w = tcc.constant dense<[[1.00390625, 1.01171875, 3.0, -1.009765625, 65504.0]]> : tensor<1x5xf32>
  %y = tcc.linear %x, %w : (tensor<2x5xf32>, tensor<1x5xf32>) -> tensor<2x1xf32>
  return %y : tensor<2x1xf32>
}
