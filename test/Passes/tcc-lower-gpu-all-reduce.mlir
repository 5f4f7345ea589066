// RUN: tcc-opt --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(tcc-lower-gpu-all-reduce))' %s | FileCheck %s

// Tests that a uniform f32 sum over the block becomes shuffles within each
// warp (xor 1, 2, 4, 8, 16) and one value per warp through a workgroup
// buffer of 32 elements, between barriers.
// CHECK-LABEL: gpu.func @sum
// CHECK-SAME: workgroup(%[[BUF:.*]] : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: gpu.all_reduce
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %{{.*}} : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %{{.*}} : f32
// CHECK: memref.store %{{.*}}, %[[BUF]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[BUF]]
// CHECK: gpu.barrier
gpu.module @sum {
  gpu.func @sum(%x: memref<256xf32>, %o: memref<f32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<256xf32>
    %s = gpu.all_reduce add %v uniform {} : (f32) -> f32
    memref.store %s, %o[] : memref<f32>
    gpu.return
  }
}

// -----

// Tests that a 64-bit value (layer norm's f64 sums) is shuffled as two
// 32-bit halves.
// CHECK-LABEL: gpu.func @sum64
// CHECK-SAME: workgroup(%{{.*}} : memref<32xf64, #gpu.address_space<workgroup>>)
// CHECK-NOT: gpu.shuffle xor %{{.*}} : f64
// CHECK: gpu.shuffle xor %{{.*}} : i32
// CHECK: gpu.shuffle xor %{{.*}} : i32
gpu.module @sum64 {
  gpu.func @sum64(%x: memref<64xf64>, %o: memref<f64>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<64xf64>
    %s = gpu.all_reduce add %v uniform {} : (f64) -> f64
    memref.store %s, %o[] : memref<f64>
    gpu.return
  }
}

// -----

// Tests that an all-reduce not reached by every thread is refused.
gpu.module @divergent {
  gpu.func @divergent(%x: memref<64xf32>, %o: memref<f32>, %c: i1) kernel {
    scf.if %c {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<64xf32>
      // expected-error @+1 {{cannot lower gpu.all_reduce}}
      %s = gpu.all_reduce add %v {} : (f32) -> f32
      memref.store %s, %o[] : memref<f32>
    }
    gpu.return
  }
}
