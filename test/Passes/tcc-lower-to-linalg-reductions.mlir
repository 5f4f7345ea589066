// RUN: tcc-opt --split-input-file --tcc-lower-to-linalg %s | FileCheck %s
// RUN: tcc-opt --split-input-file --tcc-kernels-to-llvm %s | FileCheck %s --check-prefix=TILES

// Tests that a reduction over a middle dim walks the input in storage
// order (the kept dim after the reduced one runs inside the reduction
// loop, over contiguous memory), accumulates with fastmath<reassoc> into a
// zero-filled result, and keeps reduced dims as size 1 through a constant
// in the result's map.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-LABEL: func.func @reduce_sum_keepdim
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x1x4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-SAME: outs(%[[FILL]] : tensor<2x1x4xf32>)
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// TILES-LABEL: llvm.func @reduce_sum_keepdim
// TILES-SAME: tcc.tiles = 2 : i64
func.func @reduce_sum_keepdim(%a: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %0 = tcc.reduce_sum %a {dims = array<i64: 1>, keepdim = true} : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}

// -----

// Tests that a bf16 mean accumulates in f32, then divides and rounds once.
// CHECK-LABEL: func.func @reduce_mean
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<2x3xbf16>) outs(%{{.*}} : tensor<2xf32>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<2xf32>) outs(%{{.*}} : tensor<2xbf16>)
// CHECK: arith.divf
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @reduce_mean(%a: tensor<2x3xbf16>) -> tensor<2xbf16> {
  %0 = tcc.reduce_mean %a {dims = array<i64: -1>} : tensor<2x3xbf16> -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}

// -----

// Tests that i1 reduce_max (any) and reduce_min (all) are unsigned max/min
// starting from false and true.
// CHECK-LABEL: func.func @any_all
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: linalg.fill ins(%[[FALSE]] : i1)
// CHECK: arith.maxui %{{.*}}, %{{.*}} : i1
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: linalg.fill ins(%[[TRUE]] : i1)
// CHECK: arith.minui %{{.*}}, %{{.*}} : i1
func.func @any_all(%a: tensor<2x3xi1>) -> (tensor<2xi1>, tensor<2xi1>) {
  %0 = tcc.reduce_max %a {dims = array<i64: 1>} : tensor<2x3xi1> -> tensor<2xi1>
  %1 = tcc.reduce_min %a {dims = array<i64: 1>} : tensor<2x3xi1> -> tensor<2xi1>
  return %0, %1 : tensor<2xi1>, tensor<2xi1>
}

// -----

