// RUN: tcc-opt --split-input-file %s | FileCheck %s
// Round trip: print -> parse -> print is identical, in the generic form too.
// RUN: tcc-opt --split-input-file %s | tcc-opt --split-input-file | FileCheck %s
// RUN: tcc-opt --split-input-file --mlir-print-op-generic %s | tcc-opt --split-input-file | FileCheck %s

// Tests that constants parse with inline and resource data.
// CHECK-LABEL: func.func @constant
func.func @constant() -> (tensor<2xf32>, tensor<2xf32>) {
  // CHECK: tcc.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %0 = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: tcc.constant dense_resource<w> : tensor<2xf32>
  %1 = tcc.constant dense_resource<w> : tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// Tests elementwise unary and broadcasting binary ops.
// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  // CHECK: tcc.exp %{{.*}} : tensor<4x3xf32>
  %0 = tcc.exp %a : tensor<4x3xf32>
  // CHECK: tcc.add %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %1 = tcc.add %0, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return %1 : tensor<4x3xf32>
}

// -----

// Tests batched matmul and reshape.
// CHECK-LABEL: func.func @matmul_reshape
func.func @matmul_reshape(%a: tensor<2x8x16xf32>, %b: tensor<16x4xf32>) -> tensor<64xf32> {
  // CHECK: tcc.matmul %{{.*}}, %{{.*}} : (tensor<2x8x16xf32>, tensor<16x4xf32>) -> tensor<2x8x4xf32>
  %0 = tcc.matmul %a, %b : (tensor<2x8x16xf32>, tensor<16x4xf32>) -> tensor<2x8x4xf32>
  // CHECK: tcc.reshape %{{.*}} : tensor<2x8x4xf32> to tensor<64xf32>
  %1 = tcc.reshape %0 : tensor<2x8x4xf32> to tensor<64xf32>
  return %1 : tensor<64xf32>
}
