// RUN: tcc-opt --split-input-file --tcc-merge-linears %s | FileCheck %s

// Tests that q, k and v projections of one input become one linear whose
// weight and bias stack theirs in program order, each old result a slice of
// the merged one along the last dim.
// CHECK-LABEL: func.func @qkv
// CHECK-SAME: (%[[X:.*]]: tensor<8x1x4xf32>)
// CHECK-DAG: %[[WQ:.*]] = tcc.constant dense<1.000000e+00> : tensor<2x4xf32>
// CHECK-DAG: %[[BQ:.*]] = tcc.constant dense<1.000000e+01> : tensor<2xf32>
// CHECK-DAG: %[[WK:.*]] = tcc.constant dense<2.000000e+00> : tensor<2x4xf32>
// CHECK-DAG: %[[BK:.*]] = tcc.constant dense<2.000000e+01> : tensor<2xf32>
// CHECK-DAG: %[[WV:.*]] = tcc.constant dense<3.000000e+00> : tensor<3x4xf32>
// CHECK-DAG: %[[BV:.*]] = tcc.constant dense<3.000000e+01> : tensor<3xf32>
// CHECK: %[[W:.*]] = tcc.concat %[[WQ]], %[[WK]], %[[WV]] {dim = 0 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<7x4xf32>
// CHECK: %[[B:.*]] = tcc.concat %[[BQ]], %[[BK]], %[[BV]] {dim = 0 : i64} : (tensor<2xf32>, tensor<2xf32>, tensor<3xf32>) -> tensor<7xf32>
// CHECK: %[[M:.*]] = tcc.linear %[[X]], %[[W]], %[[B]] : (tensor<8x1x4xf32>, tensor<7x4xf32>, tensor<7xf32>) -> tensor<8x1x7xf32>
// CHECK: %[[Q:.*]] = tcc.slice %[[M]] {end = array<i64: 8, 1, 2>, start = array<i64: 0, 0, 0>, step = array<i64: 1, 1, 1>}
// CHECK: %[[K:.*]] = tcc.slice %[[M]] {end = array<i64: 8, 1, 4>, start = array<i64: 0, 0, 2>, step = array<i64: 1, 1, 1>}
// CHECK: %[[V:.*]] = tcc.slice %[[M]] {end = array<i64: 8, 1, 7>, start = array<i64: 0, 0, 4>, step = array<i64: 1, 1, 1>}
// CHECK-NOT: tcc.linear
// CHECK: tcc.reshape %[[Q]]
// CHECK: tcc.transpose %[[K]]
// CHECK: tcc.reshape %[[V]]
func.func @qkv(%x: tensor<8x1x4xf32>) -> tensor<8x3xf32> {
  %wq = tcc.constant dense<1.0> : tensor<2x4xf32>
  %bq = tcc.constant dense<10.0> : tensor<2xf32>
  %q = tcc.linear %x, %wq, %bq : (tensor<8x1x4xf32>, tensor<2x4xf32>, tensor<2xf32>) -> tensor<8x1x2xf32>
  %q2 = tcc.reshape %q : tensor<8x1x2xf32> to tensor<8x2xf32>
  %wk = tcc.constant dense<2.0> : tensor<2x4xf32>
  %bk = tcc.constant dense<20.0> : tensor<2xf32>
  %k = tcc.linear %x, %wk, %bk : (tensor<8x1x4xf32>, tensor<2x4xf32>, tensor<2xf32>) -> tensor<8x1x2xf32>
  %kt = tcc.transpose %k {permutation = array<i64: 1, 2, 0>} : tensor<8x1x2xf32> -> tensor<1x2x8xf32>
  %kt2 = tcc.reshape %kt : tensor<1x2x8xf32> to tensor<2x8xf32>
  %s = tcc.matmul %q2, %kt2 : (tensor<8x2xf32>, tensor<2x8xf32>) -> tensor<8x8xf32>
  %wv = tcc.constant dense<3.0> : tensor<3x4xf32>
  %bv = tcc.constant dense<30.0> : tensor<3xf32>
  %v = tcc.linear %x, %wv, %bv : (tensor<8x1x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<8x1x3xf32>
  %v2 = tcc.reshape %v : tensor<8x1x3xf32> to tensor<8x3xf32>
  %o = tcc.matmul %s, %v2 : (tensor<8x8xf32>, tensor<8x3xf32>) -> tensor<8x3xf32>
  return %o : tensor<8x3xf32>
}

// -----

// Tests that linears without biases merge without one.
// CHECK-LABEL: func.func @no_bias
// CHECK: %[[W:.*]] = tcc.concat
// CHECK-NOT: tcc.concat
// CHECK: %[[M:.*]] = tcc.linear %{{.*}}, %[[W]] : (tensor<4x4xf32>, tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK: tcc.slice %[[M]] {end = array<i64: 4, 4>, start = array<i64: 0, 0>
// CHECK: tcc.slice %[[M]] {end = array<i64: 4, 8>, start = array<i64: 0, 4>
func.func @no_bias(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %wa = tcc.constant dense<1.0> : tensor<4x4xf32>
  %a = tcc.linear %x, %wa : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %wb = tcc.constant dense<2.0> : tensor<4x4xf32>
  %b = tcc.linear %x, %wb : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = tcc.matmul %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}

// -----

// Tests that a linear with a user other than a matmul (here an add that
// tcc-fuse-epilogues would put into its GEMM) stays; the other two merge.
// CHECK-LABEL: func.func @epilogue_stays
// CHECK: %[[M:.*]] = tcc.linear %[[X:.*]], %{{.*}}, %{{.*}} : (tensor<4x4xf32>, tensor<8x4xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK: %[[R:.*]] = tcc.linear %[[X]], %{{.*}}, %{{.*}} : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
// CHECK: tcc.add %[[R]], %[[X]]
func.func @epilogue_stays(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %w = tcc.constant dense<1.0> : tensor<4x4xf32>
  %b = tcc.constant dense<0.5> : tensor<4xf32>
  %a = tcc.linear %x, %w, %b : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %r = tcc.linear %x, %w, %b : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %res = tcc.add %r, %x : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = tcc.linear %x, %w, %b : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %m = tcc.matmul %a, %c : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m, %res : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Tests the cases that must not merge: different inputs (each linear is
// then alone), a bias on one linear but not the other, a weight that is not
// a constant, and a result that is returned (not only read by matmuls).
// CHECK-LABEL: func.func @no_merge
// CHECK-NOT: tcc.concat
// CHECK-NOT: tcc.slice
// CHECK-COUNT-6: tcc.linear
// CHECK-NOT: tcc.linear
func.func @no_merge(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>, %wx: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %w = tcc.constant dense<1.0> : tensor<4x4xf32>
  %b = tcc.constant dense<0.5> : tensor<4xf32>
  // Different inputs.
  %a = tcc.linear %x, %w, %b : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %c = tcc.linear %y, %w, %b : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %m1 = tcc.matmul %a, %c : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  // A bias on one only.
  %d = tcc.linear %m1, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = tcc.linear %m1, %w, %b : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %m2 = tcc.matmul %d, %e : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  // A weight that is an argument.
  %f = tcc.linear %m2, %wx : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %g = tcc.linear %m2, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %m3 = tcc.matmul %f, %g : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m1, %m2, %m3, %g : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Tests that a weight some other op reads before the linears stays where it
// is (moving it down to the merged linear would leave that use undominated).
// CHECK-LABEL: func.func @weight_used_before
// CHECK: %[[W:.*]] = tcc.constant dense<1.000000e+00> : tensor<4x4xf32>
// CHECK: tcc.add %{{.*}}, %[[W]]
// CHECK: tcc.concat %[[W]], %[[W]]
// CHECK: tcc.linear
// CHECK-NOT: tcc.linear
func.func @weight_used_before(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>) -> (tensor<4x8xf32>, tensor<4x4xf32>) {
  %w = tcc.constant dense<1.0> : tensor<4x4xf32>
  %u = tcc.add %y, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %a = tcc.linear %x, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = tcc.linear %x, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = tcc.matmul %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = tcc.concat %m, %u {dim = 1 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  return %c, %u : tensor<4x8xf32>, tensor<4x4xf32>
}
