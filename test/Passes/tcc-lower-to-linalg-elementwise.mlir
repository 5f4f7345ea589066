// RUN: tcc-opt --split-input-file --tcc-lower-to-linalg %s | FileCheck %s

// Tests that relu zeroes only values below zero (an ordered compare), so
// that NaN and -0 stay, as in libtorch.
// CHECK-LABEL: func.func @relu
// CHECK: linalg.generic
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[NEG:.*]] = arith.cmpf olt, %[[IN:.*]], %[[ZERO]] : f32
// CHECK: arith.select %[[NEG]], %[[ZERO]], %[[IN]] : f32
func.func @relu(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcc.relu %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that bf16 arithmetic runs in f32 and rounds once.
// CHECK-LABEL: func.func @add_bf16
// CHECK: ^bb0(%[[A:.*]]: bf16, %[[B:.*]]: bf16, %{{.*}}: bf16):
// CHECK: %[[WA:.*]] = arith.extf %[[A]] : bf16 to f32
// CHECK: %[[WB:.*]] = arith.extf %[[B]] : bf16 to f32
// CHECK: %[[SUM:.*]] = arith.addf %[[WA]], %[[WB]] : f32
// CHECK: %[[R:.*]] = arith.truncf %[[SUM]] : f32 to bf16
// CHECK: linalg.yield %[[R]] : bf16
func.func @add_bf16(%a: tensor<4xbf16>, %b: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = tcc.add %a, %b : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// Tests that integer floor_divide never divides by 0 or -1 (x86 traps on
// both) and moves the quotient toward -inf.
// CHECK-LABEL: func.func @floor_divide_i32
// CHECK: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[ZERO:.*]] = arith.cmpi eq, %[[Y]], %{{.*}} : i32
// CHECK: %[[SAFE:.*]] = arith.select %[[ZERO]], %{{.*}}, %[[Y]] : i32
// CHECK: %[[MINUS_ONE:.*]] = arith.cmpi eq, %[[Y]], %{{.*}} : i32
// CHECK: %[[SAFER:.*]] = arith.select %[[MINUS_ONE]], %{{.*}}, %[[SAFE]] : i32
// CHECK: arith.divsi %[[X]], %[[SAFER]] : i32
// CHECK: arith.remsi %[[X]], %[[SAFER]] : i32
// CHECK: arith.cmpi slt
// CHECK: arith.xori
// CHECK: linalg.yield
func.func @floor_divide_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tcc.floor_divide %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Tests that unsigned division is unsigned.
// CHECK-LABEL: func.func @remainder_ui8
// CHECK: arith.remui %{{.*}}, %{{.*}} : i8
// CHECK-NOT: arith.remsi
func.func @remainder_ui8(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = tcc.remainder %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// Tests that float remainder is an exact fmod by long division of the
// significands (no frem, which would call libm), then takes the divisor's
// sign.
// CHECK-LABEL: func.func @remainder_f32
// CHECK-NOT: arith.remf
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i32)
// CHECK: math.ctlz
// CHECK: %[[SHIFTED:.*]] = arith.addf %[[MOD:.*]], %{{.*}} : f32
// CHECK: arith.select %{{.*}}, %[[SHIFTED]], %[[MOD]] : f32
func.func @remainder_f32(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcc.remainder %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that f32 pow computes exp(y * log|x|) in f64 and fixes signs and
// special cases with selects.
// CHECK-LABEL: func.func @pow_f32
// CHECK: %[[X:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK: %[[Y:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK: %[[ABS:.*]] = math.absf %[[X]] : f64
// CHECK: %[[LOG:.*]] = math.log %[[ABS]] : f64
// CHECK: %[[PROD:.*]] = arith.mulf %[[Y]], %[[LOG]] : f64
// CHECK: math.exp %[[PROD]] : f64
// CHECK: math.copysign
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @pow_f32(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tcc.pow %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that integer pow squares over the exponent's bits in a loop.
// CHECK-LABEL: func.func @pow_i64
// CHECK: %[[BITS:.*]] = arith.constant 64 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[BITS]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i64, i64)
// CHECK: arith.muli
func.func @pow_i64(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
  %0 = tcc.pow %a, %b : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// Tests that comparisons pick ordered float, signed and unsigned predicates,
// with != true for NaN.
// CHECK-LABEL: func.func @compare
// CHECK: arith.cmpf olt
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi ult
// CHECK: arith.cmpf une
func.func @compare(%f: tensor<4xf32>, %i: tensor<4xi8>, %u: tensor<4xi1>)
    -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = tcc.lt %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = tcc.lt %i, %i : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi1>
  %2 = tcc.lt %u, %u : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %3 = tcc.ne %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// Tests that a float to ui8 cast converts through i32 and wraps (ui8 is
// i8 after lowering), and that i1 converts as unsigned.
// CHECK-LABEL: func.func @casts
// CHECK: %[[WIDE:.*]] = arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.trunci %[[WIDE]] : i32 to i8
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.cmpf une, %{{.*}}, %{{.*}} : f32
func.func @casts(%a: tensor<4xf32>, %b: tensor<4xi1>) -> (tensor<4xui8>, tensor<4xf32>, tensor<4xi1>) {
  %0 = tcc.cast %a : tensor<4xf32> to tensor<4xui8>
  %1 = tcc.cast %b : tensor<4xi1> to tensor<4xf32>
  %2 = tcc.cast %a : tensor<4xf32> to tensor<4xi1>
  return %0, %1, %2 : tensor<4xui8>, tensor<4xf32>, tensor<4xi1>
}

// -----

// Tests that select broadcasts all three operands.
// CHECK-DAG: #[[$COND:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @select
// CHECK: linalg.generic {indexing_maps = [#[[$COND]], #[[$ROW]], #[[$ID]], #[[$ID]]]
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
func.func @select(%c: tensor<3x1xi1>, %a: tensor<4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = tcc.select %c, %a, %b : (tensor<3x1xi1>, tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Tests that an integer clamp saturates its bounds into the type: a lower
// bound below 0 on ui8 bounds nothing, the upper one compares unsigned.
// CHECK-LABEL: func.func @clamp_ui8
// CHECK: ^bb0(%[[X:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: %[[HI:.*]] = arith.constant 100 : i8
// CHECK-NEXT: %[[ABOVE:.*]] = arith.cmpi ugt, %[[X]], %[[HI]] : i8
// CHECK-NEXT: %[[R:.*]] = arith.select %[[ABOVE]], %[[HI]], %[[X]] : i8
// CHECK-NEXT: linalg.yield %[[R]] : i8
func.func @clamp_ui8(%a: tensor<4xui8>) -> tensor<4xui8> {
  %0 = tcc.clamp %a min -5.0 max 100.0 : tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// Tests that gelu's two forms use erf and tanh.
// CHECK-LABEL: func.func @gelu
// CHECK: math.erf
// CHECK: math.tanh
func.func @gelu(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = tcc.gelu %a : tensor<4xf32>
  %1 = tcc.gelu %a approximate tanh : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Tests that identities (dropout, abs of an unsigned tensor) lower to their
// operand, and that a returned argument is copied into a buffer of its own.
// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32> {bufferization.writable = false}, %[[U:.*]]: tensor<4xi8> {bufferization.writable = false})
// CHECK-NOT: linalg.generic
// CHECK: %[[CA:.*]] = linalg.copy ins(%[[A]] : tensor<4xf32>)
// CHECK: %[[CU:.*]] = linalg.copy ins(%[[U]] : tensor<4xi8>)
// CHECK: return %[[CA]], %[[CU]]
func.func @identities(%a: tensor<4xf32>, %u: tensor<4xui8>) -> (tensor<4xf32>, tensor<4xui8>) {
  %0 = tcc.dropout %a {p = 5.000000e-01 : f64} : tensor<4xf32>
  %1 = tcc.abs %u : tensor<4xui8>
  return %0, %1 : tensor<4xf32>, tensor<4xui8>
}
