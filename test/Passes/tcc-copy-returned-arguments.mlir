// RUN: tcc-opt --split-input-file --tcc-copy-returned-arguments %s | FileCheck %s

// Tests that a returned argument is copied into a tensor of its own.
// CHECK-LABEL: func.func @returns_argument
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[C:.*]] = linalg.copy ins(%[[X]] : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK: return %[[C]]
func.func @returns_argument(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Tests that a value returned twice keeps its first use and copies the second.
// CHECK-LABEL: func.func @returns_twice
// CHECK: %[[V:.*]] = linalg.fill
// CHECK: %[[C:.*]] = linalg.copy ins(%[[V]] : tensor<4xf32>)
// CHECK: return %[[V]], %[[C]]
func.func @returns_twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %v = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %v, %v : tensor<4xf32>, tensor<4xf32>
}

// -----

// Tests that the pass must not fire on a computed value returned once.
// CHECK-LABEL: func.func @computed
// CHECK-NOT: linalg.copy
// CHECK: return
func.func @computed(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %v = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %v : tensor<4xf32>
}
