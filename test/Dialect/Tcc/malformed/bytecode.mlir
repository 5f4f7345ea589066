// Tests that a model with dense_resource weights survives text -> bytecode
// -> text, and that cut-off bytecode gets a diagnostic, not a crash. MLIR's
// bytecode reader is not hardened against corrupted files, so every tool
// refuses bytecode unless --allow-bytecode vouches for it.
// RUN: tcc-opt --emit-bytecode %s -o %t.mlirbc
// RUN: tcc-opt --allow-bytecode %t.mlirbc | FileCheck %s
// RUN: head -c 100 %t.mlirbc > %t.truncated.mlirbc
// RUN: not tcc-opt --allow-bytecode %t.truncated.mlirbc 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not tcc-opt %t.mlirbc 2>&1 | FileCheck %s --check-prefix=REFUSED -DFILE=%t.mlirbc
// RUN: rm -f %t.bin
// RUN: not tcc compile %t.mlirbc -o %t.bin 2>&1 | FileCheck %s --check-prefix=REFUSED -DFILE=%t.mlirbc
// RUN: not test -e %t.bin
// RUN: tcc compile --allow-bytecode %t.mlirbc -o %t.bin
// RUN: not tcc run-ir %t.mlirbc --input %S/Inputs/x1x3.npy 2>&1 | FileCheck %s --check-prefix=REFUSED -DFILE=%t.mlirbc
// RUN: tcc run-ir --allow-bytecode %t.mlirbc --input %S/Inputs/x1x3.npy | FileCheck %s --check-prefix=OUT
// REFUSED: [[FILE]]{{(:0:0)?}}: error: this is MLIR bytecode, which is read only with --allow-bytecode
// OUT-LABEL: output: f32[1,2]
// OUT-NEXT: 14 32

// CHECK-LABEL: func.func @main
// CHECK-SAME: {tcc.name = "input"}
// CHECK: tcc.constant dense_resource<fc.weight> : tensor<2x3xf32>
// CHECK: tcc.linear
// CHECK: fc.weight: "0x04000000
// TRUNCATED: error:
func.func @main(%x: tensor<1x3xf32> {tcc.name = "input"}) -> (tensor<1x2xf32> {tcc.name = "output"}) {
  %w = tcc.constant dense_resource<fc.weight> : tensor<2x3xf32>
  %0 = tcc.linear %x, %w : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      fc.weight: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}
