// RUN: tcc-opt --split-input-file --tcc-map-to-gpu %s | FileCheck %s

// Tests that a 2-D loop of 528 iterations collapses to one dimension, tiled
// by blocks of 256 threads (block_x) of one iteration each (thread_x),
// guarded by the bound, with the constant it uses cloned inside (66 is no
// multiple of 4: no vector accesses).
// CHECK-LABEL: func.func @elementwise
// CHECK: scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%[[N:.*]]) step (%[[STEP:.*]]) {
// CHECK-NEXT: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[STEP]]) step
// CHECK: %[[I:.*]] = arith.addi %[[T]], %[[B]]
// CHECK: arith.cmpi ult, %{{.*}}, %[[N]]
// CHECK: scf.if
// CHECK-DAG: arith.remsi %[[I]], %c66
// CHECK-DAG: arith.divsi %[[I]], %c66
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NOT: vector.
// CHECK: arith.addf %{{.*}}, %[[ONE]]
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x
func.func @elementwise(%a: memref<8x66xf32>, %o: memref<8x66xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c66 = arith.constant 66 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c66) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<8x66xf32>
    %y = arith.addf %x, %one : f32
    memref.store %y, %o[%i, %j] : memref<8x66xf32>
  }
  return
}

// -----

// Tests that work outside a parallel loop (a full reduction) becomes one
// thread of one block, its loop and store inside.
// CHECK-LABEL: func.func @total
// CHECK: scf.parallel
// CHECK-NEXT: scf.parallel
// CHECK: scf.for
// CHECK: memref.store
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK-NEXT: return
func.func @total(%a: memref<16xf32>, %o: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %x = memref.load %a[%i] : memref<16xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  memref.store %sum, %o[] : memref<f32>
  return
}

// -----

// Tests that a view of an argument is made inside the loop, so that the
// kernel's parameters are the arguments themselves.
// CHECK-LABEL: func.func @view
// CHECK: scf.parallel
// CHECK-NEXT: scf.parallel
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %arg0
// CHECK-NEXT: memref.load %[[FLAT]]
func.func @view(%a: memref<2x3xf32>, %o: memref<6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %flat = memref.collapse_shape %a [[0, 1]] : memref<2x3xf32> into memref<6xf32>
  scf.parallel (%i) = (%c0) to (%c6) step (%c1) {
    %x = memref.load %flat[%i] : memref<6xf32>
    memref.store %x, %o[%i] : memref<6xf32>
  }
  return
}

// -----

// Tests that a parallel loop under a sequential one inside a thread's work
// (a reduction over the middle dim, its kept last dim innermost) becomes
// sequential loops in the thread.
// CHECK-LABEL: func.func @nested
// CHECK: scf.parallel
// CHECK-NEXT: scf.parallel
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK-NOT: scf.parallel
// CHECK: arith.maximumf
func.func @nested(%x: memref<4x8x32xf32>, %m: memref<4x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.for %r = %c0 to %c8 step %c1 {
      scf.parallel (%j) = (%c0) to (%c32) step (%c1) {
        %v = memref.load %x[%i, %r, %j] : memref<4x8x32xf32>
        %a = memref.load %m[%i, %j] : memref<4x32xf32>
        %y = arith.maximumf %a, %v : f32
        memref.store %y, %m[%i, %j] : memref<4x32xf32>
      }
    }
  }
  return
}

// -----

