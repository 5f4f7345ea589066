// RUN: tcc-opt --split-input-file --tcc-tile-kernels %s | FileCheck %s

// Tests that a row-parallel loop takes the tile range in dim 0.
// CHECK-LABEL: func.func @rows
// CHECK-SAME: %[[B:[a-z0-9]+]]: index, %[[E:[a-z0-9]+]]: index)
// CHECK-SAME: tcc.tiles = 8 : i64
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%[[B]], %{{.*}}) to (%[[E]], %{{.*}})
func.func @rows(%a: memref<8x4xf32>, %o: memref<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c4) step (%c1, %c1) {
    %v = memref.load %a[%j, %i] : memref<8x4xf32>
    memref.store %v, %o[%i, %j] : memref<8x4xf32>
  }
  return
}

// -----

// Tests that a write indexed by the tile variable in another dim than 0
// still tiles: tile i writes column i of the output only.
// CHECK-LABEL: func.func @transposed_write
// CHECK-SAME: tcc.tiles = 4 : i64
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%arg2, %c0) to (%arg3, %c4)
func.func @transposed_write(%a: memref<4x4xf32>, %o: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<4x4xf32>
    memref.store %v, %o[%j, %i] : memref<4x4xf32>
  }
  return
}

// -----

// Tests that a batch-1 NCHW -> NHWC transpose tiles along H (dim 1 of the
// output), not along the unit batch dim.
// CHECK-LABEL: func.func @nhwc_transpose
// CHECK-SAME: tcc.tiles = 8 : i64
func.func @nhwc_transpose(%a: memref<1x3x8x8xf32>, %o: memref<1x8x8x3xf32>) {
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

// Tests that a write whose indices do not contain the tile variable (every
// tile writes the same element) keeps the kernel whole.
// CHECK-LABEL: func.func @shared_write
// CHECK-SAME: tcc.tiles = 1 : i64
func.func @shared_write(%a: memref<4x4xf32>, %o: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<4x4xf32>
    memref.store %v, %o[%j] : memref<4xf32>
  }
  return
}

// -----

// Tests that a buffer written in dim 0 by one loop and read in dim 1 by
// another keeps the kernel whole: tile i of the second loop reads what
// every tile of the first wrote.
// CHECK-LABEL: func.func @dims_differ
// CHECK-SAME: tcc.tiles = 1 : i64
func.func @dims_differ(%a: memref<4x4xf32>, %t: memref<4x4xf32>, %o: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<4x4xf32>
    memref.store %v, %t[%i, %j] : memref<4x4xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %v = memref.load %t[%j, %i] : memref<4x4xf32>
    memref.store %v, %o[%i, %j] : memref<4x4xf32>
  }
  return
}

// -----

// Tests that buffers accessed through one collapse_shape view (a collapsed
// pointwise loop) tile along the view's dim.
// CHECK-LABEL: func.func @collapsed
// CHECK-SAME: tcc.tiles = 96 : i64
// CHECK: scf.parallel (%{{.*}}) = (%arg2) to (%arg3)
func.func @collapsed(%a: memref<1x6x4x4xf32>, %o: memref<1x6x4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c96 = arith.constant 96 : index
  %av = memref.collapse_shape %a [[0, 1, 2, 3]] : memref<1x6x4x4xf32> into memref<96xf32>
  %ov = memref.collapse_shape %o [[0, 1, 2, 3]] : memref<1x6x4x4xf32> into memref<96xf32>
  scf.parallel (%i) = (%c0) to (%c96) step (%c1) {
    %v = memref.load %av[%i] : memref<96xf32>
    memref.store %v, %ov[%i] : memref<96xf32>
  }
  return
}

// -----

// Tests that a written buffer accessed through two different views keeps
// the kernel whole (slices of one view's dim are not those of another's).
// CHECK-LABEL: func.func @two_views
// CHECK-SAME: tcc.tiles = 1 : i64
func.func @two_views(%a: memref<4x4xf32>, %o: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ov = memref.collapse_shape %o [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<4x4xf32>
    memref.store %v, %o[%i, %j] : memref<4x4xf32>
    memref.store %v, %ov[%i] : memref<16xf32>
  }
  return
}

// -----

// Tests that loops with different first bounds keep the kernel whole.
// CHECK-LABEL: func.func @mixed_bounds
// CHECK-SAME: tcc.tiles = 1 : i64
func.func @mixed_bounds(%o: memref<4xf32>, %p: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %f, %o[%i] : memref<4xf32>
  }
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    memref.store %f, %p[%i] : memref<2xf32>
  }
  return
}

// -----

// Tests that a sequential top-level loop (a full reduction) keeps the kernel whole.
// CHECK-LABEL: func.func @reduction
// CHECK-SAME: tcc.tiles = 1 : i64
func.func @reduction(%a: memref<4xf32>, %o: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<4xf32>
    %s = memref.load %o[] : memref<f32>
    %t = arith.addf %s, %v : f32
    memref.store %t, %o[] : memref<f32>
  }
  return
}
