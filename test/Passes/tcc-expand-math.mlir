// RUN: tcc-opt --split-input-file --tcc-expand-math %s | FileCheck %s

// Tests that exp, tanh and erf become arithmetic (no libm call remains).
// CHECK-LABEL: func.func @transcendentals
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK: return
func.func @transcendentals(%x: f32) -> (f32, f32, f32) {
  %0 = math.exp %x : f32
  %1 = math.tanh %x : f32
  %2 = math.erf %x : f32
  return %0, %1, %2 : f32, f32, f32
}

// -----

// Tests that powf expands through exp and log, which are then approximated.
// CHECK-LABEL: func.func @pow
// CHECK-NOT: math.powf
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK: return
func.func @pow(%x: f32, %y: f32) -> f32 {
  %0 = math.powf %x, %y : f32
  return %0 : f32
}

// -----

// Tests that ops with native instructions stay.
// CHECK-LABEL: func.func @native
// CHECK: math.sqrt
// CHECK: math.floor
func.func @native(%x: f32) -> (f32, f32) {
  %0 = math.sqrt %x : f32
  %1 = math.floor %x : f32
  return %0, %1 : f32, f32
}

// -----

// Tests that sin becomes straight-line arithmetic with both reductions:
// Cody-Waite for |x| < 2^17 and the integer Payne-Hanek product (64-bit
// multiplies, no i128) for larger |x|, chosen by a select.
// CHECK-LABEL: func.func @sin_reductions
// CHECK-NOT: math.sin
// CHECK-NOT: i128
// CHECK-DAG: arith.constant 1.310720e+05 : f64
// CHECK-DAG: arith.muli {{.*}} : i64
// CHECK-DAG: arith.uitofp {{.*}} : i64 to f64
// CHECK-NOT: math.sin
// CHECK: return
func.func @sin_reductions(%x: f32) -> f32 {
  %0 = math.sin %x : f32
  return %0 : f32
}