// Tests that a row reduction of 300 elements becomes a block of 256 threads
// per row: each thread's partial sum over elements t, t + 256, ... in an
// scf.for from the neutral element, the elementwise store of each element
// (softmax's exp) kept in it, a uniform gpu.all_reduce of the partials, and
// thread 0 adding the total to the row's accumulator.
// CHECK-LABEL: func.func @row_sum
// CHECK: scf.parallel (%[[ROW:.*]]) = (%{{.*}}) to (%c4) step (%c1)
// CHECK: scf.parallel (%[[T:.*]]) = (%[[ZERO:.*]]) to (%[[C256:.*]]) step
// CHECK: %[[NEUTRAL:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PARTIAL:.*]] = scf.for %[[K:.*]] = %[[T]] to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[NEUTRAL]]) -> (f32)
// CHECK: %[[X:.*]] = memref.load %arg0[%[[ROW]], %{{.*}}]
// CHECK: %[[E:.*]] = math.exp %[[X]]
// CHECK: memref.store %[[E]], %arg1[%[[ROW]], %{{.*}}]
// CHECK: %[[NEXT:.*]] = arith.addf %[[ACC]], %[[E]] fastmath<reassoc>
// CHECK: scf.yield %[[NEXT]]
// CHECK: %[[TOTAL:.*]] = gpu.all_reduce add %[[PARTIAL]] uniform
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[T]], %[[ZERO]]
// CHECK: scf.if %[[FIRST]]
// CHECK-NEXT: %[[OLD:.*]] = memref.load %arg2[%[[ROW]]]
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]], %[[TOTAL]] fastmath<reassoc>
// CHECK-NEXT: memref.store %[[NEW]], %arg2[%[[ROW]]]
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x
func.func @row_sum(%x: memref<4x300xf32>, %e: memref<4x300xf32>, %s: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c300 = arith.constant 300 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.for %k = %c0 to %c300 step %c1 {
      %v = memref.load %x[%i, %k] : memref<4x300xf32>
      %a = memref.load %s[%i] : memref<4xf32>
      %ev = math.exp %v : f32
      %y = arith.addf %a, %ev fastmath<reassoc> : f32
      memref.store %ev, %e[%i, %k] : memref<4x300xf32>
      memref.store %y, %s[%i] : memref<4xf32>
    }
  }
  return
}

// -----

// Tests that a full reduction (a nest of three loops outside any parallel
// loop, after the store of its initial value) becomes one block of 256
// threads over the 1024 elements, each element's indices recovered from
// its linear index, the maximum taken from -inf, and the initial value
// stored by thread 0 just before it folds the total in.
// CHECK-LABEL: func.func @total_max
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[C256:.*]]) step
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[END:.*]] = arith.constant 1024 : index
// CHECK: %[[PARTIAL:.*]] = scf.for %[[K:.*]] = %[[T]] to %[[END]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[NEG]])
// CHECK-DAG: arith.divui %[[K]], %c256
// CHECK-DAG: arith.divui %[[K]], %c32
// CHECK-DAG: arith.remui %{{.*}}, %c8
// CHECK-DAG: arith.remui %[[K]], %c32
// CHECK: arith.maximumf %[[ACC]]
// CHECK: %[[TOTAL:.*]] = gpu.all_reduce maximumf %[[PARTIAL]] uniform
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %arg1[]
// CHECK-NEXT: %[[OLD:.*]] = memref.load %arg1[]
// CHECK-NEXT: arith.maximumf %[[OLD]], %[[TOTAL]]
// CHECK-NEXT: memref.store
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK-NEXT: return
func.func @total_max(%a: memref<4x8x32xf32>, %o: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %neg = arith.constant 0xFF800000 : f32
  memref.store %neg, %o[] : memref<f32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      scf.for %k = %c0 to %c32 step %c1 {
        %x = memref.load %a[%i, %j, %k] : memref<4x8x32xf32>
        %m = memref.load %o[] : memref<f32>
        %y = arith.maximumf %m, %x : f32
        memref.store %y, %o[] : memref<f32>
      }
    }
  }
  return
}

// -----

// Tests that a reduction of two accumulators (an argmax's value and index)
// is not a row reduction: it stays one thread per row.
// CHECK-LABEL: func.func @two_accumulators
// CHECK-NOT: gpu.all_reduce
// CHECK: scf.for
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x
func.func @two_accumulators(%x: memref<4x64xf32>, %m: memref<4xf32>, %n: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.for %k = %c0 to %c64 step %c1 {
      %v = memref.load %x[%i, %k] : memref<4x64xf32>
      %a = memref.load %m[%i] : memref<4xf32>
      %b = memref.load %n[%i] : memref<4xi32>
      %gt = arith.cmpf ogt, %v, %a : f32
      %y = arith.maximumf %a, %v : f32
      %ki = arith.index_cast %k : index to i32
      %j = arith.select %gt, %ki, %b : i32
      memref.store %y, %m[%i] : memref<4xf32>
      memref.store %j, %n[%i] : memref<4xi32>
    }
  }
  return
}

