// RUN: tcc-opt --split-input-file --tcc-fold-constants %s | FileCheck %s

// Tests that a transpose of a weight blob becomes a new blob named after the
// weight, holding the transposed bytes ([[1,2,3],[4,5,6]]^T), and that the
// old weight, now unused, is gone.
// CHECK-LABEL: func.func @transpose_of_weight
// CHECK-NEXT: %[[W:.*]] = tcc.constant dense_resource<fc.weight.transpose> : tensor<3x2xf32>
// CHECK-NEXT: %[[Y:.*]] = tcc.matmul %{{.*}}, %[[W]]
// CHECK-NEXT: return %[[Y]]
// CHECK-NOT: fc.weight:
// CHECK: fc.weight.transpose: "0x400000000000803F00008040000000400000A040000040400000C040"
func.func @transpose_of_weight(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %w = tcc.constant dense_resource<fc.weight> : tensor<2x3xf32>
  %t = tcc.transpose %w {permutation = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  %y = tcc.matmul %x, %t : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      fc.weight: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}

// -----

// Tests that a chain of broadcasting arithmetic on non-splat constants
// folds to one constant: (a + b) * a with a = [[1,2,3],[4,5,6]] and
// b = [10,20,30] is [[11,44,99],[56,125,216]].
// CHECK-LABEL: func.func @arithmetic_with_broadcast
// CHECK-NEXT: %[[C:.*]] = tcc.constant dense_resource<folded.mul> : tensor<2x3xf32>
// CHECK-NEXT: return %[[C]]
// CHECK: folded.mul: "0x4000000000003041000030420000C642000060420000FA4200005843"
func.func @arithmetic_with_broadcast() -> tensor<2x3xf32> {
  %a = tcc.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = tcc.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %s = tcc.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %m = tcc.mul %s, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %m : tensor<2x3xf32>
}

// -----

// Tests that x * 0 is evaluated exactly: [1, 2, 3] * 0 is the splat +0.0,
// while [0.5, -2] * 0 keeps the sign of zero ([+0.0, -0.0]) and is no splat.
// CHECK-LABEL: func.func @times_zero
// CHECK-DAG: %[[S:.*]] = tcc.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-DAG: %[[N:.*]] = tcc.constant dense_resource<folded.mul> : tensor<2xf32>
// CHECK: return %[[S]], %[[N]]
// CHECK: folded.mul: "0x400000000000000000000080"
func.func @times_zero() -> (tensor<3xf32>, tensor<2xf32>) {
  %a = tcc.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = tcc.constant dense<[0.5, -2.0]> : tensor<2xf32>
  %z3 = tcc.constant dense<0.0> : tensor<3xf32>
  %z2 = tcc.constant dense<0.0> : tensor<2xf32>
  %0 = tcc.mul %a, %z3 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = tcc.mul %b, %z2 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<3xf32>, tensor<2xf32>
}

// -----

// Tests that data movement on integer constants folds: slice, concat, pad
// (with a fill value), broadcast_to, and a 3-D transpose of an i64 blob.
// CHECK-LABEL: func.func @data_movement
// CHECK-DAG: %[[SL:.*]] = tcc.constant dense_resource<folded.slice> : tensor<2x2xi32>
// CHECK-DAG: %[[CC:.*]] = tcc.constant dense_resource<folded.concat> : tensor<2x5xi32>
// CHECK-DAG: %[[PD:.*]] = tcc.constant dense_resource<folded.pad> : tensor<3x3xi32>
// CHECK-DAG: %[[BC:.*]] = tcc.constant dense_resource<folded.broadcast_to> : tensor<2x3xi32>
// CHECK-DAG: %[[T3:.*]] = tcc.constant dense_resource<ids.transpose> : tensor<4x2x3xi64>
// CHECK: return %[[SL]], %[[CC]], %[[PD]], %[[BC]], %[[T3]]
// CHECK-DAG: folded.slice: "0x4000000002000000030000000500000006000000"
// CHECK-DAG: folded.concat: "0x4000000001000000020000000300000002000000030000000400000005000000060000000500000006000000"
// CHECK-DAG: folded.pad: "0x40000000070000000200000003000000070000000500000006000000070000000700000007000000"
// CHECK-DAG: folded.broadcast_to: "0x40000000010000000100000001000000020000000200000002000000"
// CHECK-DAG: ids.transpose: "0x400000000000000000000000040000000000000008000000000000000C00000000000000100000000000000014000000000000000100000000000000050000000000000009000000000000000D0000000000000011000000000000001500000000000000020000000000000006000000000000000A000000000000000E0000000000000012000000000000001600000000000000030000000000000007000000000000000B000000000000000F0000000000000013000000000000001700000000000000"
func.func @data_movement() -> (tensor<2x2xi32>, tensor<2x5xi32>, tensor<3x3xi32>, tensor<2x3xi32>, tensor<4x2x3xi64>) {
  %x = tcc.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %s = tcc.slice %x {start = array<i64: 0, 1>, end = array<i64: 2, 3>, step = array<i64: 1, 1>} : tensor<2x3xi32> -> tensor<2x2xi32>
  %c = tcc.concat %x, %s {dim = -1 : i64} : (tensor<2x3xi32>, tensor<2x2xi32>) -> tensor<2x5xi32>
  %p = tcc.pad %s {pad = array<i64: 1, 0, 0, 1>, value = 7.0 : f64} : tensor<2x2xi32> -> tensor<3x3xi32>
  %v = tcc.constant dense<[[1], [2]]> : tensor<2x1xi32>
  %b = tcc.broadcast_to %v : tensor<2x1xi32> to tensor<2x3xi32>
  %ids = tcc.constant dense_resource<ids> : tensor<2x3x4xi64>
  %t = tcc.transpose %ids {permutation = array<i64: 2, 0, 1>} : tensor<2x3x4xi64> -> tensor<4x2x3xi64>
  return %s, %c, %p, %b, %t : tensor<2x2xi32>, tensor<2x5xi32>, tensor<3x3xi32>, tensor<2x3xi32>, tensor<4x2x3xi64>
}
{-#
  dialect_resources: {
    builtin: {
      ids: "0x0800000000000000000000000100000000000000020000000000000003000000000000000400000000000000050000000000000006000000000000000700000000000000080000000000000009000000000000000A000000000000000B000000000000000C000000000000000D000000000000000E000000000000000F0000000000000010000000000000001100000000000000120000000000000013000000000000001400000000000000150000000000000016000000000000001700000000000000"
    }
  }
#-}

// -----

// Tests that casts and comparisons fold: f32 to i32 truncates toward zero,
// and a comparison gives an i1 constant (one byte per element).
// CHECK-LABEL: func.func @cast_and_compare
// CHECK-DAG: %[[I:.*]] = tcc.constant dense_resource<folded.cast> : tensor<3xi32>
// CHECK-DAG: %[[B:.*]] = tcc.constant dense_resource<folded.gt> : tensor<3xi1>
// CHECK: return %[[I]], %[[B]]
// CHECK-DAG: folded.cast: "0x40000000FFFFFFFF0200000003000000"
// CHECK-DAG: folded.gt: "0x40000000000101"
func.func @cast_and_compare() -> (tensor<3xi32>, tensor<3xi1>) {
  %x = tcc.constant dense<[-1.5, 2.7, 3.0]> : tensor<3xf32>
  %i = tcc.cast %x : tensor<3xf32> to tensor<3xi32>
  %one = tcc.constant dense<1.0> : tensor<3xf32>
  %b = tcc.gt %x, %one : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  return %i, %b : tensor<3xi32>, tensor<3xi1>
}

// -----

// Tests the size guard: a scalar or a small vector broadcast to a big tensor
// stays an op; a broadcast within the allowance (4 KiB) folds.
// CHECK-LABEL: func.func @size_guard
// CHECK: %[[BIG1:.*]] = tcc.broadcast_to %{{.*}} : tensor<1xf32> to tensor<1024x1024xf32>
// CHECK: %[[BIG2:.*]] = tcc.broadcast_to %{{.*}} : tensor<4xf32> to tensor<2048x4xf32>
// CHECK-NOT: tcc.broadcast_to
// CHECK: return %[[BIG1]], %[[BIG2]], %{{.*}}
func.func @size_guard() -> (tensor<1024x1024xf32>, tensor<2048x4xf32>, tensor<8x4xf32>) {
  %s = tcc.constant dense<1.0> : tensor<1xf32>
  %v = tcc.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = tcc.broadcast_to %s : tensor<1xf32> to tensor<1024x1024xf32>
  %1 = tcc.broadcast_to %v : tensor<4xf32> to tensor<2048x4xf32>
  %2 = tcc.broadcast_to %v : tensor<4xf32> to tensor<8x4xf32>
  return %0, %1, %2 : tensor<1024x1024xf32>, tensor<2048x4xf32>, tensor<8x4xf32>
}

// -----

// Tests that values without an exact result stay ops: 3e9 does not fit i32,
// and integer floor division by zero has no value.
// CHECK-LABEL: func.func @no_exact_result
// CHECK: tcc.cast
// CHECK: tcc.floor_divide
func.func @no_exact_result() -> (tensor<2xi32>, tensor<2xi32>) {
  %x = tcc.constant dense<[1.0, 3.0e9]> : tensor<2xf32>
  %i = tcc.cast %x : tensor<2xf32> to tensor<2xi32>
  %a = tcc.constant dense<[7, 8]> : tensor<2xi32>
  %b = tcc.constant dense<[2, 0]> : tensor<2xi32>
  %d = tcc.floor_divide %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %i, %d : tensor<2xi32>, tensor<2xi32>
}

// -----

// Tests that ops with a non-constant operand stay, and that dead ops and
// constants are removed.
// CHECK-LABEL: func.func @not_all_constant
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK-NEXT: %[[C:.*]] = tcc.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]>
// CHECK-NEXT: %[[A:.*]] = tcc.add %[[X]], %[[C]]
// CHECK-NEXT: return %[[A]]
func.func @not_all_constant(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = tcc.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %dead = tcc.exp %c : tensor<3xf32>
  %unused = tcc.relu %x : tensor<3xf32>
  %a = tcc.add %x, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %a : tensor<3xf32>
}
