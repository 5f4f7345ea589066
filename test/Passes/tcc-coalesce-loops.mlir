// RUN: tcc-opt --split-input-file --tcc-coalesce-loops %s | FileCheck %s

// Tests that a pointwise loop over a batch-1 NCHW tensor becomes one loop
// over C*H*W through collapse_shape views of both buffers.
// CHECK-LABEL: func.func @pointwise
// CHECK-DAG: %[[A:.*]] = memref.collapse_shape %arg0 {{\[\[}}0], [1, 2, 3]] : memref<1x8x14x14xf32> into memref<1x1568xf32>
// CHECK-DAG: %[[O:.*]] = memref.collapse_shape %arg1 {{\[\[}}0], [1, 2, 3]] : memref<1x8x14x14xf32> into memref<1x1568xf32>
// CHECK-DAG: %[[N:.*]] = arith.constant 1568 : index
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[N]])
// CHECK: memref.load %[[A]][%{{.*}}, %[[I]]]
// CHECK: memref.store %{{.*}}, %[[O]][%{{.*}}, %[[I]]]
// CHECK-NOT: scf.parallel
func.func @pointwise(%a: memref<1x8x14x14xf32>, %o: memref<1x8x14x14xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c14 = arith.constant 14 : index
  scf.parallel (%c, %h, %w) = (%c0, %c0, %c0) to (%c8, %c14, %c14) step (%c1, %c1, %c1) {
    %y = memref.load %a[%c0, %c, %h, %w] : memref<1x8x14x14xf32>
    %z = arith.negf %y : f32
    memref.store %z, %o[%c0, %c, %h, %w] : memref<1x8x14x14xf32>
  }
  return
}

// -----

// Tests that a per-channel scale (indexed by C alone) keeps C a variable of
// its own and merges H and W only; the scale is read as before.
// CHECK-LABEL: func.func @channel_scale
// CHECK: memref.collapse_shape %arg1 {{\[\[}}0], [1], [2, 3]] : memref<1x8x14x14xf32> into memref<1x8x196xf32>
// CHECK: scf.parallel (%[[C:.*]], %[[HW:.*]]) = {{.*}} to (%{{.*}}, %c196)
// CHECK: memref.load %arg0[%{{.*}}, %[[C]], %{{.*}}, %{{.*}}] : memref<1x8x1x1xf32>
// CHECK: memref.load %{{.*}}[%{{.*}}, %[[C]], %[[HW]]] : memref<1x8x196xf32>
func.func @channel_scale(%s: memref<1x8x1x1xf32>, %a: memref<1x8x14x14xf32>, %o: memref<1x8x14x14xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c14 = arith.constant 14 : index
  scf.parallel (%c, %h, %w) = (%c0, %c0, %c0) to (%c8, %c14, %c14) step (%c1, %c1, %c1) {
    %x = memref.load %s[%c0, %c, %c0, %c0] : memref<1x8x1x1xf32>
    %y = memref.load %a[%c0, %c, %h, %w] : memref<1x8x14x14xf32>
    %z = arith.mulf %x, %y : f32
    memref.store %z, %o[%c0, %c, %h, %w] : memref<1x8x14x14xf32>
  }
  return
}

// -----

// Tests that a broadcast operand no merged variable indexes (an NHWC
// per-channel scale) leaves C innermost and merges H and W.
// CHECK-LABEL: func.func @nhwc_scale
// CHECK: scf.parallel (%[[HW:.*]], %[[C:.*]]) = {{.*}} to (%c196, %c8{{.*}})
// CHECK: memref.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %[[C]]] : memref<1x1x1x8xf32>
// CHECK: memref.load %{{.*}}[%{{.*}}, %[[HW]], %[[C]]] : memref<1x196x8xf32>
func.func @nhwc_scale(%s: memref<1x1x1x8xf32>, %a: memref<1x14x14x8xf32>, %o: memref<1x14x14x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c14 = arith.constant 14 : index
  scf.parallel (%h, %w, %c) = (%c0, %c0, %c0) to (%c14, %c14, %c8) step (%c1, %c1, %c1) {
    %x = memref.load %s[%c0, %c0, %c0, %c] : memref<1x1x1x8xf32>
    %y = memref.load %a[%c0, %h, %w, %c] : memref<1x14x14x8xf32>
    %z = arith.mulf %x, %y : f32
    memref.store %z, %o[%c0, %h, %w, %c] : memref<1x14x14x8xf32>
  }
  return
}

// -----