// -----

// Tests that a loop whose accesses walk the innermost dim (a multiple of 4)
// or do not depend on it covers 4 elements of it per thread: 512 / 4 = 128
// threads; one vector load of x and of the bias along the innermost dim,
// one scalar load of the per-row scale, four copies of the body, one vector
// store.
// CHECK-LABEL: func.func @vectorized
// CHECK: scf.parallel
// CHECK-NEXT: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[STEP:.*]]) step
// CHECK: %[[Q:.*]] = arith.remsi %{{.*}}, %c16
// CHECK: %[[ROW:.*]] = arith.divsi %{{.*}}, %c16
// CHECK: %[[COL:.*]] = arith.muli %[[Q]], %c4
// CHECK: %[[X:.*]] = vector.load %arg0[%[[ROW]], %[[COL]]] : memref<8x64xf32>, vector<4xf32>
// CHECK-COUNT-4: vector.extract %[[X]]
// CHECK: %[[BIAS:.*]] = vector.load %arg1[%[[COL]]] : memref<64xf32>, vector<4xf32>
// CHECK: %[[S:.*]] = memref.load %arg2[%[[ROW]]] : memref<8xf32>
// CHECK-COUNT-4: arith.addf
// CHECK-COUNT-4: arith.mulf %{{.*}}, %[[S]]
// CHECK: %[[Y:.*]] = vector.from_elements
// CHECK: vector.store %[[Y]], %arg3[%[[ROW]], %[[COL]]] : memref<8x64xf32>, vector<4xf32>
// CHECK-NOT: memref.store
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x
func.func @vectorized(%x: memref<8x64xf32>, %b: memref<64xf32>, %s: memref<8xf32>, %o: memref<8x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c64) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<8x64xf32>
    %w = memref.load %b[%j] : memref<64xf32>
    %k = memref.load %s[%i] : memref<8xf32>
    %a = arith.addf %v, %w : f32
    %y = arith.mulf %a, %k : f32
    memref.store %y, %o[%i, %j] : memref<8x64xf32>
  }
  return
}

// -----

// Tests that 16-bit elements (--precision's bf16) walk the innermost dim
// four at a time too, here beside f32 ones (an autocast cast): vector<4xf32>
// loads, vector<4xbf16> stores; 8-bit ones (i8) keep one element per
// thread.
// CHECK-LABEL: func.func @vectorized_bf16
// CHECK: %[[X:.*]] = vector.load %arg0[%{{.*}}, %{{.*}}] : memref<8x64xf32>, vector<4xf32>
// CHECK-COUNT-4: arith.truncf %{{.*}} : f32 to bf16
// CHECK: vector.store %{{.*}}, %arg1[%{{.*}}, %{{.*}}] : memref<8x64xbf16>, vector<4xbf16>
// CHECK-NOT: memref.store
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK-LABEL: func.func @scalar_i8
// CHECK-NOT: vector.
// CHECK: memref.load %arg0
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x
func.func @vectorized_bf16(%x: memref<8x64xf32>, %o: memref<8x64xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c64) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<8x64xf32>
    %h = arith.truncf %v : f32 to bf16
    memref.store %h, %o[%i, %j] : memref<8x64xbf16>
  }
  return
}

func.func @scalar_i8(%x: memref<8x64xi8>, %o: memref<8x64xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c64) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<8x64xi8>
    memref.store %v, %o[%i, %j] : memref<8x64xi8>
  }
  return
}

// -----

// Tests that an access across the innermost dim (a transpose's read) keeps
// one element per thread.
// CHECK-LABEL: func.func @transposed
// CHECK-NOT: vector.
// CHECK: memref.load %arg0
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x
func.func @transposed(%x: memref<64x8xf32>, %o: memref<8x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c64) step (%c1, %c1) {
    %v = memref.load %x[%j, %i] : memref<64x8xf32>
    memref.store %v, %o[%i, %j] : memref<8x64xf32>
  }
  return
}
