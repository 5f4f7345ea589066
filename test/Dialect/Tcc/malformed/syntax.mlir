// Tests that malformed text gets a located diagnostic and a non-zero exit:
// a file cut off mid-op, unknown ops and dialects, bad types, an unterminated
// string, a literal of the wrong size, and binary garbage.
// RUN: split-file --leading-lines %s %t
// RUN: head -c 120 %t/whole.mlir > %t/truncated.mlir
// RUN: not tcc-opt %t/truncated.mlir 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: truncated.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// RUN: not tcc-opt %t/unknown-op.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWNOP
// RUN: not tcc-opt %t/unknown-dialect.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWNDIALECT
// RUN: not tcc-opt %t/bad-type.mlir 2>&1 | FileCheck %s --check-prefix=BADTYPE
// RUN: not tcc-opt %t/bad-element.mlir 2>&1 | FileCheck %s --check-prefix=BADELEMENT
// RUN: not tcc-opt %t/string.mlir 2>&1 | FileCheck %s --check-prefix=STRING
// RUN: not tcc-opt %t/literal.mlir 2>&1 | FileCheck %s --check-prefix=LITERAL
// RUN: %python -c "import sys; sys.stdout.buffer.write(bytes(range(256)) * 4)" > %t/garbage.mlir
// RUN: not tcc-opt %t/garbage.mlir 2>&1 | FileCheck %s --check-prefix=GARBAGE
// Its last line opens a string (byte 0x22) that the end of the file leaves
// open, which the scan before MLIR's parser refuses.
// GARBAGE: garbage.mlir:5:{{[0-9]+}}: error: string is not closed before the end of the file

//--- whole.mlir
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tcc.add %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

//--- unknown-op.mlir
func.func @f(%x: tensor<2xf32>) {
  // UNKNOWNOP: unknown-op.mlir:[[# @LINE + 1]]:8: error: custom op 'tcc.frobnicate' is unknown
  %0 = tcc.frobnicate %x : tensor<2xf32>
  return
}

//--- unknown-dialect.mlir
func.func @f(%x: tensor<2xf32>) {
  // UNKNOWNDIALECT: unknown-dialect.mlir:[[# @LINE + 1]]:8: error: Dialect `nope' not found for custom op 'nope.op'
  %0 = nope.op %x : tensor<2xf32>
  return
}

//--- bad-type.mlir
// BADTYPE: bad-type.mlir:[[# @LINE + 1]]:27: error: expected non-function type
func.func @f(%x: tensor<2xfoo>) {
  return
}

//--- bad-element.mlir
func.func @f(%x: tensor<2xindex>) {
  // BADELEMENT: bad-element.mlir:[[# @LINE + 1]]:8: error: 'tcc.relu' op operand #0 must be statically shaped tensor of numeric (not i1) values, but got 'tensor<2xindex>'
  %0 = tcc.relu %x : tensor<2xindex>
  return
}

//--- string.mlir
// STRING: string.mlir:[[# @LINE + 1]]:39: error: expected '"' in string literal
func.func @f() attributes {s = "no end
  return
}

//--- literal.mlir
func.func @f() -> tensor<3xf32> {
  // LITERAL: literal.mlir:[[# @LINE + 1]]:39: error: inferred shape of elements literal ([2]) does not match type ([3])
  %0 = tcc.constant dense<[1.0, 2.0]> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