// Tests that argmax carries the best value and its index in one pass, with
// a strict compare (first index wins) and NaN beating numbers.
// CHECK-LABEL: func.func @argmax
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xi64>)
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf uno
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: arith.index_cast %[[I]] : index to i64
// CHECK: return %[[R]]#1
// TILES-LABEL: llvm.func @argmax
// TILES-SAME: tcc.tiles = 2 : i64
func.func @argmax(%a: tensor<2x3xf32>) -> tensor<2xi64> {
  %0 = tcc.argmax %a {dim = 1 : i64} : tensor<2x3xf32> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// Tests that softmax is max, then exp(x - max) stored while summed (one
// exp per element), a reciprocal, and an in-place scale, with row-indexed
// temporaries so that rows still tile.
// CHECK-DAG: #[[$FULL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[$FULL]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.maximumf
// CHECK: %[[EXP:.*]]:2 = linalg.generic {indexing_maps = [#[[$FULL]], #[[$ROW]], #[[$FULL]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %[[MAX]] :
// CHECK: %[[E:.*]] = math.exp
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %[[E]] fastmath<reassoc> : f32
// CHECK: linalg.yield %[[E]], %[[S]] : f32, f32
// CHECK: %[[INV:.*]] = linalg.generic {{.*}} ins(%[[EXP]]#1 : tensor<4xf32>)
// CHECK: arith.divf
// CHECK: linalg.generic {indexing_maps = [#[[$ROW]], #[[$FULL]]], iterator_types = ["parallel", "parallel"]} ins(%[[INV]] : tensor<4xf32>) outs(%[[EXP]]#0 : tensor<4x8xf32>)
// CHECK: arith.mulf
// CHECK-NOT: math.exp
// The exponentials live in the result: scratch holds the row temporaries
// (two once linalg's elementwise fusion merged the reciprocal in).
// TILES-LABEL: llvm.func @softmax(
// TILES-SAME: tcc.scratch_bytes = array<i64: 16, 16>, tcc.tiles = 4 : i64
func.func @softmax(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tcc.softmax %a {dim = 1 : i64} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Tests that log_softmax subtracts log(sum) from the shifted input.
// CHECK-LABEL: func.func @log_softmax
// CHECK: math.log
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]
// CHECK: %[[SHIFTED:.*]] = arith.subf
// CHECK-NEXT: arith.subf %[[SHIFTED]], %{{.*}} : f32
// TILES-LABEL: llvm.func @log_softmax
// TILES-SAME: tcc.tiles = 2 : i64
func.func @log_softmax(%a: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  %0 = tcc.log_softmax %a {dim = -1 : i64} : tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// -----

// Tests that softmax along the leading dim cannot split rows: its
// temporaries are indexed by the other dims, so the kernel runs whole.
// TILES-LABEL: llvm.func @softmax_dim0
// TILES-SAME: tcc.tiles = 1 : i64
// CHECK-LABEL: func.func @softmax_dim0
func.func @softmax_dim0(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tcc.softmax %a {dim = 0 : i64} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Tests that layer_norm takes two passes (mean, then squared deviations),
// forms 1 / sqrt(var + eps) per row, and applies weight and bias
// broadcast along the row. Mean and variance accumulate in f64 (as the
// eager layer_norm's, so that rows with values past 1.8e19 do not
// overflow); the pass over the elements runs in f32.
// CHECK-DAG: #[[$FULL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[$COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @layer_norm
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[SUM]] :
// CHECK: arith.divf
// CHECK: %[[SQ:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %[[MEAN]] :
// CHECK: arith.mulf
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f64
// CHECK: %[[RSTD:.*]] = linalg.generic {{.*}} ins(%[[SQ]] :
// CHECK: math.sqrt
// CHECK: %[[MEAN32:.*]] = linalg.generic {{.*}} ins(%[[MEAN]] : tensor<4xf64>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: %[[RSTD32:.*]] = linalg.generic {{.*}} ins(%[[RSTD]] : tensor<4xf64>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$FULL]], #[[$ROW]], #[[$ROW]], #[[$COL]], #[[$COL]], #[[$FULL]]], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %[[MEAN32]], %[[RSTD32]], %{{.*}}, %{{.*}} :
// TILES-LABEL: llvm.func @layer_norm
// TILES-SAME: tcc.tiles = 4 : i64
func.func @layer_norm(%a: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = tcc.layer_norm %a weight %w bias %b {normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Tests that inference batch_norm is one elementwise generic reading the
// per-channel operands along dim 1.
// CHECK-DAG: #[[$FULL:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$CHANNEL:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @batch_norm
// CHECK: linalg.generic {indexing_maps = [#[[$FULL]], #[[$CHANNEL]], #[[$CHANNEL]], #[[$CHANNEL]], #[[$CHANNEL]], #[[$FULL]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK: math.sqrt
// CHECK-NOT: linalg.generic
// TILES-LABEL: llvm.func @batch_norm
// TILES-SAME: tcc.tiles = 2 : i64
func.func @batch_norm(%x: tensor<2x3x4xf32>, %w: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4xf32> {
  %0 = tcc.batch_norm %x, %w, %b, %m, %v {eps = 1.0e-5 : f64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
