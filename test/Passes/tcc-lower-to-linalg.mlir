// RUN: tcc-opt --split-input-file --tcc-lower-to-linalg %s | FileCheck %s

// Tests that a broadcasting add becomes one linalg.generic whose broadcast
// operand reads through a projected map.
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_broadcast
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.addf
// CHECK-NOT: tcc.
func.func @add_broadcast(%a: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = tcc.add %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Tests that a size-1 dimension broadcasts by reading index 0.
// CHECK-DAG: #[[$ONE:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @add_size_one
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$ONE]], #{{.*}}]
// CHECK: arith.addi
func.func @add_size_one(%a: tensor<4x3xi32>, %b: tensor<1x3xi32>) -> tensor<4x3xi32> {
  %0 = tcc.add %a, %b : (tensor<4x3xi32>, tensor<1x3xi32>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}

// -----

// Tests that exp becomes math.exp in a generic.
// CHECK-LABEL: func.func @exp
// CHECK: linalg.generic
// CHECK: math.exp
func.func @exp(%a: tensor<5xf32>) -> tensor<5xf32> {
  %0 = tcc.exp %a : tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Tests that a batched matmul with a broadcast batch reduces over k on a
// zero-filled accumulator.
// CHECK-DAG: #[[$LHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-DAG: #[[$RHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @matmul
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: outs(%[[FILL]]
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @matmul(%a: tensor<4x3xf32>, %b: tensor<2x3x5xf32>) -> tensor<2x4x5xf32> {
  %0 = tcc.matmul %a, %b : (tensor<4x3xf32>, tensor<2x3x5xf32>) -> tensor<2x4x5xf32>
  return %0 : tensor<2x4x5xf32>
}

// -----

// Tests that reshape becomes a view (collapse_shape, expand_shape, or both
// through 1-D when no reassociation relates the shapes) and constants
// arith.constant.
// CHECK-LABEL: func.func @reshape
// CHECK: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<2x3xf32>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: %[[FLAT2:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: %[[T:.*]] = tensor.expand_shape %[[FLAT2]] {{\[\[}}0, 1]] output_shape [3, 2]
// CHECK: return %[[FLAT]], %[[C]], %[[T]]
func.func @reshape(%x: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<2x3xf32>, tensor<3x2xf32>) {
  %0 = tcc.constant dense<1.0> : tensor<2x3xf32>
  %1 = tcc.reshape %x : tensor<2x3xf32> to tensor<6xf32>
  %2 = tcc.reshape %x : tensor<2x3xf32> to tensor<3x2xf32>
  return %1, %0, %2 : tensor<6xf32>, tensor<2x3xf32>, tensor<3x2xf32>
}

// -----

// Tests that ui8 tensors become signless i8 ones, in the signature and in
// constants (same bytes), while comparisons stay unsigned; and that kernel
// arguments are read-only to bufferization.
// CHECK-LABEL: func.func @unsigned
// CHECK-SAME: (%{{.*}}: tensor<3xi8> {bufferization.writable = false}) -> (tensor<3xi1>, tensor<3xi8>)
// CHECK: %[[C:.*]] = arith.constant dense<[1, -56, -1]> : tensor<3xi8>
// CHECK: linalg.generic
// CHECK: arith.cmpi ult
// CHECK: return %{{.*}}, %[[C]]
func.func @unsigned(%x: tensor<3xui8>) -> (tensor<3xi1>, tensor<3xui8>) {
  %c = tcc.constant dense<[1, 200, 255]> : tensor<3xui8>
  %0 = tcc.lt %x, %c : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
  return %0, %c : tensor<3xi1>, tensor<3xui8>
}

// -----

// Tests that a ui8 weight blob keeps its bytes under the i8 type.
// CHECK-LABEL: func.func @blob
// CHECK-SAME: () -> tensor<4xi8>
// CHECK: arith.constant dense_resource<bytes> : tensor<4xi8>
func.func @blob() -> tensor<4xui8> {
  %0 = tcc.constant dense_resource<bytes> : tensor<4xui8>
  return %0 : tensor<4xui8>
}
{-#
  dialect_resources: {
    builtin: {
      bytes: "0x0100000001C8FF07"
    }
  }
#-}
