// RUN: tcc-opt --split-input-file --verify-diagnostics %s

// Tests that binary operands must broadcast.
func.func @add_no_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{shapes 'tensor<4x3xf32>' and 'tensor<5xf32>' do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.add %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that binary operands share an element type.
func.func @add_mixed_types(%a: tensor<3xf32>, %b: tensor<3xf64>) {
  // expected-error @+2 {{operands have different element types: 'f32' and 'f64'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.add %a, %b : (tensor<3xf32>, tensor<3xf64>) -> tensor<3xf32>
  return
}

// -----

// Tests that the contraction dimensions of matmul agree.
func.func @matmul_contraction(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{contraction dimensions differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tcc.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

// Tests that reshape keeps the element count.
func.func @reshape_count(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot reshape 'tensor<2x3xf32>' (6 elements) to 'tensor<7xf32>' (7 elements)}}
  %0 = tcc.reshape %a : tensor<2x3xf32> to tensor<7xf32>
  return
}

// -----

// Tests that a dense_resource blob must exist.
func.func @missing_blob() {
  // expected-error @+1 {{dense_resource 'nope' has no blob in the file}}
  %0 = tcc.constant dense_resource<nope> : tensor<2xf32>
  return
}
