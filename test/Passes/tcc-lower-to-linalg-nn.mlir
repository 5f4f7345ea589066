// RUN: tcc-opt --split-input-file --tcc-lower-to-linalg %s | FileCheck %s
// RUN: tcc-opt --split-input-file --tcc-kernels-to-llvm %s | FileCheck %s --check-prefix=TILES

// Tests that linear starts from the bias broadcast over rows and reduces
// over the input features with x[i, k] * w[o, k].
// CHECK-DAG: #[[$BIAS:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$X:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$W:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$Y:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @linear
// CHECK: %[[INIT:.*]] = linalg.generic {indexing_maps = [#[[$BIAS]], #{{.*}}]
// CHECK: linalg.generic {indexing_maps = [#[[$X]], #[[$W]], #[[$Y]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: outs(%[[INIT]] : tensor<5x3xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// TILES-LABEL: llvm.func @linear
// TILES-SAME: tcc.tiles = 5 : i64
func.func @linear(%x: tensor<5x4xf32>, %w: tensor<3x4xf32>, %b: tensor<3xf32>) -> tensor<5x3xf32> {
  %0 = tcc.linear %x, %w, %b : (tensor<5x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

// Tests that a padded, strided, dilated, grouped conv2d copies its input
// into a zero-padded tensor with clamped reads, then reads it through
// affine maps: channel (o floordiv (O / groups)) * (C / groups) + c,
// rows oh * stride + kh * dilation.
// CHECK-DAG: #[[$IMAGE:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, (d1 floordiv 3) * 2 + d4, d2 * 2 + d5 * 2, d3 + d6)>
// CHECK-DAG: #[[$WEIGHT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv
// CHECK: %[[PADDED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x13x10xf32>)
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: tensor.extract %{{.*}} : tensor<1x4x9x8xf32>
// CHECK: arith.select
// CHECK: linalg.generic {indexing_maps = [#[[$IMAGE]], #[[$WEIGHT]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[PADDED]], %{{.*}} :
// After linalg's elementwise fusion the padding reads fold into the
// convolution's loop nest: no scratch. Batch 1: the tiles are the 6
// output channels, the first loop the output is indexed by.
// TILES-LABEL: llvm.func @conv(
// TILES-NOT: tcc.scratch_bytes
// TILES-SAME: tcc.tiles = 6 : i64
func.func @conv(%x: tensor<1x4x9x8xf32>, %w: tensor<6x2x3x2xf32>, %b: tensor<6xf32>) -> tensor<1x6x5x9xf32> {
  %0 = tcc.conv2d %x, %w, %b {stride = array<i64: 2, 1>, padding = array<i64: 2, 1>, dilation = array<i64: 2, 1>, groups = 2 : i64} : (tensor<1x4x9x8xf32>, tensor<6x2x3x2xf32>, tensor<6xf32>) -> tensor<1x6x5x9xf32>
  return %0 : tensor<1x6x5x9xf32>
}

// -----

// Tests that an NHWC conv2d iterates (n, oh, ow, o, kh, kw, c) with c
// innermost and reads an OHWI weight.
// CHECK-DAG: #[[$IMAGE:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>
// CHECK-DAG: #[[$WEIGHT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>
// CHECK-LABEL: func.func @conv_nhwc
// CHECK-NOT: tensor.extract
// CHECK: linalg.generic {indexing_maps = [#[[$IMAGE]], #[[$WEIGHT]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// TILES-LABEL: llvm.func @conv_nhwc
// TILES-SAME: tcc.tiles = 2 : i64
func.func @conv_nhwc(%x: tensor<2x5x5x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x3x3x4xf32> {
  %0 = tcc.conv2d %x, %w {layout = #tcc.layout<nhwc>} : (tensor<2x5x5x3xf32>, tensor<4x3x3x3xf32>) -> tensor<2x3x3x4xf32>
  return %0 : tensor<2x3x3x4xf32>
}

// -----

// Tests that max pooling pads with -inf (enough for ceil_mode's last
// window) and reduces over a window tensor that only gives loop bounds.
// CHECK-DAG: #[[$IMAGE:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[$WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-LABEL: func.func @max_pool
// CHECK-DAG: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[PADDED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x9x8xf32>)
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[NEG_INF]] : f32
// CHECK: %[[WINDOW_TENSOR:.*]] = tensor.empty() : tensor<3x2xi8>
// CHECK: linalg.generic {indexing_maps = [#[[$IMAGE]], #[[$WINDOW]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[PADDED]], %[[WINDOW_TENSOR]] :
// CHECK: arith.maximumf
func.func @max_pool(%x: tensor<1x2x7x6xf32>) -> tensor<1x2x4x4xf32> {
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 3, 2>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true} : tensor<1x2x7x6xf32> -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// Tests that average pooling without padding reads the input directly,
// then divides each sum by the window's count of input positions, computed
// from the output position.
// CHECK-LABEL: func.func @avg_pool
// CHECK: %[[SUMS:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x2x6x6xf32>, tensor<2x2xi8>)
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK: linalg.generic {{.*}} ins(%[[SUMS]] : tensor<2x2x3x3xf32>)
// CHECK: linalg.index 2
// CHECK: linalg.index 3
// CHECK: arith.sitofp
// CHECK: arith.divf
// TILES-LABEL: llvm.func @avg_pool
// TILES-SAME: tcc.tiles = 2 : i64
func.func @avg_pool(%x: tensor<2x2x6x6xf32>) -> tensor<2x2x3x3xf32> {
  %0 = tcc.avg_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, count_include_pad = false} : tensor<2x2x6x6xf32> -> tensor<2x2x3x3xf32>
  return %0 : tensor<2x2x3x3xf32>
}

// -----

// Tests that an 8-bit NHWC max pool with padding (as between int8
// convolutions) reads its input in place, without a padded copy: one
// parallel generic over the output whose taps read clamped positions and
// take the lowest value (0 for ui8) where they fall outside the image. Its
// one loop nest splits into a tile per output row.
// CHECK-LABEL: func.func @max_pool_nhwc_u8
// CHECK: %[[LOWEST:.*]] = arith.constant 0 : i8
// CHECK-NOT: tensor<1x9x11x4xi8>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<1x4x5x4xi8>)
// CHECK: %[[IN_ROW:.*]] = arith.cmpi ult, %{{.*}}, %c7 : index
// CHECK: arith.minsi %{{.*}}, %c6 : index
// CHECK: %[[IN_COL:.*]] = arith.cmpi ult, %{{.*}}, %c9 : index
// CHECK: %[[INSIDE:.*]] = arith.andi %[[IN_ROW]], %[[IN_COL]] : i1
// CHECK: arith.minsi %{{.*}}, %c8 : index
// CHECK: %[[TAP:.*]] = tensor.extract %{{.*}} : tensor<1x7x9x4xi8>
// CHECK: arith.select %[[INSIDE]], %[[TAP]], %[[LOWEST]] : i8
// CHECK: arith.maxui
// TILES-LABEL: llvm.func @max_pool_nhwc_u8
// TILES-SAME: tcc.tiles = 4 : i64
func.func @max_pool_nhwc_u8(%x: tensor<1x7x9x4xui8>) -> tensor<1x4x5x4xui8> {
  %0 = tcc.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, layout = #tcc.layout<nhwc>} : tensor<1x7x9x4xui8> -> tensor<1x4x5x4xui8>
  return %0 : tensor<1x4x5x4xui8>
}

// -----

// Tests that adaptive pooling sums a window of the largest size, masking
// positions past each window's end and reading at clamped indices.
// CHECK-LABEL: func.func @adaptive
// CHECK: %[[WINDOW:.*]] = tensor.empty() : tensor<3x3xi8>
// CHECK: linalg.generic {{.*}} ins(%[[WINDOW]] : tensor<3x3xi8>)
// CHECK: arith.divui
// CHECK: arith.cmpi ult
// CHECK: tensor.extract %{{.*}} : tensor<1x2x5x7xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC:.*]], %{{.*}} fastmath<reassoc> : f32
// CHECK: arith.select %{{.*}}, %[[SUM]], %[[ACC]] : f32
func.func @adaptive(%x: tensor<1x2x5x7xf32>) -> tensor<1x2x3x4xf32> {
  %0 = tcc.adaptive_avg_pool2d %x {output_size = array<i64: 3, 4>} : tensor<1x2x5x7xf32> -> tensor<1x2x3x4xf32>
  return %0 : tensor<1x2x3x4xf32>
}
