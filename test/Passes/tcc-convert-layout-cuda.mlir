// RUN: tcc-opt --split-input-file --tcc-convert-layout=target=cuda %s | FileCheck %s

// Tests that on the cuda target, whose NCHW convolutions would be generated
// kernels rather than GEMMs, a lone conv between an NCHW argument and an
// NCHW result runs NHWC between two transposes (the CPU keeps it NCHW:
// tcc-convert-layout.mlir, @lone_conv).
// CHECK-LABEL: func.func @lone_conv
// CHECK: tcc.transpose %{{.*}} {permutation = array<i64: 0, 2, 3, 1>}
// CHECK: tcc.conv2d %{{.*}} {layout = #tcc.layout<nhwc>, padding = array<i64: 1, 1>}
// CHECK: tcc.transpose %{{.*}} {permutation = array<i64: 0, 3, 1, 2>}
// CHECK: return
func.func @lone_conv(%x: tensor<1x2x5x5xf32>) -> tensor<1x3x5x5xf32> {
  %w = tcc.constant dense<0.5> : tensor<3x2x3x3xf32>
  %c = tcc.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x5xf32>
  return %c : tensor<1x3x5x5xf32>
}

// -----

// Tests that a lone pool, which is a generated kernel in either layout,
// still stays NCHW there.
// CHECK-LABEL: func.func @lone_pool
// CHECK-NOT: tcc.transpose
// CHECK-NOT: layout
// CHECK: return
func.func @lone_pool(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32> {
  %y = tcc.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x2x6x6xf32> -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}
