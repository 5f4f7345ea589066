// RUN: tcc-opt --split-input-file --canonicalize %s | FileCheck %s

// Tests that x + (-0.0), x - 0, x * 1, x / 1 and pow(x, 1) fold to x, and
// integer x + 0. For floats -0.0 is the additive identity: -0.0 + 0.0 is
// +0.0.
// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>, %[[I:.*]]: tensor<3xi32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[I]], %[[X]], %[[X]], %[[I]]
func.func @identities(%x: tensor<3xf32>, %i: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi32>) {
  %negzero = tcc.constant dense<-0.0> : tensor<3xf32>
  %zero = tcc.constant dense<0.0> : tensor<3xf32>
  %izero = tcc.constant dense<0> : tensor<3xi32>
  %one = tcc.constant dense<1.0> : tensor<3xf32>
  %ione = tcc.constant dense<1> : tensor<3xi32>
  %0 = tcc.add %x, %negzero : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = tcc.sub %x, %zero : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = tcc.mul %ione, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %3 = tcc.div %x, %one : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %4 = tcc.pow %x, %one : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %5 = tcc.add %izero, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi32>
}

// -----

// Tests that nothing folds where the constant is no identity: float
// x + (+0.0) and x - (-0.0) (wrong for x = -0.0), 0 - x, 1 / x, and float
// x * 0 (NaN, inf and the sign of zero).
// CHECK-LABEL: func.func @identities_not_folded
// CHECK: tcc.add
// CHECK: tcc.add
// CHECK: tcc.sub
// CHECK: tcc.sub
// CHECK: tcc.div
// CHECK: tcc.mul
func.func @identities_not_folded(%x: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %zero = tcc.constant dense<0.0> : tensor<2x3xf32>
  %z = tcc.constant dense<0.0> : tensor<3xf32>
  %nz = tcc.constant dense<-0.0> : tensor<3xf32>
  %one = tcc.constant dense<1.0> : tensor<3xf32>
  %0 = tcc.add %x, %zero : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tcc.add %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = tcc.sub %z, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %3 = tcc.sub %x, %nz : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %4 = tcc.div %one, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %5 = tcc.mul %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Tests that arithmetic on two splats folds, broadcasting to the result.
// CHECK-LABEL: func.func @binary_splats
// CHECK-DAG: %[[ADD:.*]] = tcc.constant dense<3.500000e+00> : tensor<2x3xf32>
// CHECK-DAG: %[[SUB:.*]] = tcc.constant dense<-1.500000e+00> : tensor<3xf32>
// CHECK-DAG: %[[MUL:.*]] = tcc.constant dense<-6> : tensor<3xi32>
// CHECK-DAG: %[[DIV:.*]] = tcc.constant dense<2.500000e-01> : tensor<3xf32>
// CHECK-DAG: %[[POW:.*]] = tcc.constant dense<8.000000e+00> : tensor<3xf32>
// CHECK-DAG: %[[MAX:.*]] = tcc.constant dense<2.500000e+00> : tensor<3xf32>
// CHECK-DAG: %[[MIN:.*]] = tcc.constant dense<-3> : tensor<3xi32>
// CHECK: return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]], %[[POW]], %[[MAX]], %[[MIN]]
func.func @binary_splats() -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi32>) {
  %a = tcc.constant dense<1.0> : tensor<3xf32>
  %b = tcc.constant dense<2.5> : tensor<2x1xf32>
  %c = tcc.constant dense<2.5> : tensor<3xf32>
  %i = tcc.constant dense<2> : tensor<3xi32>
  %j = tcc.constant dense<-3> : tensor<3xi32>
  %f2 = tcc.constant dense<2.0> : tensor<3xf32>
  %f3 = tcc.constant dense<3.0> : tensor<3xf32>
  %f4 = tcc.constant dense<4.0> : tensor<3xf32>
  %0 = tcc.add %a, %b : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %1 = tcc.sub %a, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = tcc.mul %i, %j : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %3 = tcc.div %a, %f4 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %4 = tcc.pow %f2, %f3 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %5 = tcc.maximum %a, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %6 = tcc.minimum %i, %j : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi32>
}

// -----