// Tests that a transpose merges only the dims both buffers keep in order
// (H and W), and the channel dim stays a variable of its own.
// CHECK-LABEL: func.func @transpose
// CHECK-DAG: memref.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : memref<1x3x8x8xf32> into memref<1x3x64xf32>
// CHECK-DAG: memref.collapse_shape %arg1 {{\[\[}}0], [1, 2], [3]] : memref<1x8x8x3xf32> into memref<1x64x3xf32>
// CHECK: scf.parallel (%[[HW:.*]], %[[C:.*]]) = {{.*}} to (%c64, %c3{{.*}})
// CHECK: memref.load %{{.*}}[%{{.*}}, %[[C]], %[[HW]]] : memref<1x3x64xf32>
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %[[HW]], %[[C]]] : memref<1x64x3xf32>
func.func @transpose(%a: memref<1x3x8x8xf32>, %o: memref<1x8x8x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%h, %w, %c) = (%c0, %c0, %c0) to (%c8, %c8, %c3) step (%c1, %c1, %c1) {
    %v = memref.load %a[%c0, %c, %h, %w] : memref<1x3x8x8xf32>
    memref.store %v, %o[%c0, %h, %w, %c] : memref<1x8x8x3xf32>
  }
  return
}

// -----

// Tests that variables indexing the dims in another order than the loop's
// (a 2-D transpose) stay as they are.
// CHECK-LABEL: func.func @transpose_2d
// CHECK-NOT: memref.collapse_shape
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = {{.*}} to (%c8, %c4)
func.func @transpose_2d(%a: memref<4x8xf32>, %o: memref<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c4) step (%c1, %c1) {
    %v = memref.load %a[%j, %i] : memref<4x8xf32>
    memref.store %v, %o[%i, %j] : memref<8x4xf32>
  }
  return
}

// -----

// Tests that a variable used in arithmetic (a strided window) keeps the
// loop as it is.
// CHECK-LABEL: func.func @strided
// CHECK-NOT: memref.collapse_shape
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = {{.*}} to (%c4, %c4)
func.func @strided(%a: memref<8x8xf32>, %o: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %j2 = arith.muli %j, %c2 : index
    %v = memref.load %a[%i, %j2] : memref<8x8xf32>
    memref.store %v, %o[%i, %j] : memref<4x4xf32>
  }
  return
}

// -----

// Tests that a buffer whose trailing dim is longer than the inner loop
// (a slice of each row) keeps the loop as it is.
// CHECK-LABEL: func.func @row_slice
// CHECK-NOT: memref.collapse_shape
func.func @row_slice(%a: memref<4x8xf32>, %o: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<4x8xf32>
    memref.store %v, %o[%i, %j] : memref<4x4xf32>
  }
  return
}

// -----

// Tests that with two top-level loops (a fill, then a loop whose inner
// variables cannot merge) the first variable is never merged, so both
// loops keep the first extent tcc-tile-kernels splits (2 here); the fill's
// inner dims still merge.
// CHECK-LABEL: func.func @two_loops
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = {{.*}} to (%c2{{.*}}, %c16{{.*}})
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = {{.*}} to (%c2, %c4, %c4)
func.func @two_loops(%a: memref<2x8x8xf32>, %o: memref<2x4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%n, %i, %j) = (%c0, %c0, %c0) to (%c2, %c4, %c4) step (%c1, %c1, %c1) {
    memref.store %zero, %o[%n, %i, %j] : memref<2x4x4xf32>
  }
  scf.parallel (%n, %i, %j) = (%c0, %c0, %c0) to (%c2, %c4, %c4) step (%c1, %c1, %c1) {
    %i2 = arith.muli %i, %c2 : index
    %v = memref.load %a[%n, %i2, %j] : memref<2x8x8xf32>
    memref.store %v, %o[%n, %i, %j] : memref<2x4x4xf32>
  }
  return
}

// -----

// Tests a broadcast (ONNX Tile) whose input reads every other variable: no
// two consecutive variables index consecutive dims of both buffers, so the
// loop stays as it is (this once merged the first two, reading the
// induction variables through a dangling range).
// CHECK-LABEL: func.func @interleaved_broadcast
// CHECK-NOT: memref.collapse_shape
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) = {{.*}} to (%c7, %c2, %c6, %c3, %c4, %c5)
func.func @interleaved_broadcast(%a: memref<1x2x1x3x1x5xf32>, %o: memref<7x2x6x3x4x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  scf.parallel (%i, %j, %k, %l, %m, %n) = (%c0, %c0, %c0, %c0, %c0, %c0) to (%c7, %c2, %c6, %c3, %c4, %c5) step (%c1, %c1, %c1, %c1, %c1, %c1) {
    %v = memref.load %a[%c0, %j, %c0, %l, %c0, %n] : memref<1x2x1x3x1x5xf32>
    memref.store %v, %o[%i, %j, %k, %l, %m, %n] : memref<7x2x6x3x4x5xf32>
  }
  return
}
