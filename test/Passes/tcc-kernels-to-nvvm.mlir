// RUN: tcc-opt --tcc-kernels-to-nvvm %s | FileCheck %s

// Tests that a fused elementwise kernel becomes a host function that only
// launches (constant grid and block, its buffers as the parameters) and one
// NVVM kernel: bare pointers, the block size as launch bound (maxntid),
// thread ids, 16-byte aligned vector loads and stores of 4 floats (32
// threads of 4 of the 128 elements; the bias, along the innermost dim, is
// read as a vector too), exp expanded by tcc (fma, floor intrinsics), no
// calls.
// CHECK-LABEL: func.func @sigmoidish
// CHECK-SAME: (%[[A:.*]]: memref<16x8xf32>, %[[B:.*]]: memref<8xf32>, %[[O:.*]]: memref<16x8xf32>)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: gpu.launch_func @sigmoidish_kernel::@sigmoidish_kernel blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C32]], %[[C1]], %[[C1]]) args(%[[A]] : memref<16x8xf32>, %[[B]] : memref<8xf32>, %[[O]] : memref<16x8xf32>)
// CHECK-NEXT: return
// CHECK: gpu.module @sigmoidish_kernel
// CHECK: llvm.func @sigmoidish_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-SAME: nvvm.kernel
// CHECK-SAME: nvvm.maxntid = array<i32: 32, 1, 1>
// CHECK-NOT: llvm.call
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK: llvm.intr.fma
// CHECK: llvm.intr.floor
// CHECK-NOT: llvm.call
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
// CHECK-NOT: llvm.call
// CHECK: llvm.return
func.func @sigmoidish(%a: tensor<16x8xf32>, %b: tensor<8xf32>) -> tensor<16x8xf32> {
  %0 = tcc.exp %a : tensor<16x8xf32>
  %1 = tcc.add %0, %b : (tensor<16x8xf32>, tensor<8xf32>) -> tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// Tests that a softmax (several loop nests, scratch buffers for its row
// maxima and sums) becomes launches in program order, each on the buffers
// it touches: the initial values a row per thread, the reductions (max,
// then the sum of exp) a block of 256 threads per row, then 1200 elements,
// 4 per thread, in 2 blocks of 256 threads (bounds-checked) for the
// normalization. A
// reduction kernel combines its threads' partial results with warp
// shuffles and a buffer in shared memory (address space 3), between
// barriers.
// CHECK-LABEL: func.func @rows
// CHECK-SAME: (%[[X:.*]]: memref<4x300xf32>, %[[Y:.*]]: memref<4x300xf32>, %[[MAX:.*]]: memref<4xf32>, %[[SUM:.*]]: memref<4xf32>)
// CHECK-SAME: tcc.scratch_bytes = array<i64: 16, 16>
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: gpu.launch_func @rows_kernel::@rows_kernel blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C4]], %[[C1]], %[[C1]]) args(%[[MAX]] : memref<4xf32>)
// CHECK-NEXT: gpu.launch_func @rows_kernel_0::@rows_kernel blocks in (%[[C4]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]]) args(%[[X]] : memref<4x300xf32>, %[[MAX]] : memref<4xf32>)
// CHECK-NEXT: gpu.launch_func @rows_kernel_1::@rows_kernel {{.*}} args(%[[SUM]] : memref<4xf32>)
// CHECK-NEXT: gpu.launch_func @rows_kernel_2::@rows_kernel blocks in (%[[C4]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]]) args(%[[X]] : memref<4x300xf32>, %[[MAX]] : memref<4xf32>, %[[Y]] : memref<4x300xf32>, %[[SUM]] : memref<4xf32>)
// CHECK-NEXT: gpu.launch_func @rows_kernel_3::@rows_kernel blocks in (%[[C2]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]]) args(%[[SUM]] : memref<4xf32>, %[[Y]] : memref<4x300xf32>)
// CHECK-NEXT: return
// CHECK: gpu.module @rows_kernel_0
// CHECK-NEXT: llvm.mlir.global internal @[[SHARED:.*]]() {addr_space = 3 : i32} : !llvm.array<32 x f32>
// CHECK: nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK: llvm.mlir.addressof @[[SHARED]] : !llvm.ptr<3>
// CHECK: llvm.intr.maximum
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.call
// CHECK: gpu.module @rows_kernel_2
// CHECK: nvvm.shfl.sync bfly
// CHECK: gpu.module @rows_kernel_3
// CHECK: nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.icmp "ult"
// CHECK-NOT: llvm.call
func.func @rows(%a: tensor<4x300xf32>) -> tensor<4x300xf32> {
  %0 = tcc.softmax %a {dim = 1 : i64} : tensor<4x300xf32>
  return %0 : tensor<4x300xf32>
}
