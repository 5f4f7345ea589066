// RUN: tcc-opt --split-input-file --tcc-autocast %s | FileCheck %s
// RUN: tcc-opt --split-input-file --tcc-autocast=precision=fp16 %s | FileCheck %s --check-prefix=FP16
// RUN: not tcc-opt --tcc-autocast=precision=fp8 %s 2>&1 | FileCheck %s --check-prefix=BAD

// Tests that a linear reads its input, weight and bias in bf16 and its
// result returns to fp32 for the softmax, which stays fp32.
// CHECK-LABEL: func.func @linear_softmax
// CHECK-DAG: %[[X:.*]] = tcc.cast %arg0 : tensor<4x8xf32> to tensor<4x8xbf16>
// CHECK-DAG: %[[W:.*]] = tcc.cast %arg1 : tensor<16x8xf32> to tensor<16x8xbf16>
// CHECK-DAG: %[[B:.*]] = tcc.cast %arg2 : tensor<16xf32> to tensor<16xbf16>
// CHECK: %[[Y:.*]] = tcc.linear %[[X]], %[[W]], %[[B]] : (tensor<4x8xbf16>, tensor<16x8xbf16>, tensor<16xbf16>) -> tensor<4x16xbf16>
// CHECK: %[[F:.*]] = tcc.cast %[[Y]] : tensor<4x16xbf16> to tensor<4x16xf32>
// CHECK: tcc.softmax %[[F]] {{.*}} : tensor<4x16xf32>
// FP16-LABEL: func.func @linear_softmax
// FP16: tcc.linear {{.*}} -> tensor<4x16xf16>
func.func @linear_softmax(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %y = tcc.linear %x, %w, %b : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %s = tcc.softmax %y {dim = 1 : i64} : tensor<4x16xf32>
  return %s : tensor<4x16xf32>
}

// -----

// Tests that matmuls and convolutions are cast too, and that ops already
// in another precision are left alone.
// CHECK-LABEL: func.func @matmul_conv
// CHECK: tcc.matmul {{.*}} : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
// CHECK: tcc.conv2d {{.*}} : (tensor<1x3x8x8xbf16>, tensor<4x3x3x3xbf16>) -> tensor<1x4x6x6xbf16>
// CHECK: tcc.matmul {{.*}} : (tensor<2x3xf16>, tensor<3x4xf16>) -> tensor<2x4xf16>
// CHECK-NOT: tcc.cast {{.*}}xf16> to
func.func @matmul_conv(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %h: tensor<2x3xf16>, %g: tensor<3x4xf16>) -> (tensor<2x4xf32>, tensor<1x4x6x6xf32>, tensor<2x4xf16>) {
  %m = tcc.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %c = tcc.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %n = tcc.matmul %h, %g : (tensor<2x3xf16>, tensor<3x4xf16>) -> tensor<2x4xf16>
  return %m, %c, %n : tensor<2x4xf32>, tensor<1x4x6x6xf32>, tensor<2x4xf16>
}

// BAD: error: unknown precision 'fp8' (precisions: bf16, fp16)
