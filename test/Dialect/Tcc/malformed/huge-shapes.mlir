// Tests that shapes whose element count overflows int64_t, and dims that do
// not fit in int64_t, are rejected before MLIR's parser multiplies them.
// RUN: split-file --leading-lines %s %t
// RUN: not tcc-opt %t/count.mlir 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not tcc-opt %t/dim.mlir 2>&1 | FileCheck %s --check-prefix=DIM
// RUN: not tcc-opt %t/splat.mlir 2>&1 | FileCheck %s --check-prefix=SPLAT
// RUN: not tcc-opt %t/bytes.mlir 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: not tcc-opt %t/rank.mlir 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: tcc-opt %t/rank64.mlir | FileCheck %s --check-prefix=RANK64

//--- count.mlir
// COUNT: count.mlir:[[# @LINE + 1]]:18: error: shaped type has more elements than int64_t can count
func.func @f(%x: tensor<4294967296x4294967296xf32>) {
  return
}

//--- dim.mlir
// DIM: dim.mlir:[[# @LINE + 1]]:25: error: dimension 9223372036854775808... does not fit in int64_t
func.func @f(%x: tensor<9223372036854775808xf32>) {
  return
}

//--- splat.mlir
// A splat never materializes its elements, so MLIR alone accepts it.
// SPLAT: splat.mlir:[[# @LINE + 1]]:34: error: shaped type has more elements than int64_t can count
  %0 = tcc.constant dense<1.0> : tensor<3037000500x3037000500xf32>

//--- bytes.mlir
// The count fits; the byte size (2^61 x 4) does not: the verifier says so.
func.func @f(%x: tensor<2305843009213693952xf32>) -> tensor<2305843009213693952xf32> {
  // BYTES: bytes.mlir:[[# @LINE + 1]]:8: error: 'tcc.neg' op operand #0 has type 'tensor<2305843009213693952xf32>' whose size in bytes overflows int64_t
  %0 = tcc.neg %x : tensor<2305843009213693952xf32>
  return %0 : tensor<2305843009213693952xf32>
}

//--- rank.mlir
// A rank above 64 is refused before MLIR's parser, which is quadratic in it.
// RANK: rank.mlir:[[# @LINE + 1]]:18: error: shaped type has more than 64 dimensions
func.func @f(%x: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>) {
  return
}

//--- rank64.mlir
// RANK64: func.func @f
func.func @f(%x: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>) {
  return
}
