// Tests that nesting too deep for MLIR's recursive parser is rejected before
// parsing, with a location, instead of overflowing the stack: 100000 nested
// regions, then 100000 nested dense literal brackets.
// RUN: %python -c "n = 100000; print('func.func @f() {' + ' \"test.op\"() ({' * n + '}) : () -> ()' * n + ' return }')" > %t.regions.mlir
// RUN: not tcc-opt --allow-unregistered-dialect %t.regions.mlir 2>&1 | FileCheck %s --check-prefix=REGIONS
// REGIONS: regions.mlir:1:{{[0-9]+}}: error: nesting is deeper than 1024 levels of brackets
// RUN: %python -c "n = 100000; print('func.func @f() -> tensor<1xf32> { %%0 = tcc.constant dense<' + '[' * n + '1.0' + ']' * n + '> : tensor<1xf32> return %%0 : tensor<1xf32> }')" > %t.dense.mlir
// RUN: not tcc-opt %t.dense.mlir 2>&1 | FileCheck %s --check-prefix=DENSE
// DENSE: dense.mlir:1:{{[0-9]+}}: error: nesting is deeper than 1024 levels of brackets
// Nested types count too.
// RUN: %python -c "n = 50000; print('func.func private @f(' + 'tuple<' * n + 'f32' + '>' * n + ')')" > %t.types.mlir
// RUN: not tcc-opt %t.types.mlir 2>&1 | FileCheck %s --check-prefix=TYPES
// TYPES: types.mlir:1:{{[0-9]+}}: error: nesting is deeper than 1024 levels of brackets

// Tests that nesting just under the limit parses, canonicalizes and prints:
// 500 regions of two bracket levels each.
// RUN: %python -c "n = 500; print('func.func @f() {' + ' \"test.op\"() ({' * n + '}) : () -> ()' * n + ' return }')" > %t.ok.mlir
// RUN: tcc-opt --allow-unregistered-dialect --canonicalize %t.ok.mlir | FileCheck %s --check-prefix=OK
// OK: func.func @f()
