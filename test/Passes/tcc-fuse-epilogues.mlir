// RUN: tcc-opt --split-input-file --tcc-fuse-epilogues %s | FileCheck %s
// RUN: tcc-opt --split-input-file --tcc-fuse-epilogues=target=x86_64 %s | FileCheck %s
// RUN: tcc-opt --split-input-file --tcc-fuse-epilogues=target=aarch64 %s | FileCheck %s
// RUN: not tcc-opt --split-input-file --tcc-fuse-epilogues=target=vax %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: tcc-opt --split-input-file --tcc-fuse-epilogues=target=cuda %s | FileCheck %s --check-prefix=CUDA

// Tests that a target the registry lacks is refused by name, listing the
// registered ones.
// UNKNOWN: tcc-fuse-epilogues: unknown target 'vax' (targets: aarch64, cuda, x86_64)

// Tests that a linear with a residual add and a relu becomes one group,
// anchor first.
// CHECK-LABEL: func.func @linear_residual_relu
// CHECK: %[[F:.*]] = tcc.fusion(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tcc.linear
// CHECK-NEXT: tcc.add
// CHECK-NEXT: tcc.relu
// CHECK-NEXT: tcc.yield
// CHECK: return %[[F]]
func.func @linear_residual_relu(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>, %r: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tcc.linear %x, %w, %b : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %1 = tcc.add %0, %r : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = tcc.relu %1 : tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

// -----

// Tests that a chain without an activation stops at the function's return,
// an op without results (which the match once read a result of).
// CHECK-LABEL: func.func @linear_residual_into_return
// CHECK: %[[F:.*]] = tcc.fusion(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tcc.linear
// CHECK-NEXT: tcc.add
// CHECK-NEXT: tcc.yield
// CHECK: return %[[F]]
func.func @linear_residual_into_return(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %r: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tcc.linear %x, %w : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  %1 = tcc.add %0, %r : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}

// -----

// Tests that a per-channel add after a bias-free NCHW convolution is its
// bias, and gelu its activation.
// CHECK-LABEL: func.func @conv_bias_gelu
// CHECK: tcc.fusion
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tcc.conv2d
// CHECK-NEXT: tcc.add
// CHECK-NEXT: tcc.gelu
// CHECK-NEXT: tcc.yield
func.func @conv_bias_gelu(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4x1x1xf32>) -> tensor<1x4x6x6xf32> {
  %0 = tcc.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = tcc.add %b, %0 : (tensor<4x1x1xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %2 = tcc.gelu %1 : tensor<1x4x6x6xf32>
  return %2 : tensor<1x4x6x6xf32>
}

// -----

// Tests that the chain stops after the activation and before an op with a
// second user.
// CHECK-LABEL: func.func @stops
// CHECK: %[[F:.*]] = tcc.fusion
// CHECK: tcc.matmul
// CHECK-NEXT: tcc.relu
// CHECK-NEXT: tcc.yield
// CHECK: tcc.exp %[[F]]
func.func @stops(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = tcc.matmul %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = tcc.relu %0 : tensor<4x4xf32>
  %2 = tcc.exp %1 : tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}

// -----

// Tests that an anchor whose result has two users is left alone.
// CHECK-LABEL: func.func @shared_anchor
// CHECK-NOT: tcc.fusion
func.func @shared_anchor(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = tcc.matmul %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = tcc.relu %0 : tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Tests that a second bias (linear already has one) and non-f32 anchors do
// not fuse.
// CHECK-LABEL: func.func @no_second_bias
// CHECK-NOT: tcc.fusion
func.func @no_second_bias(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>, %m: tensor<4x4xf64>) -> (tensor<4x16xf32>, tensor<4x4xf64>) {
  %0 = tcc.linear %x, %w, %b : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %1 = tcc.add %0, %b : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %2 = tcc.matmul %m, %m : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %3 = tcc.relu %2 : tensor<4x4xf64>
  return %1, %3 : tensor<4x16xf32>, tensor<4x4xf64>
}

// -----

// Tests that a clamp (relu6) is an activation.
// CHECK-LABEL: func.func @relu6
// CHECK: tcc.fusion
// CHECK: tcc.clamp
func.func @relu6(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = tcc.matmul %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = tcc.clamp %0 {min = 0.0 : f64, max = 6.0 : f64} : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// Tests that SiLU spelled mul(x, sigmoid(x)), as ONNX exports write it, in
// either operand order, is the activation, with both its ops in the group.
// CHECK-LABEL: func.func @spelled_silu
// CHECK: tcc.fusion
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tcc.conv2d
// CHECK-NEXT: tcc.add
// CHECK-NEXT: tcc.sigmoid
// CHECK-NEXT: tcc.mul
// CHECK-NEXT: tcc.yield
// CHECK: tcc.fusion
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tcc.matmul
// CHECK-NEXT: tcc.sigmoid
// CHECK-NEXT: tcc.mul
// CHECK-NEXT: tcc.yield
func.func @spelled_silu(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4x1x1xf32>, %a: tensor<4x4xf32>) -> (tensor<1x4x6x6xf32>, tensor<4x4xf32>) {
  %0 = tcc.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = tcc.add %0, %b : (tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) -> tensor<1x4x6x6xf32>
  %2 = tcc.sigmoid %1 : tensor<1x4x6x6xf32>
  %3 = tcc.mul %1, %2 : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %4 = tcc.matmul %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %5 = tcc.sigmoid %4 : tensor<4x4xf32>
  %6 = tcc.mul %5, %4 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %3, %6 : tensor<1x4x6x6xf32>, tensor<4x4xf32>
}

// -----

// Tests that a sigmoid with another user besides the mul (its value is
// needed on its own), or a mul by something else, is no SiLU: the chain
// stops at the anchor.
// CHECK-LABEL: func.func @not_silu
// CHECK-NOT: tcc.fusion
func.func @not_silu(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = tcc.matmul %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = tcc.sigmoid %0 : tensor<4x4xf32>
  %2 = tcc.mul %0, %1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = tcc.matmul %b, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %4 = tcc.sigmoid %3 : tensor<4x4xf32>
  %5 = tcc.mul %3, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1, %2, %5 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Tests that two chains meeting at one add (a ResNet block's convolution and
// its projection shortcut) fuse the add once: into the first anchor's group,
// which then takes the second group's result as its residual.
// CHECK-LABEL: func.func @chains_meet
// CHECK: %[[SHORTCUT:.*]] = tcc.fusion
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tcc.conv2d
// CHECK-NEXT: tcc.add
// CHECK-NEXT: tcc.yield
// CHECK: %[[MAIN:.*]] = tcc.fusion({{.*}}%[[SHORTCUT]]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tcc.conv2d
// CHECK-NEXT: tcc.add
// CHECK-NEXT: tcc.add
// CHECK-NEXT: tcc.relu
// CHECK-NEXT: tcc.yield
// CHECK: return %[[MAIN]]
func.func @chains_meet(%x: tensor<1x4x8x8xf32>, %w1: tensor<4x4x3x3xf32>, %b1: tensor<4x1x1xf32>, %w2: tensor<4x4x1x1xf32>, %b2: tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32> {
  %0 = tcc.conv2d %x, %w1 {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = tcc.add %0, %b1 : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %2 = tcc.conv2d %x, %w2 : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %3 = tcc.add %2, %b2 : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %4 = tcc.add %1, %3 : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %5 = tcc.relu %4 : tensor<1x4x8x8xf32>
  return %5 : tensor<1x4x8x8xf32>
}

// -----

// Tests that an integer matmul's int32 bias, requantize and maximum with
// the output zero point (quantized ReLU) become one group, as the int8
// kernels' epilogue applies them.
// CHECK-LABEL: func.func @matmul_integer_requantize_relu
// CHECK: %[[F:.*]] = tcc.fusion(
// CHECK: tcc.matmul_integer
// CHECK-NEXT: tcc.add
// CHECK-NEXT: tcc.requantize
// CHECK-NEXT: tcc.maximum
// CHECK-NEXT: tcc.yield
// CHECK: return %[[F]]
func.func @matmul_integer_requantize_relu(%x: tensor<4x8xui8>, %w: tensor<8x16xi8>, %b: tensor<16xi32>) -> tensor<4x16xui8> {
  %xzp = tcc.constant dense<3> : tensor<ui8>
  %wzp = tcc.constant dense<0> : tensor<i8>
  %m = tcc.constant dense<0.5> : tensor<f32>
  %yzp = tcc.constant dense<7> : tensor<ui8>
  %0 = tcc.matmul_integer %x, %w, %xzp, %wzp : (tensor<4x8xui8>, tensor<8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<4x16xi32>
  %1 = tcc.add %0, %b : (tensor<4x16xi32>, tensor<16xi32>) -> tensor<4x16xi32>
  %2 = tcc.requantize %1, %m, %yzp : (tensor<4x16xi32>, tensor<f32>, tensor<ui8>) -> tensor<4x16xui8>
  %3 = tcc.maximum %2, %yzp : (tensor<4x16xui8>, tensor<ui8>) -> tensor<4x16xui8>
  return %3 : tensor<4x16xui8>
}

// -----

// Tests that a maximum with another value than the output zero point is
// not ReLU: the group ends at the requantize. A dequantize to f32 and a
// relu after an integer conv are one group.
// CHECK-LABEL: func.func @integer_chains
// CHECK: tcc.fusion(
// CHECK: tcc.matmul_integer
// CHECK-NEXT: tcc.requantize
// CHECK-NEXT: tcc.yield
// CHECK: tcc.maximum
// CHECK: tcc.fusion(
// CHECK: tcc.conv2d_integer
// CHECK-NEXT: tcc.dequantize
// CHECK-NEXT: tcc.relu
// CHECK-NEXT: tcc.yield
func.func @integer_chains(%x: tensor<4x8xui8>, %w: tensor<8x16xi8>, %cx: tensor<1x2x4x4xui8>, %cw: tensor<3x2x1x1xi8>) -> (tensor<4x16xui8>, tensor<1x3x4x4xf32>) {
  %xzp = tcc.constant dense<3> : tensor<ui8>
  %wzp = tcc.constant dense<0> : tensor<i8>
  %m = tcc.constant dense<0.5> : tensor<f32>
  %yzp = tcc.constant dense<7> : tensor<ui8>
  %floor = tcc.constant dense<8> : tensor<ui8>
  %0 = tcc.matmul_integer %x, %w, %xzp, %wzp : (tensor<4x8xui8>, tensor<8x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<4x16xi32>
  %1 = tcc.requantize %0, %m, %yzp : (tensor<4x16xi32>, tensor<f32>, tensor<ui8>) -> tensor<4x16xui8>
  %2 = tcc.maximum %1, %floor : (tensor<4x16xui8>, tensor<ui8>) -> tensor<4x16xui8>
  %zero = tcc.constant dense<0> : tensor<i32>
  %3 = tcc.conv2d_integer %cx, %cw, %xzp, %wzp : (tensor<1x2x4x4xui8>, tensor<3x2x1x1xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x3x4x4xi32>
  %4 = tcc.dequantize %3, %m, %zero : (tensor<1x3x4x4xi32>, tensor<f32>, tensor<i32>) -> tensor<1x3x4x4xf32>
  %5 = tcc.relu %4 : tensor<1x3x4x4xf32>
  return %2, %5 : tensor<4x16xui8>, tensor<1x3x4x4xf32>
}

// -----

// Tests that a residual add in QDQ form after an integer conv's requantize
// (what calibration writes for a ResNet block), and the maximum with the
// output zero point after it, join the conv's group; the residual's
// dequantize comes along, so the group reads the 8-bit skip.
// CHECK-LABEL: func.func @integer_residual_add
// CHECK: %[[F:.*]] = tcc.fusion(%{{.*}}, %{{.*}}, %[[SKIP:[^ ,]*]]
// CHECK: tcc.dequantize
// CHECK: tcc.conv2d_integer
// CHECK-NEXT: tcc.requantize
// CHECK-NEXT: tcc.dequantize
// CHECK-NEXT: tcc.add
// CHECK-NEXT: tcc.quantize
// CHECK-NEXT: tcc.maximum
// CHECK-NEXT: tcc.yield
// CHECK: return %[[F]]
func.func @integer_residual_add(%x: tensor<1x4x8x8xui8>, %w: tensor<4x4x3x3xi8>, %skip: tensor<1x4x8x8xui8>) -> tensor<1x4x8x8xui8> {
  %xzp = tcc.constant dense<3> : tensor<ui8>
  %wzp = tcc.constant dense<0> : tensor<i8>
  %m = tcc.constant dense<0.5> : tensor<f32>
  %pzp = tcc.constant dense<7> : tensor<ui8>
  %s = tcc.constant dense<0.25> : tensor<f32>
  %yzp = tcc.constant dense<9> : tensor<ui8>
  %sf = tcc.dequantize %skip, %s, %xzp : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xf32>
  %0 = tcc.conv2d_integer %x, %w, %xzp, %wzp {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xui8>, tensor<4x4x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x4x8x8xi32>
  %1 = tcc.requantize %0, %m, %pzp : (tensor<1x4x8x8xi32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xui8>
  %2 = tcc.dequantize %1, %s, %pzp : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xf32>
  %3 = tcc.add %2, %sf : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %4 = tcc.quantize %3, %s, %yzp : (tensor<1x4x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xui8>
  %5 = tcc.maximum %4, %yzp : (tensor<1x4x8x8xui8>, tensor<ui8>) -> tensor<1x4x8x8xui8>
  return %5 : tensor<1x4x8x8xui8>
}

// -----

// Tests that the add stays out of the group when a parameter is not a
// constant (the output scale, here) or the product is dequantized at
// another zero point than the requantize's: the group ends at the
// requantize.
// CHECK-LABEL: func.func @integer_residual_add_not_fused
// CHECK: tcc.fusion
// CHECK: tcc.conv2d_integer
// CHECK-NEXT: tcc.requantize
// CHECK-NEXT: tcc.yield
// CHECK: tcc.fusion
// CHECK: tcc.conv2d_integer
// CHECK-NEXT: tcc.requantize
// CHECK-NEXT: tcc.yield
func.func @integer_residual_add_not_fused(%x: tensor<1x4x8x8xui8>, %w: tensor<4x4x3x3xi8>, %skip: tensor<1x4x8x8xui8>, %ys: tensor<f32>) -> (tensor<1x4x8x8xui8>, tensor<1x4x8x8xui8>) {
  %xzp = tcc.constant dense<3> : tensor<ui8>
  %wzp = tcc.constant dense<0> : tensor<i8>
  %m = tcc.constant dense<0.5> : tensor<f32>
  %pzp = tcc.constant dense<7> : tensor<ui8>
  %s = tcc.constant dense<0.25> : tensor<f32>
  %0 = tcc.conv2d_integer %x, %w, %xzp, %wzp {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xui8>, tensor<4x4x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x4x8x8xi32>
  %1 = tcc.requantize %0, %m, %pzp : (tensor<1x4x8x8xi32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xui8>
  %2 = tcc.dequantize %1, %s, %pzp : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xf32>
  %sf = tcc.dequantize %skip, %s, %xzp : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xf32>
  %3 = tcc.add %2, %sf : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %4 = tcc.quantize %3, %ys, %pzp : (tensor<1x4x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xui8>
  %5 = tcc.conv2d_integer %x, %w, %xzp, %wzp {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xui8>, tensor<4x4x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x4x8x8xi32>
  %6 = tcc.requantize %5, %m, %pzp : (tensor<1x4x8x8xi32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xui8>
  %7 = tcc.dequantize %6, %s, %xzp : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xf32>
  %8 = tcc.dequantize %skip, %s, %xzp : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xf32>
  %9 = tcc.add %7, %8 : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %10 = tcc.quantize %9, %s, %pzp : (tensor<1x4x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x8x8xui8>
  return %4, %10 : tensor<1x4x8x8xui8>, tensor<1x4x8x8xui8>
}

// -----

// Tests that ReLU between casts to f32 and back after a bf16 linear (what
// tcc-autocast writes) is the epilogue's activation on cuda, where bf16
// linears are anchors, and not on the CPU targets, where they are not; a
// GELU between casts is not (rounding does not commute with it).
// CHECK-LABEL: func.func @bf16_linear_relu_through_casts
// CHECK-NOT: tcc.fusion
// CUDA-LABEL: func.func @bf16_linear_relu_through_casts
// CUDA: %[[F:.*]] = tcc.fusion(%{{.*}}, %{{.*}})
// CUDA-NEXT: ^bb0
// CUDA-NEXT: tcc.linear
// CUDA-NEXT: tcc.cast {{.*}} to tensor<4x16xf32>
// CUDA-NEXT: tcc.relu
// CUDA-NEXT: tcc.cast {{.*}} to tensor<4x16xbf16>
// CUDA-NEXT: tcc.yield
// CUDA: tcc.linear
// CUDA-NOT: tcc.fusion
// CUDA: return
func.func @bf16_linear_relu_through_casts(%x: tensor<4x8xbf16>, %w: tensor<16x8xbf16>, %w2: tensor<4x16xbf16>) -> (tensor<4x16xbf16>, tensor<4x4xbf16>) {
  %0 = tcc.linear %x, %w : (tensor<4x8xbf16>, tensor<16x8xbf16>) -> tensor<4x16xbf16>
  %1 = tcc.cast %0 : tensor<4x16xbf16> to tensor<4x16xf32>
  %2 = tcc.relu %1 : tensor<4x16xf32>
  %3 = tcc.cast %2 : tensor<4x16xf32> to tensor<4x16xbf16>
  %4 = tcc.linear %3, %w2 : (tensor<4x16xbf16>, tensor<4x16xbf16>) -> tensor<4x4xbf16>
  %5 = tcc.cast %4 : tensor<4x4xbf16> to tensor<4x4xf32>
  %6 = tcc.gelu %5 approximate tanh : tensor<4x4xf32>
  %7 = tcc.cast %6 : tensor<4x4xf32> to tensor<4x4xbf16>
  return %3, %7 : tensor<4x16xbf16>, tensor<4x4xbf16>
}
