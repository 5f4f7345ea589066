// RUN: tcc-opt --split-input-file --tcc-lower-to-linalg %s | FileCheck %s
// RUN: tcc-opt --split-input-file --tcc-kernels-to-llvm %s | FileCheck %s --check-prefix=TILES

// Tests that transpose reads the input through the inverse permutation.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @transpose
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel"]}
func.func @transpose(%a: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = tcc.transpose %a {permutation = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// Tests that an identity transpose lowers to its operand (then a copy,
// because it is returned).
// CHECK-LABEL: func.func @transpose_identity
// CHECK-NOT: linalg.generic
// CHECK: linalg.copy
func.func @transpose_identity(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tcc.transpose %a {permutation = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Tests that a strided slice is an affine input map.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1) -> (d0 * 2 + 1, d1 * 3)>
// CHECK-LABEL: func.func @slice
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #{{.*}}]
func.func @slice(%a: tensor<4x6xf32>) -> tensor<2x2xf32> {
  %0 = tcc.slice %a {start = array<i64: 1, 0>, end = array<i64: 4, 4>, step = array<i64: 2, 3>} : tensor<4x6xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// Tests that broadcast_to reads size-1 dims at index 0 and adds leading
// dims.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (0, d2)>
// CHECK-LABEL: func.func @broadcast_to
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #{{.*}}]
func.func @broadcast_to(%a: tensor<1x4xi8>) -> tensor<2x3x4xi8> {
  %0 = tcc.broadcast_to %a : tensor<1x4xi8> to tensor<2x3x4xi8>
  return %0 : tensor<2x3x4xi8>
}

// -----

// Tests that concat is one generic over the result choosing, by the
// position along the dim, between clamped reads of its inputs.
// CHECK-LABEL: func.func @concat
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x8xf32>)
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: %[[LAST:.*]] = tensor.extract %{{.*}} : tensor<2x5xf32>
// CHECK: %[[FIRST_PART:.*]] = arith.cmpi slt, %[[J]], %{{.*}} : index
// CHECK: %[[FIRST:.*]] = tensor.extract %{{.*}} : tensor<2x3xf32>
// CHECK: arith.select %[[FIRST_PART]], %[[FIRST]], %[[LAST]] : f32
// TILES-LABEL: llvm.func @concat
// TILES-SAME: tcc.tiles = 2 : i64
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %0 = tcc.concat %a, %b {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Tests that embedding clamps each index into the table's rows before
// reading.
// CHECK-LABEL: func.func @embedding
// CHECK: ^bb0(%[[ID:.*]]: i32, %{{.*}}: f32):
// CHECK: %[[I:.*]] = arith.index_cast %[[ID]] : i32 to index
// CHECK: %[[LOW:.*]] = arith.maxsi %[[I]], %{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.minsi %[[LOW]], %{{.*}} : index
// CHECK: %[[COL:.*]] = linalg.index 2 : index
// CHECK: tensor.extract %{{.*}}[%[[ROW]], %[[COL]]] : tensor<10x4xf32>
// The index and output dims 0 and 1 merge (tcc-coalesce-loops): 6 tiles.
// TILES-LABEL: llvm.func @embedding
// TILES-SAME: tcc.tiles = 6 : i64
func.func @embedding(%i: tensor<2x3xi32>, %w: tensor<10x4xf32>) -> tensor<2x3x4xf32> {
  %0 = tcc.embedding %i, %w : (tensor<2x3xi32>, tensor<10x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Tests that gather reads along its dim at the clamped index and at the
// loop indices elsewhere.
// CHECK-LABEL: func.func @gather
// CHECK: ^bb0(%[[ID:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: arith.index_cast %[[ID]] : i64 to index
// CHECK: %[[COL:.*]] = arith.minsi
// CHECK: tensor.extract %{{.*}}[%[[ROW]], %[[COL]]] : tensor<2x5xf32>
func.func @gather(%x: tensor<2x5xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %0 = tcc.gather %x, %i {dim = 1 : i64} : (tensor<2x5xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Tests that scatter copies its input, then walks the updates in order in
// a sequential loop nest: the index is checked against the dim, and an
// out-of-range update writes the old value back at a clamped position.
// The kernel is one tile (its writes are not row-independent).
// CHECK-LABEL: func.func @scatter
// CHECK: %[[COPY:.*]] = linalg.copy ins(%{{.*}} : tensor<4x5xf32>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} iter_args(%{{.*}} = %[[COPY]])
// CHECK: scf.for %[[J:.*]] = %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK: %[[RAW:.*]] = tensor.extract %{{.*}}[%[[I]], %[[J]]] : tensor<3x5xi64>
// CHECK: %[[AT:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK-DAG: %[[BELOW:.*]] = arith.cmpi slt, %[[AT]]
// CHECK-DAG: %[[ABOVE:.*]] = arith.cmpi sge, %[[AT]]
// CHECK: %[[IN:.*]] = arith.andi
// CHECK: %[[ROW:.*]] = arith.minsi
// CHECK: %[[OLD:.*]] = tensor.extract %[[ACC]][%[[ROW]], %[[J]]]
// CHECK: %[[NEW:.*]] = tensor.extract %{{.*}}[%[[I]], %[[J]]] : tensor<3x5xf32>
// CHECK: %[[MAX:.*]] = arith.maximumf %[[OLD]], %[[NEW]]
// CHECK: %[[V:.*]] = arith.select %[[IN]], %[[MAX]], %[[OLD]]
// CHECK: tensor.insert %[[V]] into %[[ACC]][%[[ROW]], %[[J]]]
// TILES-LABEL: llvm.func @scatter
// TILES-SAME: tcc.tiles = 1 : i64
func.func @scatter(%x: tensor<4x5xf32>, %i: tensor<3x5xi64>, %u: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = tcc.scatter %x, %i, %u {dim = 0 : i64, reduction = #tcc.scatter_reduction<max>} : (tensor<4x5xf32>, tensor<3x5xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// Tests that pad (here cropping one column on the left) reads at clamped
// indices and selects the padding value outside the input.
// CHECK-LABEL: func.func @pad
// CHECK: %[[VALUE:.*]] = arith.constant 7.000000e+00 : f32
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<5x5xf32>)
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: %[[X:.*]] = tensor.extract %{{.*}} : tensor<3x4xf32>
// CHECK: arith.select %{{.*}}, %[[X]], %[[VALUE]] : f32
func.func @pad(%a: tensor<3x4xf32>) -> tensor<5x5xf32> {
  %0 = tcc.pad %a {pad = array<i64: -1, 2, 1, 1>, value = 7.0 : f64} : tensor<3x4xf32> -> tensor<5x5xf32>
  return %0 : tensor<5x5xf32>
}

// -----

// Tests that a slice cutting a dim short from 0 with step 1 reads with
// tensor.extract: as an input map it would be a plain loop dim, whose range
// linalg would take from the input's larger size.
// CHECK-LABEL: func.func @slice_prefix
// CHECK: linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "parallel"]} outs(
// CHECK: tensor.extract %{{.*}} : tensor<2x12xf32>
func.func @slice_prefix(%a: tensor<2x12xf32>) -> tensor<2x4xf32> {
  %0 = tcc.slice %a {start = array<i64: 0, 0>, end = array<i64: 2, 4>, step = array<i64: 1, 1>} : tensor<2x12xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
