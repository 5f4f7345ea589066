// Tests that a model with dense_resource weights survives text -> bytecode
// -> text, and that cut-off bytecode gets a diagnostic, not a crash.
// RUN: tcc-opt --emit-bytecode %s -o %t.mlirbc
// RUN: tcc-opt %t.mlirbc | FileCheck %s
// RUN: head -c 100 %t.mlirbc > %t.truncated.mlirbc
// RUN: not tcc-opt %t.truncated.mlirbc 2>&1 | FileCheck %s --check-prefix=TRUNCATED

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
