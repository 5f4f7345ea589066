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

// Tests that a write outside the tile's own row keeps the kernel whole.
// CHECK-LABEL: func.func @transposed_write
// CHECK-SAME: tcc.tiles = 1 : i64
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%c0, %c0) to (%c4, %c4)
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
