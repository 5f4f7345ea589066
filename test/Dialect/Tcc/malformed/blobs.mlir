// Tests that dense_resource blobs are checked: present, exactly the bytes of
// the type (neither too few nor too many), aligned to the element size, and
// with a power-of-two alignment header of at most 4096 (MLIR's parser aborts
// on 0 and allocates whatever a larger one asks).
// RUN: split-file --leading-lines %s %t
// RUN: not tcc-opt %t/missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tcc-opt %t/small.mlir 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not tcc-opt %t/large.mlir 2>&1 | FileCheck %s --check-prefix=LARGE
// RUN: not tcc-opt %t/aligned.mlir 2>&1 | FileCheck %s --check-prefix=ALIGNED
// RUN: not tcc-opt %t/header.mlir 2>&1 | FileCheck %s --check-prefix=HEADER
// RUN: not tcc-opt %t/zero.mlir 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not tcc-opt %t/huge.mlir 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: tcc-opt %t/page.mlir | FileCheck %s --check-prefix=PAGE
// RUN: not tcc-opt %t/no-header.mlir 2>&1 | FileCheck %s --check-prefix=NOHEADER
// RUN: not tcc-opt %t/duplicate.mlir 2>&1 | FileCheck %s --check-prefix=DUPLICATE

//--- missing.mlir
func.func @f() -> tensor<2xf32> {
  // MISSING: missing.mlir:[[# @LINE + 1]]:8: error: 'tcc.constant' op dense_resource 'w' has no blob in the file
  %0 = tcc.constant dense_resource<w> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

//--- small.mlir
func.func @f() -> tensor<4xf32> {
  // SMALL: small.mlir:[[# @LINE + 1]]:8: error: 'tcc.constant' op dense_resource 'w' holds 8 bytes but 'tensor<4xf32>' needs 16
  %0 = tcc.constant dense_resource<w> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
{-#
  dialect_resources: { builtin: { w: "0x040000000000803F00000040" } }
#-}

//--- large.mlir
func.func @f() -> tensor<1xf32> {
  // LARGE: large.mlir:[[# @LINE + 1]]:8: error: 'tcc.constant' op dense_resource 'w' holds 8 bytes but 'tensor<1xf32>' needs 4
  %0 = tcc.constant dense_resource<w> : tensor<1xf32>
  return %0 : tensor<1xf32>
}
{-#
  dialect_resources: { builtin: { w: "0x040000000000803F00000040" } }
#-}

//--- aligned.mlir
func.func @f() -> tensor<1xf64> {
  // ALIGNED: aligned.mlir:[[# @LINE + 1]]:8: error: 'tcc.constant' op dense_resource 'w' is aligned to 4 bytes but its 'f64' elements need 8
  %0 = tcc.constant dense_resource<w> : tensor<1xf64>
  return %0 : tensor<1xf64>
}
{-#
  dialect_resources: { builtin: { w: "0x04000000000000000000F03F" } }
#-}

//--- header.mlir
func.func @f() -> tensor<1xf32> {
  %0 = tcc.constant dense_resource<w> : tensor<1xf32>
  return %0 : tensor<1xf32>
}
{-#
  // HEADER: header.mlir:[[# @LINE + 1]]:38: error: dense_resource 'w' has alignment 3 in its header; blobs are aligned to a power of two up to 4096
  dialect_resources: { builtin: { w: "0x030000000000803F" } }
#-}

//--- zero.mlir
func.func @f() -> tensor<1xf32> {
  %0 = tcc.constant dense_resource<w> : tensor<1xf32>
  return %0 : tensor<1xf32>
}
{-#
  // ZERO: zero.mlir:[[# @LINE + 1]]:38: error: dense_resource 'w' has alignment 0 in its header
  dialect_resources: { builtin: { w: "0x000000000000803F" } }
#-}

//--- huge.mlir
func.func @f() -> tensor<1xf32> {
  %0 = tcc.constant dense_resource<w> : tensor<1xf32>
  return %0 : tensor<1xf32>
}
{-#
  // HUGE: huge.mlir:[[# @LINE + 1]]:38: error: dense_resource 'w' has alignment 2147483648 in its header
  dialect_resources: { builtin: { w: "0x000000800000803F" } }
#-}

//--- page.mlir
// The largest alignment accepted.
func.func @f() -> tensor<1xf32> {
  %0 = tcc.constant dense_resource<w> : tensor<1xf32>
  return %0 : tensor<1xf32>
}
{-#
  // PAGE: w: "0x00100000
  dialect_resources: { builtin: { w: "0x001000000000803F" } }
#-}

//--- no-header.mlir
func.func @f() -> tensor<1xf32> {
  %0 = tcc.constant dense_resource<w> : tensor<1xf32>
  return %0 : tensor<1xf32>
}
{-#
  // NOHEADER: no-header.mlir:[[# @LINE + 1]]:38: error: expected hex string blob for key 'w' to encode alignment in first 4 bytes
  dialect_resources: { builtin: { w: "0x04" } }
#-}

//--- duplicate.mlir
// A second blob under one name is refused: MLIR's parser keeps the last.
func.func @f() -> tensor<2xf32> {
  %0 = tcc.constant dense_resource<w> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: { builtin: {
    w: "0x040000000000803F00000040",
    // DUPLICATE: duplicate.mlir:[[# @LINE + 1]]:5: error: dense_resource 'w' has a second blob (a file holds one per name)
    w: "0x040000000000404000008040"
  } }
#-}
