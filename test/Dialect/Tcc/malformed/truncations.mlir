// Tests that IR of every op cut off anywhere either still parses or gets a
// diagnostic and exit status 1, never a crash: 40 prefixes of ops.mlir,
// parsed and canonicalized; and 20 prefixes of a model whose weights are a
// dense_resource blob, most cut inside its hex string (MLIR's lexer must
// never read past the end of the buffer).
// RUN: %python %S/cut_sweep.py tcc-opt %S/../ops.mlir 40 --split-input-file --canonicalize | FileCheck %s
// RUN: %python %S/cut_sweep.py tcc-opt %S/Inputs/weights.mlir 20 | FileCheck %s --check-prefix=BLOB
// CHECK: 40 prefixes, 0 crashes
// BLOB: 20 prefixes, 0 crashes
