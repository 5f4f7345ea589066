// Tests that a decimal literal its float type cannot hold is refused: MLIR's
// parser would make it infinity silently. The largest finite values pass,
// and so do hex literals, which state their bits.
// RUN: split-file --leading-lines %s %t
// RUN: not tcc-opt %t/f32.mlir 2>&1 | FileCheck %s --check-prefix=F32
// RUN: not tcc-opt %t/f16.mlir 2>&1 | FileCheck %s --check-prefix=F16
// RUN: not tcc-opt %t/f16-whole.mlir 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: not tcc-opt %t/bf16.mlir 2>&1 | FileCheck %s --check-prefix=BF16
// RUN: not tcc-opt %t/scalar.mlir 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not tcc compile %t/f32.mlir -o %t/f32.bin 2>&1 | FileCheck %s --check-prefix=F32
// RUN: not tcc run-ir %t/f16.mlir 2>&1 | FileCheck %s --check-prefix=F16
// RUN: tcc-opt %t/largest.mlir | FileCheck %s --check-prefix=LARGEST

//--- f32.mlir
func.func @f() -> tensor<2xf32> {
  // F32: f32.mlir:[[# @LINE + 1]]:28: error: float literal 1.0e999 is out of range of f32 (largest finite value 3.40282347E+38); it would become infinity
  %0 = tcc.constant dense<[1.0e999, 1.0]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

//--- f16.mlir
func.func @f() -> tensor<2x2xf16> {
  // F16: f16.mlir:[[# @LINE + 1]]:34: error: float literal -1.0e10 is out of range of f16 (largest finite value 65504)
  %0 = tcc.constant dense<[[1.0, -1.0e10], [2.0, 3.0]]> : tensor<2x2xf16>
  return %0 : tensor<2x2xf16>
}

//--- f16-whole.mlir
func.func @f() -> tensor<f16> {
  // WHOLE: f16-whole.mlir:[[# @LINE + 1]]:27: error: float literal 65520 is out of range of f16
  %0 = tcc.constant dense<65520> : tensor<f16>
  return %0 : tensor<f16>
}

//--- bf16.mlir
func.func @f() -> tensor<bf16> {
  // BF16: bf16.mlir:[[# @LINE + 1]]:27: error: float literal 1.0e39 is out of range of bf16
  %0 = tcc.constant dense<1.0e39> : tensor<bf16>
  return %0 : tensor<bf16>
}

//--- scalar.mlir
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  // SCALAR: scalar.mlir:[[# @LINE + 1]]:28: error: float literal 1.0e999 is out of range of f64
  %0 = tcc.clamp %x {min = 1.0e999 : f64} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

//--- largest.mlir
// LARGEST: dense<[6.550400e+04, 0x7C00]> : tensor<2xf16>
// LARGEST: dense<3.40282347E+38> : tensor<f32>
func.func @f() -> (tensor<2xf16>, tensor<f32>) {
  %0 = tcc.constant dense<[65519.0, 0x7C00]> : tensor<2xf16>
  %1 = tcc.constant dense<3.4028235e38> : tensor<f32>
  return %0, %1 : tensor<2xf16>, tensor<f32>
}
