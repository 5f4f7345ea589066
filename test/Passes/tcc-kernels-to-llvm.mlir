// RUN: tcc-opt --split-input-file --tcc-kernels-to-llvm %s | FileCheck %s

// Tests that a kernel lowers to one LLVM function with bare pointers for
// inputs and outputs, a tile range, its tile count, and no calls.
// CHECK-LABEL: llvm.func @sigmoidish
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-SAME: tcc.tiles = 16 : i64
// CHECK-NOT: llvm.call
// CHECK: llvm.return
func.func @sigmoidish(%a: tensor<16x8xf32>, %b: tensor<8xf32>) -> tensor<16x8xf32> {
  %0 = tcc.exp %a : tensor<16x8xf32>
  %1 = tcc.add %0, %b : (tensor<16x8xf32>, tensor<8xf32>) -> tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}
