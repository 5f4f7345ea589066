// Tests that tcc-opt takes mlir-opt's pipeline and debugging flags.
// RUN: tcc-opt --pass-pipeline='builtin.module(func.func(canonicalize))' %s | FileCheck %s
// RUN: tcc-opt --canonicalize --mlir-print-ir-after-all %s 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: tcc-opt --show-dialects | FileCheck %s --check-prefix=DIALECTS

// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK-NEXT: return %[[X]]
// AFTER: IR Dump After Canonicalizer (canonicalize)
// AFTER: func.func @f
// DIALECTS: Available Dialects: {{.*}}tcc
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tcc.dropout %x {p = 0.5 : f64} : tensor<3xf32>
  return %0 : tensor<3xf32>
}
