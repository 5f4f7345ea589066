// RUN: tcc-opt --split-input-file --tcc-lower-to-linalg %s | FileCheck %s

// Tests that a per-channel quantize reads its scale and zero point at the
// axis, divides in f32, then rounds half to even, shifts, saturates and
// truncates in f64, with NaN giving the zero point.
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$AXIS:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @quantize
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$AXIS]], #[[$AXIS]], #[[$ID]]]
// CHECK: %[[Q:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: %[[W:.*]] = arith.extf %[[Q]] : f32 to f64
// CHECK: math.roundeven %[[W]] : f64
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.fptosi %{{.*}} : f64 to i64
// CHECK: arith.trunci %{{.*}} : i64 to i8
// CHECK: arith.cmpf uno, %[[W]], %[[W]] : f64
// CHECK: arith.select
func.func @quantize(%x: tensor<4x8xf32>, %s: tensor<4xf32>, %zp: tensor<4xui8>) -> tensor<4x8xui8> {
  %0 = tcc.quantize %x, %s, %zp {axis = 0 : i64} : (tensor<4x8xf32>, tensor<4xf32>, tensor<4xui8>) -> tensor<4x8xui8>
  return %0 : tensor<4x8xui8>
}

// -----

// Tests that dequantize subtracts a ui8 zero point exactly (zero-extended
// to i64) before converting and scaling.
// CHECK-LABEL: func.func @dequantize
// CHECK: arith.extui %{{.*}} : i8 to i64
// CHECK: arith.extui %{{.*}} : i8 to i64
// CHECK: arith.subi
// CHECK: arith.sitofp %{{.*}} : i64 to f32
// CHECK: arith.mulf
func.func @dequantize(%q: tensor<4x8xui8>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<4x8xf32> {
  %0 = tcc.dequantize %q, %s, %zp : (tensor<4x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Tests that requantize multiplies in f32 (the int8 kernels' epilogue),
// then rounds as quantize.
// CHECK-LABEL: func.func @requantize
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: math.roundeven
func.func @requantize(%acc: tensor<4x8xi32>, %m: tensor<f32>, %zp: tensor<i8>) -> tensor<4x8xi8> {
  %0 = tcc.requantize %acc, %m, %zp : (tensor<4x8xi32>, tensor<f32>, tensor<i8>) -> tensor<4x8xi8>
  return %0 : tensor<4x8xi8>
}

// -----

// Tests that matmul_integer reads a per-row and a per-column zero point,
// widens ui8 with extui and i8 with extsi, and accumulates in i32.
// CHECK-DAG: #[[$A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-DAG: #[[$COL:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @matmul_integer
// CHECK: linalg.generic {indexing_maps = [#[[$A]], #[[$B]], #[[$ROW]], #[[$COL]], #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.muli
// CHECK: arith.addi
func.func @matmul_integer(%a: tensor<4x3xui8>, %b: tensor<3x2xi8>, %azp: tensor<4xui8>, %bzp: tensor<2xi8>) -> tensor<4x2xi32> {
  %0 = tcc.matmul_integer %a, %b, %azp, %bzp : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<4xui8>, tensor<2xi8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

// Tests that conv2d_integer subtracts the input's zero point first, so the
// padding holds zeros, and reads a per-output-channel weight zero point.
// CHECK-DAG: #[[$O:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1)>
// CHECK-LABEL: func.func @conv2d_integer
// CHECK: arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[$O]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK: arith.muli
// CHECK: arith.addi
func.func @conv2d_integer(%x: tensor<1x2x5x5xui8>, %w: tensor<4x1x3x3xi8>, %xzp: tensor<ui8>, %wzp: tensor<4xi8>) -> tensor<1x4x5x5xi32> {
  %0 = tcc.conv2d_integer %x, %w, %xzp, %wzp {groups = 2 : i64, padding = array<i64: 1, 1>} : (tensor<1x2x5x5xui8>, tensor<4x1x3x3xi8>, tensor<ui8>, tensor<4xi8>) -> tensor<1x4x5x5xi32>
  return %0 : tensor<1x4x5x5xi32>
}
