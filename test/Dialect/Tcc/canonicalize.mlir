// RUN: tcc-opt --split-input-file --canonicalize %s | FileCheck %s

// Tests that x + 0 folds to x.
// CHECK-LABEL: func.func @add_zero
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @add_zero(%x: tensor<3xf32>) -> tensor<3xf32> {
  %zero = tcc.constant dense<0.0> : tensor<3xf32>
  %0 = tcc.add %x, %zero : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Tests that x + 0 does not fold when x would be broadcast.
// CHECK-LABEL: func.func @add_zero_broadcast
// CHECK: tcc.add
func.func @add_zero_broadcast(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %zero = tcc.constant dense<0.0> : tensor<2x3xf32>
  %0 = tcc.add %x, %zero : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Tests that reshape of reshape becomes one reshape.
// CHECK-LABEL: func.func @reshape_reshape
// CHECK-NEXT: %[[R:.*]] = tcc.reshape %{{.*}} : tensor<2x3xf32> to tensor<3x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_reshape(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = tcc.reshape %x : tensor<2x3xf32> to tensor<6xf32>
  %1 = tcc.reshape %0 : tensor<6xf32> to tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}
