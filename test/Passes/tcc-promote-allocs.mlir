// RUN: tcc-opt --split-input-file --tcc-promote-allocs --verify-diagnostics %s | FileCheck %s

// Tests that a static allocation becomes a trailing argument with its size.
// CHECK-LABEL: func.func @scratch
// CHECK-SAME: (%{{.*}}: memref<4xf32>, %[[T:.*]]: memref<2x4xi64>)
// CHECK-SAME: tcc.scratch_bytes = array<i64: 64>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: memref.store %{{.*}}, %[[T]]
func.func @scratch(%out: memref<4xf32>) {
  %t = memref.alloc() : memref<2x4xi64>
  %c0 = arith.constant 0 : index
  %v = arith.constant 7 : i64
  memref.store %v, %t[%c0, %c0] : memref<2x4xi64>
  memref.dealloc %t : memref<2x4xi64>
  return
}

// -----

// Tests that a function without allocations is left alone.
// CHECK-LABEL: func.func @none
// CHECK-SAME: (%{{.*}}: memref<4xf32>)
// CHECK-NOT: tcc.scratch_bytes
func.func @none(%out: memref<4xf32>) {
  return
}

// -----

// Tests that a dynamic allocation is rejected.
func.func @dynamic(%n: index) {
  // expected-error @+1 {{kernel allocates a buffer of dynamic shape or layout}}
  %t = memref.alloc(%n) : memref<?xf32>
  return
}
