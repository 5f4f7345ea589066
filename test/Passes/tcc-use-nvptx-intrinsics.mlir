// RUN: tcc-opt --tcc-use-nvptx-intrinsics %s | FileCheck %s

// Tests that libdevice calls with an LLVM intrinsic become it (and their
// declarations go), and that one without (exp: tcc-expand-math's job) stays
// for the GPU compiler to refuse.
// CHECK-LABEL: gpu.module @kernels
// CHECK-NOT: @__nv_floorf
// CHECK-NOT: @__nv_sqrt
// CHECK: llvm.func @__nv_expf(f32) -> f32
// CHECK: llvm.func @k
// CHECK-NEXT: %[[F:.*]] = llvm.intr.floor(%arg0) : (f32) -> f32
// CHECK-NEXT: llvm.intr.sqrt(%arg1) : (f64) -> f64
// CHECK-NEXT: llvm.frem %arg0, %arg0 : f32
// CHECK-NEXT: llvm.call @__nv_expf(%[[F]])
gpu.module @kernels {
  llvm.func @__nv_floorf(f32) -> f32
  llvm.func @__nv_sqrt(f64) -> f64
  llvm.func @__nv_fmodf(f32, f32) -> f32
  llvm.func @__nv_expf(f32) -> f32
  llvm.func @k(%x: f32, %y: f64) -> f32 {
    %0 = llvm.call @__nv_floorf(%x) : (f32) -> f32
    %1 = llvm.call @__nv_sqrt(%y) : (f64) -> f64
    %2 = llvm.call @__nv_fmodf(%x, %x) : (f32, f32) -> f32
    %3 = llvm.call @__nv_expf(%0) : (f32) -> f32
    llvm.return %3 : f32
  }
}
