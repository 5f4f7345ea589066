// RUN: tcc-opt --split-input-file --tcc-fuse-elementwise %s | FileCheck %s

// Tests that a pointwise chain with a broadcast operand becomes one fusion,
// with the splat constant copied inside rather than passed in.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<8xf32>)
// CHECK: %[[F:.*]] = tcc.fusion(%[[X]], %[[Y]]) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>):
// CHECK-NEXT: %[[ONE:.*]] = tcc.constant dense<1.000000e+00>
// CHECK-NEXT: %[[M:.*]] = tcc.mul %[[A]], %[[B]]
// CHECK-NEXT: %[[S:.*]] = tcc.sigmoid %[[M]]
// CHECK-NEXT: %[[R:.*]] = tcc.add %[[S]], %[[ONE]]
// CHECK-NEXT: tcc.yield %[[R]]
// CHECK: return %[[F]]
func.func @chain(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> tensor<4x8xf32> {
  %one = tcc.constant dense<1.0> : tensor<4x8xf32>
  %0 = tcc.mul %x, %y : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = tcc.sigmoid %0 : tensor<4x8xf32>
  %2 = tcc.add %1, %one : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// Tests that a producer used outside the group is not fused (its value must
// reach memory anyway), while the rest of the chain is.
// CHECK-LABEL: func.func @shared_producer
// CHECK: %[[E:.*]] = tcc.exp
// CHECK: %[[F:.*]] = tcc.fusion(%[[E]])
// CHECK: tcc.neg
// CHECK: tcc.abs
// CHECK: return %[[E]], %[[F]]
func.func @shared_producer(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = tcc.exp %x : tensor<8xf32>
  %1 = tcc.neg %0 : tensor<8xf32>
  %2 = tcc.abs %1 : tensor<8xf32>
  return %0, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Tests that non-pointwise ops (a reduction, a matmul) are not fused and
// split the chain.
// CHECK-LABEL: func.func @barriers
// CHECK: tcc.matmul
// CHECK-NOT: tcc.fusion
// CHECK: tcc.relu
// CHECK-NOT: tcc.fusion
// CHECK: tcc.reduce_sum
// CHECK: return
func.func @barriers(%a: tensor<4x4xf32>) -> tensor<4xf32> {
  %0 = tcc.matmul %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = tcc.relu %0 : tensor<4x4xf32>
  %2 = tcc.reduce_sum %1 {dims = array<i64: 1>} : tensor<4x4xf32> -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Tests that a lone pointwise op stays as it is.
// CHECK-LABEL: func.func @single
// CHECK-NOT: tcc.fusion
// CHECK: tcc.exp
func.func @single(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tcc.exp %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Tests that two independent chains become two fusions, and a compare and
// select join the chain that consumes them.
// CHECK-LABEL: func.func @two_chains
// CHECK-COUNT-2: tcc.fusion
// CHECK-NOT: tcc.fusion
func.func @two_chains(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = tcc.exp %x : tensor<8xf32>
  %1 = tcc.neg %0 : tensor<8xf32>
  %c = tcc.gt %y, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %2 = tcc.select %c, %y, %x : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %3 = tcc.abs %2 : tensor<8xf32>
  return %1, %3 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Tests that a softmax takes its pointwise prologue (the attention scale)
// and epilogue into one group.
// CHECK-LABEL: func.func @softmax_prologue_epilogue
// CHECK: %[[F:.*]] = tcc.fusion
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tcc.constant
// CHECK-NEXT: tcc.mul
// CHECK-NEXT: tcc.softmax
// CHECK-NEXT: tcc.relu
// CHECK-NEXT: tcc.yield
// CHECK: return %[[F]]
func.func @softmax_prologue_epilogue(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = tcc.constant dense<0.125> : tensor<f32>
  %0 = tcc.mul %x, %c : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %1 = tcc.softmax %0 {dim = 1 : i64} : tensor<4x8xf32>
  %2 = tcc.relu %1 : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// Tests that a residual add fuses into the layer norm after it, and that
// two normalizations never share a group.
// CHECK-LABEL: func.func @add_layer_norm_then_softmax
// CHECK: %[[LN:.*]] = tcc.fusion
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tcc.add
// CHECK-NEXT: tcc.layer_norm
// CHECK-NEXT: tcc.yield
// CHECK: %[[S:.*]] = tcc.log_softmax %[[LN]]
// CHECK: return %[[S]]
func.func @add_layer_norm_then_softmax(%x: tensor<4x8xf32>, %r: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = tcc.add %x, %r : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tcc.layer_norm %0 weight %w {normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %2 = tcc.log_softmax %1 {dim = 1 : i64} : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// Tests that a normalization whose input has another user takes no
// prologue.
// CHECK-LABEL: func.func @prologue_used_elsewhere
// CHECK: %[[E:.*]] = tcc.exp
// CHECK-NEXT: %[[S:.*]] = tcc.softmax %[[E]]
// CHECK-NOT: tcc.fusion
// CHECK: return %[[E]], %[[S]]
func.func @prologue_used_elsewhere(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = tcc.exp %x : tensor<4x8xf32>
  %1 = tcc.softmax %0 {dim = 1 : i64} : tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}