// Tests that maximum and minimum propagate NaN, as torch.maximum does.
// CHECK-LABEL: func.func @nan_wins
// CHECK: %[[NAN:.*]] = tcc.constant dense<0x7FC00000> : tensor<2xf32>
// CHECK: return %[[NAN]], %[[NAN]]
func.func @nan_wins() -> (tensor<2xf32>, tensor<2xf32>) {
  %nan = tcc.constant dense<0x7FC00000> : tensor<2xf32>
  %one = tcc.constant dense<1.0> : tensor<2xf32>
  %0 = tcc.maximum %one, %nan : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = tcc.minimum %nan, %one : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// Tests that integer remainder and floor_divide fold with Python's signs
// (-7 % 3 == 2, -7 // 3 == -3), and not when dividing by zero.
// CHECK-LABEL: func.func @floor_division
// CHECK-DAG: %[[REM:.*]] = tcc.constant dense<2> : tensor<2xi64>
// CHECK-DAG: %[[DIV:.*]] = tcc.constant dense<-3> : tensor<2xi64>
// CHECK-DAG: %[[REMU:.*]] = tcc.constant dense<1> : tensor<2xui8>
// CHECK-DAG: %[[BYZERO:.*]] = tcc.floor_divide
// CHECK: return %[[REM]], %[[DIV]], %[[REMU]], %[[BYZERO]]
func.func @floor_division() -> (tensor<2xi64>, tensor<2xi64>, tensor<2xui8>, tensor<2xi64>) {
  %a = tcc.constant dense<-7> : tensor<2xi64>
  %b = tcc.constant dense<3> : tensor<2xi64>
  %zero = tcc.constant dense<0> : tensor<2xi64>
  %u = tcc.constant dense<250> : tensor<2xui8>
  %v = tcc.constant dense<3> : tensor<2xui8>
  %0 = tcc.remainder %a, %b : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %1 = tcc.floor_divide %a, %b : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %2 = tcc.remainder %u, %v : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %3 = tcc.floor_divide %a, %zero : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0, %1, %2, %3 : tensor<2xi64>, tensor<2xi64>, tensor<2xui8>, tensor<2xi64>
}

// -----

// Tests that comparisons of splats fold: NaN is unordered (only ne holds),
// ui8 compares unsigned.
// CHECK-LABEL: func.func @comparisons
// CHECK-DAG: %[[T:.*]] = tcc.constant dense<true> : tensor<2xi1>
// CHECK-DAG: %[[F:.*]] = tcc.constant dense<false> : tensor<2xi1>
// CHECK: return %[[T]], %[[F]], %[[T]], %[[F]], %[[T]], %[[F]], %[[F]], %[[T]]
func.func @comparisons() -> (tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>) {
  %one = tcc.constant dense<1.0> : tensor<2xf32>
  %two = tcc.constant dense<2.0> : tensor<2xf32>
  %nan = tcc.constant dense<0x7FC00000> : tensor<2xf32>
  %big = tcc.constant dense<200> : tensor<2xui8>
  %small = tcc.constant dense<100> : tensor<2xui8>
  %0 = tcc.lt %one, %two : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %1 = tcc.gt %one, %two : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %2 = tcc.le %one, %one : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %3 = tcc.ge %one, %two : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %4 = tcc.gt %big, %small : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  %5 = tcc.eq %nan, %nan : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %6 = tcc.le %nan, %one : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %7 = tcc.ne %nan, %nan : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>
}

// -----

// Tests that logical ops fold on splats and logical_not(logical_not(x)) is x.
// CHECK-LABEL: func.func @logical
// CHECK-SAME: (%[[X:.*]]: tensor<2xi1>)
// CHECK-DAG: %[[T:.*]] = tcc.constant dense<true> : tensor<2xi1>
// CHECK-DAG: %[[F:.*]] = tcc.constant dense<false> : tensor<2xi1>
// CHECK: return %[[F]], %[[T]], %[[T]], %[[F]], %[[X]]
func.func @logical(%x: tensor<2xi1>) -> (tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>) {
  %t = tcc.constant dense<true> : tensor<2xi1>
  %f = tcc.constant dense<false> : tensor<2xi1>
  %0 = tcc.logical_and %t, %f : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  %1 = tcc.logical_or %t, %f : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  %2 = tcc.logical_xor %t, %f : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  %3 = tcc.logical_not %t : tensor<2xi1>
  %n = tcc.logical_not %x : tensor<2xi1>
  %4 = tcc.logical_not %n : tensor<2xi1>
  return %0, %1, %2, %3, %4 : tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>
}

// -----

// Tests that float unary ops fold on splats (values from Python's math).
// CHECK-LABEL: func.func @float_unary
// CHECK-DAG: %[[EXP:.*]] = tcc.constant dense<2.71828175> : tensor<2xf32>
// CHECK-DAG: %[[ZERO:.*]] = tcc.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-DAG: %[[SQRT:.*]] = tcc.constant dense<2.000000e+00> : tensor<2xf32>
// CHECK-DAG: %[[RSQRT:.*]] = tcc.constant dense<5.000000e-01> : tensor<2xf32>
// CHECK-DAG: %[[TANH:.*]] = tcc.constant dense<0.761594176> : tensor<2xf32>
// CHECK-DAG: %[[SIG:.*]] = tcc.constant dense<0.731058597> : tensor<2xf32>
// CHECK-DAG: %[[ERF:.*]] = tcc.constant dense<0.842700779> : tensor<2xf32>
// CHECK-DAG: %[[COS:.*]] = tcc.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-DAG: %[[FLOOR:.*]] = tcc.constant dense<-2.000000e+00> : tensor<2xf32>
// CHECK-DAG: %[[CEIL:.*]] = tcc.constant dense<-1.000000e+00> : tensor<2xf32>
// CHECK: return %[[EXP]], %[[ZERO]], %[[ZERO]], %[[SQRT]], %[[RSQRT]], %[[TANH]], %[[SIG]], %[[ERF]], %[[ZERO]], %[[COS]], %[[FLOOR]], %[[CEIL]]
func.func @float_unary() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %zero = tcc.constant dense<0.0> : tensor<2xf32>
  %one = tcc.constant dense<1.0> : tensor<2xf32>
  %four = tcc.constant dense<4.0> : tensor<2xf32>
  %m = tcc.constant dense<-1.5> : tensor<2xf32>
  %0 = tcc.exp %one : tensor<2xf32>
  %1 = tcc.log %one : tensor<2xf32>
  %2 = tcc.log1p %zero : tensor<2xf32>
  %3 = tcc.sqrt %four : tensor<2xf32>
  %4 = tcc.rsqrt %four : tensor<2xf32>
  %5 = tcc.tanh %one : tensor<2xf32>
  %6 = tcc.sigmoid %one : tensor<2xf32>
  %7 = tcc.erf %one : tensor<2xf32>
  %8 = tcc.sin %zero : tensor<2xf32>
  %9 = tcc.cos %zero : tensor<2xf32>
  %10 = tcc.floor %m : tensor<2xf32>
  %11 = tcc.ceil %m : tensor<2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// Tests round (half to even), silu and both gelu forms on splats.
// CHECK-LABEL: func.func @activations
// CHECK-DAG: %[[ROUND:.*]] = tcc.constant dense<2.000000e+00> : tensor<2xf64>
// CHECK-DAG: %[[SILU:.*]] = tcc.constant dense<0.7310585786300049> : tensor<2xf64>
// CHECK-DAG: %[[GELU:.*]] = tcc.constant dense<0.84134474606854293> : tensor<2xf64>
// CHECK-DAG: %[[GELUT:.*]] = tcc.constant dense<0.84119199060827676> : tensor<2xf64>
// CHECK: return %[[ROUND]], %[[SILU]], %[[GELU]], %[[GELUT]]
func.func @activations() -> (tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>) {
  %half = tcc.constant dense<2.5> : tensor<2xf64>
  %one = tcc.constant dense<1.0> : tensor<2xf64>
  %0 = tcc.round %half : tensor<2xf64>
  %1 = tcc.silu %one : tensor<2xf64>
  %2 = tcc.gelu %one : tensor<2xf64>
  %3 = tcc.gelu %one approximate tanh : tensor<2xf64>
  return %0, %1, %2, %3 : tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>
}

// -----

// Tests neg, abs, relu and sign on integer and float splats, and that
// neg(neg(x)) is x.
// CHECK-LABEL: func.func @numeric_unary
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK-DAG: %[[NEG:.*]] = tcc.constant dense<3> : tensor<2xi32>
// CHECK-DAG: %[[RELU:.*]] = tcc.constant dense<0> : tensor<2xi32>
// CHECK-DAG: %[[SIGN:.*]] = tcc.constant dense<-1> : tensor<2xi32>
// CHECK-DAG: %[[FABS:.*]] = tcc.constant dense<1.500000e+00> : tensor<2xf32>
// CHECK: return %[[NEG]], %[[NEG]], %[[RELU]], %[[SIGN]], %[[FABS]], %[[X]]
func.func @numeric_unary(%x: tensor<2xf32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>) {
  %i = tcc.constant dense<-3> : tensor<2xi32>
  %f = tcc.constant dense<-1.5> : tensor<2xf32>
  %0 = tcc.neg %i : tensor<2xi32>
  %1 = tcc.abs %i : tensor<2xi32>
  %2 = tcc.relu %i : tensor<2xi32>
  %3 = tcc.sign %i : tensor<2xi32>
  %4 = tcc.abs %f : tensor<2xf32>
  %n = tcc.neg %x : tensor<2xf32>
  %5 = tcc.neg %n : tensor<2xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// Tests that clamp folds on splats (max wins when min > max) and not on
// other operands.
// CHECK-LABEL: func.func @clamp
// CHECK-DAG: %[[LO:.*]] = tcc.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-DAG: %[[HI:.*]] = tcc.constant dense<6> : tensor<2xi8>
// CHECK-DAG: %[[INV:.*]] = tcc.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-DAG: %[[KEEP:.*]] = tcc.clamp
// CHECK: return %[[LO]], %[[HI]], %[[INV]], %[[KEEP]]
func.func @clamp(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi8>, tensor<2xf32>, tensor<2xf32>) {
  %f = tcc.constant dense<-1.0> : tensor<2xf32>
  %i = tcc.constant dense<100> : tensor<2xi8>
  %0 = tcc.clamp %f min 0.0 max 6.0 : tensor<2xf32>
  %1 = tcc.clamp %i max 6.0 : tensor<2xi8>
  %2 = tcc.clamp %f min 2.0 max 1.0 : tensor<2xf32>
  %3 = tcc.clamp %x min 0.0 : tensor<2xf32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<2xi8>, tensor<2xf32>, tensor<2xf32>
}

// -----

// Tests that dropout folds to its input.
// CHECK-LABEL: func.func @dropout
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK-NEXT: return %[[X]]
func.func @dropout(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tcc.dropout %x {p = 0.5 : f64} : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Tests that select with a splat condition picks its operand, unless that
// operand would need a broadcast.
// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[A:.*]]: tensor<3xf32>, %[[B:.*]]: tensor<3xf32>, %[[S:.*]]: tensor<1xf32>)
// CHECK: %[[KEEP:.*]] = tcc.select
// CHECK: return %[[A]], %[[B]], %[[KEEP]]
func.func @select(%a: tensor<3xf32>, %b: tensor<3xf32>, %s: tensor<1xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %t = tcc.constant dense<true> : tensor<3xi1>
  %f = tcc.constant dense<false> : tensor<3xi1>
  %0 = tcc.select %t, %a, %b : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = tcc.select %f, %a, %b : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = tcc.select %t, %s, %b : (tensor<3xi1>, tensor<1xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Tests that a cast to the same type folds away and casts of splats fold as
// Tensor.to does, except a float out of the integer range.
// CHECK-LABEL: func.func @cast
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK-DAG: %[[TRUNC:.*]] = tcc.constant dense<-2> : tensor<2xi32>
// CHECK-DAG: %[[WRAP:.*]] = tcc.constant dense<44> : tensor<2xi8>
// CHECK-DAG: %[[BOOL:.*]] = tcc.constant dense<true> : tensor<2xi1>
// CHECK-DAG: %[[FROMBOOL:.*]] = tcc.constant dense<1.000000e+00> : tensor<2xf16>
// CHECK-DAG: %[[FROMU8:.*]] = tcc.constant dense<2.550000e+02> : tensor<2xf32>
// CHECK-DAG: %[[KEEP:.*]] = tcc.cast %{{.*}} : tensor<2xf32> to tensor<2xi32>
// CHECK: return %[[X]], %[[TRUNC]], %[[WRAP]], %[[BOOL]], %[[FROMBOOL]], %[[FROMU8]], %[[KEEP]]
func.func @cast(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi32>, tensor<2xi8>, tensor<2xi1>, tensor<2xf16>, tensor<2xf32>, tensor<2xi32>) {
  %f = tcc.constant dense<-2.7> : tensor<2xf32>
  %i = tcc.constant dense<300> : tensor<2xi32>
  %half = tcc.constant dense<0.5> : tensor<2xf32>
  %t = tcc.constant dense<true> : tensor<2xi1>
  %u = tcc.constant dense<255> : tensor<2xui8>
  %huge = tcc.constant dense<1.0e10> : tensor<2xf32>
  %0 = tcc.cast %x : tensor<2xf32> to tensor<2xf32>
  %1 = tcc.cast %f : tensor<2xf32> to tensor<2xi32>
  %2 = tcc.cast %i : tensor<2xi32> to tensor<2xi8>
  %3 = tcc.cast %half : tensor<2xf32> to tensor<2xi1>
  %4 = tcc.cast %t : tensor<2xi1> to tensor<2xf16>
  %5 = tcc.cast %u : tensor<2xui8> to tensor<2xf32>
  %6 = tcc.cast %huge : tensor<2xf32> to tensor<2xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2xf32>, tensor<2xi32>, tensor<2xi8>, tensor<2xi1>, tensor<2xf16>, tensor<2xf32>, tensor<2xi32>
}

// -----

// Tests that a bitcast to the same type folds away, a bitcast of a bitcast
// bitcasts the first input (back to its own type: nothing), and a splat
// folds bit for bit (-0.0 is 0x80000000, a NaN keeps its payload).
// CHECK-LABEL: func.func @bitcast
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[H:.*]]: tensor<2xf16>)
// CHECK-DAG: %[[NEGZERO:.*]] = tcc.constant dense<-2147483648> : tensor<2xi32>
// CHECK-DAG: %[[NAN:.*]] = tcc.constant dense<0x7FC12345> : tensor<2xf32>
// CHECK-DAG: %[[HB:.*]] = tcc.bitcast %[[H]] : tensor<2xf16> to tensor<2xbf16>
// CHECK: return %[[X]], %[[X]], %[[NEGZERO]], %[[NAN]], %[[HB]]
func.func @bitcast(%x: tensor<2xf32>, %h: tensor<2xf16>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xi32>, tensor<2xf32>, tensor<2xbf16>) {
  %negzero = tcc.constant dense<-0.0> : tensor<2xf32>
  %payload = tcc.constant dense<2143363909> : tensor<2xi32>
  %0 = tcc.bitcast %x : tensor<2xf32> to tensor<2xf32>
  %i = tcc.bitcast %x : tensor<2xf32> to tensor<2xi32>
  %1 = tcc.bitcast %i : tensor<2xi32> to tensor<2xf32>
  %2 = tcc.bitcast %negzero : tensor<2xf32> to tensor<2xi32>
  %3 = tcc.bitcast %payload : tensor<2xi32> to tensor<2xf32>
  %4 = tcc.bitcast %h : tensor<2xf16> to tensor<2xbf16>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<2xf32>, tensor<2xi32>, tensor<2xf32>, tensor<2xbf16>
}

// -----

// Tests that reshape of reshape becomes one reshape.
// CHECK-LABEL: func.func @reshape_reshape
// CHECK-NEXT: %[[R:.*]] = tcc.reshape %{{.*}} : tensor<2x3xf32> to tensor<3x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_reshape(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = tcc.reshape %x : tensor<2x3xf32> to tensor<6xf32>
  %1 = tcc.reshape %0 : tensor<6xf32> to tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}

// -----

// Tests that a reshape to the same type folds away and a reshape of a
// constant folds into the constant.
// CHECK-LABEL: func.func @reshape_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[C:.*]] = tcc.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK: return %[[X]], %[[C]]
func.func @reshape_fold(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x2xi32>) {
  %c = tcc.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = tcc.reshape %x : tensor<2x3xf32> to tensor<2x3xf32>
  %1 = tcc.reshape %c : tensor<4xi32> to tensor<2x2xi32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x2xi32>
}

// -----

// Tests that transposes compose, that the identity permutation folds away,
// and that a transpose of a splat folds.
// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-DAG: %[[T:.*]] = tcc.transpose %[[X]] {permutation = array<i64: 2, 1, 0>} : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
// CHECK-DAG: %[[S:.*]] = tcc.constant dense<1.000000e+00> : tensor<3x2xf32>
// CHECK: return %[[T]], %[[X]], %[[X]], %[[S]]
func.func @transpose(%x: tensor<2x3x4xf32>) -> (tensor<4x3x2xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<3x2xf32>) {
  %0 = tcc.transpose %x {permutation = array<i64: 1, 0, 2>} : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %1 = tcc.transpose %0 {permutation = array<i64: 2, 0, 1>} : tensor<3x2x4xf32> -> tensor<4x3x2xf32>
  %2 = tcc.transpose %0 {permutation = array<i64: 1, 0, 2>} : tensor<3x2x4xf32> -> tensor<2x3x4xf32>
  %3 = tcc.transpose %x {permutation = array<i64: 0, 1, 2>} : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  %c = tcc.constant dense<1.0> : tensor<2x3xf32>
  %4 = tcc.transpose %c {permutation = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return %1, %2, %3, %4 : tensor<4x3x2xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<3x2xf32>
}

// -----

// Tests that broadcast_to folds to its input for the same type and into a
// splat constant (within the size guard), but stays otherwise.
// CHECK-LABEL: func.func @broadcast_to
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK-DAG: %[[S:.*]] = tcc.constant dense<7> : tensor<2x3xi64>
// CHECK-DAG: %[[B:.*]] = tcc.broadcast_to %[[X]] : tensor<3xf32> to tensor<2x3xf32>
// CHECK: return %[[X]], %[[S]], %[[B]]
func.func @broadcast_to(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) {
  %c = tcc.constant dense<7> : tensor<3xi64>
  %0 = tcc.broadcast_to %x : tensor<3xf32> to tensor<3xf32>
  %1 = tcc.broadcast_to %c : tensor<3xi64> to tensor<2x3xi64>
  %2 = tcc.broadcast_to %x : tensor<3xf32> to tensor<2x3xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
}

// -----

// Tests that a slice taking everything folds away, a slice of a splat folds,
// and a partial slice stays.
// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32>)
// CHECK-DAG: %[[S:.*]] = tcc.constant dense<2.000000e+00> : tensor<2x3xf32>
// CHECK-DAG: %[[P:.*]] = tcc.slice %[[X]]
// CHECK: return %[[X]], %[[S]], %[[P]]
func.func @slice(%x: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %c = tcc.constant dense<2.0> : tensor<4x3xf32>
  %0 = tcc.slice %x {start = array<i64: 0, 0>, end = array<i64: 4, 3>, step = array<i64: 1, 1>} : tensor<4x3xf32> -> tensor<4x3xf32>
  %1 = tcc.slice %c {start = array<i64: 0, 0>, end = array<i64: 4, 3>, step = array<i64: 2, 1>} : tensor<4x3xf32> -> tensor<2x3xf32>
  %2 = tcc.slice %x {start = array<i64: 1, 0>, end = array<i64: 3, 3>, step = array<i64: 1, 1>} : tensor<4x3xf32> -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<4x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Tests that concat of one input folds away and negative dims normalize.
// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[C:.*]] = tcc.concat %[[X]], %[[X]] {dim = 1 : i64}
// CHECK: return %[[X]], %[[C]]
func.func @concat(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x6xf32>) {
  %0 = tcc.concat %x {dim = 0} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tcc.concat %x, %x {dim = -1} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x6xf32>
}

// -----

// Tests that zero padding folds away and other padding stays.
// CHECK-LABEL: func.func @pad
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[P:.*]] = tcc.pad %[[X]]
// CHECK: return %[[X]], %[[P]]
func.func @pad(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x4xf32>) {
  %0 = tcc.pad %x {pad = array<i64: 0, 0, 0, 0>} : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = tcc.pad %x {pad = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<2x4xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x4xf32>
}

// -----

// Tests that reduction dims normalize to sorted non-negative form, and that
// a keepdim reduction over size-1 dims folds away (without keepdim it stays).
// CHECK-LABEL: func.func @reduce
// CHECK-SAME: (%[[X:.*]]: tensor<2x1x4xf32>)
// CHECK-DAG: %[[S:.*]] = tcc.reduce_sum %[[X]] {dims = array<i64: 0, 2>} : tensor<2x1x4xf32> -> tensor<1xf32>
// CHECK-DAG: %[[M:.*]] = tcc.reduce_max %[[X]] {dims = array<i64: 1>} : tensor<2x1x4xf32> -> tensor<2x4xf32>
// CHECK: return %[[S]], %[[X]], %[[M]]
func.func @reduce(%x: tensor<2x1x4xf32>) -> (tensor<1xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>) {
  %0 = tcc.reduce_sum %x {dims = array<i64: -1, 0>} : tensor<2x1x4xf32> -> tensor<1xf32>
  %1 = tcc.reduce_mean %x {dims = array<i64: -2>, keepdim = true} : tensor<2x1x4xf32> -> tensor<2x1x4xf32>
  %2 = tcc.reduce_max %x {dims = array<i64: 1>} : tensor<2x1x4xf32> -> tensor<2x4xf32>
  return %0, %1, %2 : tensor<1xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>
}

// -----

// Tests that negative dims of argmax, softmax, log_softmax, gather and
// index_select normalize.
// CHECK-LABEL: func.func @dims
// CHECK: tcc.argmin %{{.*}} {dim = 1 : i64}
// CHECK: tcc.softmax %{{.*}} {dim = 1 : i64}
// CHECK: tcc.log_softmax %{{.*}} {dim = 0 : i64}
// CHECK: tcc.gather %{{.*}}, %{{.*}} {dim = 1 : i64}
// CHECK: tcc.index_select %{{.*}}, %{{.*}} {dim = 0 : i64}
func.func @dims(%x: tensor<2x3xf32>, %i: tensor<2x2xi64>, %j: tensor<4xi64>) -> (tensor<2xi64>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<4x3xf32>) {
  %0 = tcc.argmin %x {dim = -1} : tensor<2x3xf32> -> tensor<2xi64>
  %1 = tcc.softmax %x {dim = -1} : tensor<2x3xf32>
  %2 = tcc.log_softmax %x {dim = -2} : tensor<2x3xf32>
  %3 = tcc.gather %x, %i {dim = -1} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  %4 = tcc.index_select %x, %j {dim = -2} : (tensor<2x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return %0, %1, %2, %3, %4 : tensor<2xi64>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<4x3xf32>
}

// -----

// Tests that scatter's negative dim normalizes and that a scatter of no
// updates folds to its input.
// CHECK-LABEL: func.func @scatter
// CHECK: %[[S:.*]] = tcc.scatter %{{.*}}, %{{.*}}, %{{.*}} {dim = 1 : i64}
// CHECK: return %[[S]], %arg0
func.func @scatter(%x: tensor<2x3xf32>, %i: tensor<2x2xi64>, %u: tensor<2x2xf32>, %e: tensor<0x3xi64>, %f: tensor<0x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = tcc.scatter %x, %i, %u {dim = -1} : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<2x2xf32>) -> tensor<2x3xf32>
  %1 = tcc.scatter %x, %e, %f {dim = 0, reduction = #tcc.scatter_reduction<mul>} : (tensor<2x3xf32>, tensor<0x3xi64>, tensor<0x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Tests that an identity that broadcasts x becomes broadcast_to(x): x + (-0.0),
// x * 1 (also with the constant on the left), integer x - 0.
// CHECK-LABEL: func.func @broadcasting_identities
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>, %[[I:.*]]: tensor<1x3xi32>)
// CHECK: %[[A:.*]] = tcc.broadcast_to %[[X]] : tensor<3xf32> to tensor<2x3xf32>
// CHECK: %[[M:.*]] = tcc.broadcast_to %[[X]] : tensor<3xf32> to tensor<2x3xf32>
// CHECK: %[[B:.*]] = tcc.broadcast_to %[[I]] : tensor<1x3xi32> to tensor<4x3xi32>
// CHECK-NOT: tcc.add
// CHECK-NOT: tcc.mul
// CHECK-NOT: tcc.sub
// CHECK: return %[[A]], %[[M]], %[[B]]
func.func @broadcasting_identities(%x: tensor<3xf32>, %i: tensor<1x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xi32>) {
  %nz = tcc.constant dense<-0.0> : tensor<2x3xf32>
  %one = tcc.constant dense<1.0> : tensor<2x1xf32>
  %izero = tcc.constant dense<0> : tensor<4x1xi32>
  %0 = tcc.add %x, %nz : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tcc.mul %one, %x : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = tcc.sub %i, %izero : (tensor<1x3xi32>, tensor<4x1xi32>) -> tensor<4x3xi32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xi32>
}

// -----

// Tests that integer x * 0 folds to zeros, within the size guard.
// CHECK-LABEL: func.func @integer_times_zero
// CHECK: %[[Z:.*]] = tcc.constant dense<0> : tensor<3xi64>
// CHECK: return %[[Z]]
func.func @integer_times_zero(%x: tensor<3xi64>) -> tensor<3xi64> {
  %zero = tcc.constant dense<0> : tensor<3xi64>
  %0 = tcc.mul %x, %zero : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// Tests that a cast through a type holding every value exactly folds into
// one cast (f16 -> f32 -> f64, i8 -> i32 -> f32, the f32 -> f64 -> f32
// round trip, i1 -> f32 -> i64), and that lossy or range-changing chains
// stay: f32 -> f16 -> f32 rounds, f32 -> i32 -> f32 truncates, and
// i64 -> f64 -> i8 is not the wrap-around of an integer cast.
// CHECK-LABEL: func.func @cast_chains
// CHECK-SAME: (%[[H:.*]]: tensor<2xf16>, %[[B:.*]]: tensor<2xi8>, %[[F:.*]]: tensor<2xf32>, %[[P:.*]]: tensor<2xi1>, %[[L:.*]]: tensor<2xi64>)
// CHECK-DAG: %[[HD:.*]] = tcc.cast %[[H]] : tensor<2xf16> to tensor<2xf64>
// CHECK-DAG: %[[BF:.*]] = tcc.cast %[[B]] : tensor<2xi8> to tensor<2xf32>
// CHECK-DAG: %[[PL:.*]] = tcc.cast %[[P]] : tensor<2xi1> to tensor<2xi64>
// CHECK-DAG: %[[FH:.*]] = tcc.cast %[[F]] : tensor<2xf32> to tensor<2xf16>
// CHECK-DAG: %[[FHF:.*]] = tcc.cast %[[FH]] : tensor<2xf16> to tensor<2xf32>
// CHECK-DAG: %[[FI:.*]] = tcc.cast %[[F]] : tensor<2xf32> to tensor<2xi32>
// CHECK-DAG: %[[FIF:.*]] = tcc.cast %[[FI]] : tensor<2xi32> to tensor<2xf32>
// CHECK-DAG: %[[LD:.*]] = tcc.cast %[[L]] : tensor<2xi64> to tensor<2xf64>
// CHECK-DAG: %[[LDB:.*]] = tcc.cast %[[LD]] : tensor<2xf64> to tensor<2xi8>
// CHECK: return %[[HD]], %[[BF]], %[[F]], %[[PL]], %[[FHF]], %[[FIF]], %[[LDB]]
func.func @cast_chains(%h: tensor<2xf16>, %b: tensor<2xi8>, %f: tensor<2xf32>, %p: tensor<2xi1>, %l: tensor<2xi64>) -> (tensor<2xf64>, tensor<2xf32>, tensor<2xf32>, tensor<2xi64>, tensor<2xf32>, tensor<2xf32>, tensor<2xi8>) {
  %0 = tcc.cast %h : tensor<2xf16> to tensor<2xf32>
  %1 = tcc.cast %0 : tensor<2xf32> to tensor<2xf64>
  %2 = tcc.cast %b : tensor<2xi8> to tensor<2xi32>
  %3 = tcc.cast %2 : tensor<2xi32> to tensor<2xf32>
  %4 = tcc.cast %f : tensor<2xf32> to tensor<2xf64>
  %5 = tcc.cast %4 : tensor<2xf64> to tensor<2xf32>
  %6 = tcc.cast %p : tensor<2xi1> to tensor<2xf32>
  %7 = tcc.cast %6 : tensor<2xf32> to tensor<2xi64>
  %8 = tcc.cast %f : tensor<2xf32> to tensor<2xf16>
  %9 = tcc.cast %8 : tensor<2xf16> to tensor<2xf32>
  %10 = tcc.cast %f : tensor<2xf32> to tensor<2xi32>
  %11 = tcc.cast %10 : tensor<2xi32> to tensor<2xf32>
  %12 = tcc.cast %l : tensor<2xi64> to tensor<2xf64>
  %13 = tcc.cast %12 : tensor<2xf64> to tensor<2xi8>
  return %1, %3, %5, %7, %9, %11, %13 : tensor<2xf64>, tensor<2xf32>, tensor<2xf32>, tensor<2xi64>, tensor<2xf32>, tensor<2xf32>, tensor<2xi8>
}

// -----

// Tests that relu and abs are idempotent and abs(neg(x)) is abs(x).
// CHECK-LABEL: func.func @idempotent
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK-NEXT: %[[R:.*]] = tcc.relu %[[X]]
// CHECK-NEXT: %[[A:.*]] = tcc.abs %[[X]]
// CHECK-NEXT: %[[B:.*]] = tcc.abs %[[X]]
// CHECK-NEXT: return %[[R]], %[[A]], %[[B]]
func.func @idempotent(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = tcc.relu %x : tensor<2xf32>
  %1 = tcc.relu %0 : tensor<2xf32>
  %2 = tcc.abs %x : tensor<2xf32>
  %3 = tcc.abs %2 : tensor<2xf32>
  %n = tcc.neg %x : tensor<2xf32>
  %4 = tcc.abs %n : tensor<2xf32>
  return %1, %3, %4 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// Tests that broadcast_to of broadcast_to is one broadcast_to, and that a
// splat broadcast beyond the size guard stays an op.
// CHECK-LABEL: func.func @broadcast_chain
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK-DAG: %[[B:.*]] = tcc.broadcast_to %[[X]] : tensor<3xf32> to tensor<4x2x3xf32>
// CHECK-DAG: %[[BIG:.*]] = tcc.broadcast_to %{{.*}} : tensor<1xf32> to tensor<4096x4xf32>
// CHECK: return %[[B]], %[[BIG]]
func.func @broadcast_chain(%x: tensor<3xf32>) -> (tensor<4x2x3xf32>, tensor<4096x4xf32>) {
  %0 = tcc.broadcast_to %x : tensor<3xf32> to tensor<2x3xf32>
  %1 = tcc.broadcast_to %0 : tensor<2x3xf32> to tensor<4x2x3xf32>
  %s = tcc.constant dense<1.0> : tensor<1xf32>
  %2 = tcc.broadcast_to %s : tensor<1xf32> to tensor<4096x4xf32>
  return %1, %2 : tensor<4x2x3xf32>, tensor<4096x4xf32>
}

// -----

// Tests that a transpose moving only size-1 dims is a reshape (no data
// moves; it then merges with other reshapes), and one moving data stays.
// CHECK-LABEL: func.func @transpose_of_unit_dims
// CHECK-SAME: (%[[X:.*]]: tensor<2x1x1x3xf32>)
// CHECK-DAG: %[[R:.*]] = tcc.reshape %[[X]] : tensor<2x1x1x3xf32> to tensor<2x3xf32>
// CHECK-DAG: %[[T:.*]] = tcc.transpose %[[X]] {permutation = array<i64: 3, 1, 2, 0>}
// CHECK: return %[[R]], %[[T]]
func.func @transpose_of_unit_dims(%x: tensor<2x1x1x3xf32>) -> (tensor<2x3xf32>, tensor<3x1x1x2xf32>) {
  %0 = tcc.transpose %x {permutation = array<i64: 0, 3, 1, 2>} : tensor<2x1x1x3xf32> -> tensor<2x3x1x1xf32>
  %1 = tcc.reshape %0 : tensor<2x3x1x1xf32> to tensor<2x3xf32>
  %2 = tcc.transpose %x {permutation = array<i64: 3, 1, 2, 0>} : tensor<2x1x1x3xf32> -> tensor<3x1x1x2xf32>
  return %1, %2 : tensor<2x3xf32>, tensor<3x1x1x2xf32>
}
