//===- QuantizedModelTest.cpp - int8 models on the int8 kernels -----------===//
//
// Integer-form layers (what tcc-fold-qdq and calibration write):
// matmul_integer / conv2d_integer with constant weights, an int32 bias,
// requantize (per tensor or per channel) or dequantize, and ReLU. Compiled
// at -O2 they must run as qgemm/qconv2d steps (weights packed at compile
// time, the rest fused into the kernels' epilogue) and equal the reference
// interpreter bit for bit: the kernels' epilogue and tcc.requantize's
// scalar rule are one definition (docs/quantization.md). ctest runs this
// suite again with TCC_ISA=avx2 and portable, so each int8 variant the host
// has is compared.
//
//===----------------------------------------------------------------------===//

#include "ConformanceSupport.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/kernels_int8.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <sstream>

namespace tcc {
namespace conformance {
namespace {

std::string shapeText(const std::vector<int64_t> &shape,
                      const std::string &element) {
  std::string text = "tensor<";
  for (int64_t d : shape)
    text += std::to_string(d) + "x";
  return text + element + ">";
}

/// `tcc.constant dense<[...]> : type` of the values (row-major, flat).
template <class T>
std::string constant(const std::string &name, const std::vector<T> &values,
                     const std::vector<int64_t> &shape,
                     const std::string &element) {
  std::ostringstream os;
  os << "  %" << name << " = tcc.constant dense<";
  if (shape.empty()) {
    os << +values[0];
  } else {
    // A flat list reshaped by its type is not valid MLIR; nest it: the
    // list of dim d holds blocks[d] elements.
    std::vector<size_t> blocks(shape.size(), 1);
    for (size_t d = shape.size(); d-- > 0;)
      blocks[d] = size_t(shape[d]) * (d + 1 < shape.size() ? blocks[d + 1] : 1);
    for (size_t i = 0; i < values.size(); ++i) {
      for (size_t d = 0; d < shape.size(); ++d)
        if (i % blocks[d] == 0)
          os << "[";
      os << +values[i];
      size_t closes = 0;
      for (size_t d = 0; d < shape.size(); ++d)
        if ((i + 1) % blocks[d] == 0)
          ++closes;
      for (size_t c = 0; c < closes; ++c)
        os << "]";
      if (i + 1 < values.size())
        os << ", ";
    }
  }
  os << "> : " << shapeText(shape, element) << "\n";
  return os.str();
}

template <class T>
std::vector<T> randomValues(size_t n, int64_t lo, int64_t hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  std::vector<T> v(n);
  for (T &x : v)
    x = T(dist(gen));
  return v;
}

std::vector<float> randomScales(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(1e-4f, 4e-3f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

std::vector<std::string> stepKinds(const std::vector<uint8_t> &bytes) {
  const tcc::artifact::Model *model = nullptr;
  std::vector<std::string> kinds;
  tcc::runtime::Status s =
      tcc::runtime::verifyArtifactBytes(bytes.data(), bytes.size(), &model);
  EXPECT_TRUE(s.ok()) << s.toString();
  for (uint32_t i = 0; model && model->plan() && i < model->plan()->size(); ++i)
    kinds.push_back(model->plan()->Get(i)->kind()->str());
  return kinds;
}

/// Compiles `ir` at -O2, checks its plan's step kinds, and compares it with
/// the interpreter on two seeded inputs per argument, bit for bit.
void expectInt8Plan(const char *name, const std::string &ir,
                    const std::vector<std::vector<int64_t>> &shapes,
                    const std::vector<ScalarType> &dtypes,
                    const std::vector<std::string> &kinds) {
  std::vector<uint8_t> bytes;
  ASSERT_EQ(compileIR(ir, 2, &bytes), "") << name << "\n" << ir;
  EXPECT_EQ(stepKinds(bytes), kinds) << name << "\n" << ir;
  for (int round = 0; round < 2; ++round) {
    std::vector<Tensor> inputs;
    for (size_t i = 0; i < shapes.size(); ++i) {
      bool isUnsigned = dtypes[i] == kUInt8;
      inputs.push_back(uniformTensor(
          shapes[i], dtypes[i], isUnsigned ? 0 : -128, isUnsigned ? 256 : 128));
    }
    std::vector<Tensor> want, got;
    ASSERT_EQ(runInterpreter(ir, inputs, &want), "") << name;
    ASSERT_EQ(runArtifact(bytes, inputs, &got), "") << name;
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      std::string where;
      EXPECT_EQ(errorInEpsilons(got[i], want[i], &where), 0)
          << name << " output " << i << ": " << where;
    }
  }
  std::printf("[int8 plan] %s on %s: equal to the interpreter\n", name,
              tcc_int8_isa());
}

/// y = relu(requantize(x * W + bias)) per output channel, ui8 x with zero
/// point 121, i8 W [K, N].
std::string linearIR(int64_t m, int64_t k, int64_t n, bool relu,
                     bool perChannel) {
  std::ostringstream ir;
  std::string x = shapeText({m, k}, "ui8"), acc = shapeText({m, n}, "i32"),
              y = shapeText({m, n}, "ui8"), w = shapeText({k, n}, "i8");
  std::string scaleType = perChannel ? shapeText({n}, "f32") : "tensor<f32>";
  std::string zpType = perChannel ? shapeText({n}, "ui8") : "tensor<ui8>";
  ir << "func.func @main(%x: " << x << ") -> " << y << " {\n"
     << constant("w", randomValues<int8_t>(k * n, -127, 127, 1), {k, n}, "i8")
     << "  %xzp = tcc.constant dense<121> : tensor<ui8>\n"
     << "  %wzp = tcc.constant dense<0> : tensor<i8>\n"
     << constant("bias", randomValues<int32_t>(n, -20000, 20000, 2), {n}, "i32")
     << (perChannel ? constant("m", randomScales(n, 3), {n}, "f32")
                    : "  %m = tcc.constant dense<0.00137> : tensor<f32>\n")
     << "  %yzp = tcc.constant dense<5> : " << zpType << "\n"
     << "  %floor = tcc.constant dense<5> : tensor<ui8>\n"
     << "  %acc = tcc.matmul_integer %x, %w, %xzp, %wzp : (" << x << ", " << w
     << ", tensor<ui8>, tensor<i8>) -> " << acc << "\n"
     << "  %sum = tcc.add %acc, %bias : (" << acc << ", "
     << shapeText({n}, "i32") << ") -> " << acc << "\n"
     << "  %q = tcc.requantize %sum, %m, %yzp {axis = 1 : i64} : (" << acc
     << ", " << scaleType << ", " << zpType << ") -> " << y << "\n";
  if (relu)
    ir << "  %y = tcc.maximum %q, %floor : (" << y << ", tensor<ui8>) -> " << y
       << "\n  return %y : " << y << "\n}\n";
  else
    ir << "  return %q : " << y << "\n}\n";
  return ir.str();
}

TEST(QuantizedModel, LinearBiasRequantizeReluPerChannel) {
  expectInt8Plan("linear relu per-channel", linearIR(37, 200, 70, true, true),
                 {{37, 200}}, {kUInt8}, {"qgemm"});
}

TEST(QuantizedModel, LinearRequantizePerTensor) {
  expectInt8Plan("linear per-tensor", linearIR(5, 33, 9, false, false),
                 {{5, 33}}, {kUInt8}, {"qgemm"});
}

TEST(QuantizedModel, TwoLayersSignedOutputAndUnsignedWeights) {
  // ui8 weights with zero point 128 are packed as w - 128; an s8 hidden
  // layer feeds the second GEMM as signed A.
  std::ostringstream ir;
  ir << "func.func @main(%x: tensor<4x3x24xui8>) -> tensor<4x3x10xi8> {\n"
     << constant("w1", randomValues<uint8_t>(24 * 16, 0, 255, 4), {24, 16},
                 "ui8")
     << constant("w2", randomValues<int8_t>(16 * 10, -128, 127, 5), {16, 10},
                 "i8")
     << R"(  %xzp = tcc.constant dense<3> : tensor<ui8>
  %w1zp = tcc.constant dense<128> : tensor<ui8>
  %hzp = tcc.constant dense<-7> : tensor<i8>
  %w2zp = tcc.constant dense<0> : tensor<10xi8>
  %m1 = tcc.constant dense<0.0031> : tensor<f32>
  %m2 = tcc.constant dense<0.011> : tensor<f32>
  %a1 = tcc.matmul_integer %x, %w1, %xzp, %w1zp : (tensor<4x3x24xui8>, tensor<24x16xui8>, tensor<ui8>, tensor<ui8>) -> tensor<4x3x16xi32>
  %h = tcc.requantize %a1, %m1, %hzp : (tensor<4x3x16xi32>, tensor<f32>, tensor<i8>) -> tensor<4x3x16xi8>
  %a2 = tcc.matmul_integer %h, %w2, %hzp, %w2zp : (tensor<4x3x16xi8>, tensor<16x10xi8>, tensor<i8>, tensor<10xi8>) -> tensor<4x3x10xi32>
  %y = tcc.requantize %a2, %m2, %hzp : (tensor<4x3x10xi32>, tensor<f32>, tensor<i8>) -> tensor<4x3x10xi8>
  return %y : tensor<4x3x10xi8>
}
)";
  expectInt8Plan("two layers", ir.str(), {{4, 3, 24}}, {kUInt8},
                 {"qgemm", "qgemm"});
}

TEST(QuantizedModel, LinearDequantizedReluToFloat) {
  std::ostringstream ir;
  ir << "func.func @main(%x: tensor<6x40xi8>) -> tensor<6x12xf32> {\n"
     << constant("w", randomValues<int8_t>(40 * 12, -127, 127, 6), {40, 12},
                 "i8")
     << constant("s", randomScales(12, 7), {12}, "f32")
     << R"(  %xzp = tcc.constant dense<-4> : tensor<i8>
  %wzp = tcc.constant dense<0> : tensor<i8>
  %zero = tcc.constant dense<0> : tensor<12xi32>
  %acc = tcc.matmul_integer %x, %w, %xzp, %wzp : (tensor<6x40xi8>, tensor<40x12xi8>, tensor<i8>, tensor<i8>) -> tensor<6x12xi32>
  %f = tcc.dequantize %acc, %s, %zero : (tensor<6x12xi32>, tensor<12xf32>, tensor<12xi32>) -> tensor<6x12xf32>
  %y = tcc.relu %f : tensor<6x12xf32>
  return %y : tensor<6x12xf32>
}
)";
  expectInt8Plan("linear to f32", ir.str(), {{6, 40}}, {kInt8}, {"qgemm"});
}

/// NCHW conv2d_integer (groups 1 or depthwise) + bias + per-channel
/// requantize + ReLU.
std::string convIR(int64_t batch, int64_t c, int64_t h, int64_t o,
                   int64_t kernel, int64_t stride, int64_t pad, bool depthwise,
                   int64_t outSize) {
  std::ostringstream ir;
  int64_t perGroup = depthwise ? 1 : c;
  std::string x = shapeText({batch, c, h, h}, "ui8"),
              w = shapeText({o, perGroup, kernel, kernel}, "i8"),
              acc = shapeText({batch, o, outSize, outSize}, "i32"),
              y = shapeText({batch, o, outSize, outSize}, "ui8");
  ir << "func.func @main(%x: " << x << ") -> " << y << " {\n"
     << constant(
            "w",
            randomValues<int8_t>(o * perGroup * kernel * kernel, -127, 127, 8),
            {o, perGroup, kernel, kernel}, "i8")
     << constant("bias", randomValues<int32_t>(o, -3000, 3000, 9), {o, 1, 1},
                 "i32")
     << constant("m", randomScales(o, 10), {o}, "f32")
     << "  %xzp = tcc.constant dense<77> : tensor<ui8>\n"
     << "  %wzp = tcc.constant dense<0> : " << shapeText({o}, "i8") << "\n"
     << "  %yzp = tcc.constant dense<9> : " << shapeText({o}, "ui8") << "\n"
     << "  %floor = tcc.constant dense<9> : tensor<ui8>\n"
     << "  %acc = tcc.conv2d_integer %x, %w, %xzp, %wzp {stride = array<i64: "
     << stride << ", " << stride << ">, padding = array<i64: " << pad << ", "
     << pad << ">, groups = " << (depthwise ? c : 1) << " : i64} : (" << x
     << ", " << w << ", tensor<ui8>, " << shapeText({o}, "i8") << ") -> " << acc
     << "\n"
     << "  %sum = tcc.add %acc, %bias : (" << acc << ", "
     << shapeText({o, 1, 1}, "i32") << ") -> " << acc << "\n"
     << "  %q = tcc.requantize %sum, %m, %yzp {axis = 1 : i64} : (" << acc
     << ", " << shapeText({o}, "f32") << ", " << shapeText({o}, "ui8")
     << ") -> " << y << "\n"
     << "  %y = tcc.maximum %q, %floor : (" << y << ", tensor<ui8>) -> " << y
     << "\n  return %y : " << y << "\n}\n";
  return ir.str();
}

TEST(QuantizedModel, ConvBiasRequantizeRelu) {
  // 3x3, stride 2, pad 1: 9x9 -> 5x5.
  expectInt8Plan("conv 3x3/2", convIR(2, 3, 9, 8, 3, 2, 1, false, 5),
                 {{2, 3, 9, 9}}, {kUInt8}, {"qconv2d"});
  // 1x1: 6x6 -> 6x6, 40 channels.
  expectInt8Plan("conv 1x1", convIR(1, 40, 6, 24, 1, 1, 0, false, 6),
                 {{1, 40, 6, 6}}, {kUInt8}, {"qconv2d"});
}

TEST(QuantizedModel, DepthwiseBiasRequantizeRelu) {
  expectInt8Plan("depthwise 3x3", convIR(2, 19, 10, 19, 3, 1, 1, true, 10),
                 {{2, 19, 10, 10}}, {kUInt8}, {"qconv2d"});
  expectInt8Plan("depthwise 5x5/2", convIR(1, 8, 11, 8, 5, 2, 2, true, 6),
                 {{1, 8, 11, 11}}, {kUInt8}, {"qconv2d"});
}

/// conv 3x3 -> depthwise 3x3/2 -> conv 1x1, each requantized to ui8 (the
/// first with ReLU); with `returnMiddle` the depthwise result is also an
/// output.
std::string chainIR(bool returnMiddle) {
  auto t = [](int64_t c, int64_t h, const char *element) {
    return "tensor<2x" + std::to_string(c) + "x" + std::to_string(h) + "x" +
           std::to_string(h) + "x" + element + ">";
  };
  std::string results = t(12, 5, "ui8");
  if (returnMiddle)
    results += ", " + t(16, 5, "ui8");
  std::ostringstream ir;
  ir << "func.func @main(%x: " << t(5, 9, "ui8") << ") -> (" << results
     << ") {\n"
     << constant("w1", randomValues<int8_t>(16 * 5 * 9, -127, 127, 11),
                 {16, 5, 3, 3}, "i8")
     << constant("w2", randomValues<int8_t>(16 * 9, -127, 127, 12),
                 {16, 1, 3, 3}, "i8")
     << constant("w3", randomValues<int8_t>(12 * 16, -127, 127, 13),
                 {12, 16, 1, 1}, "i8")
     << constant("m1", randomScales(16, 14), {16}, "f32")
     << "  %xzp = tcc.constant dense<128> : tensor<ui8>\n"
     << "  %wzp = tcc.constant dense<0> : tensor<i8>\n"
     << "  %zp = tcc.constant dense<2> : tensor<ui8>\n"
     << "  %m = tcc.constant dense<0.0019> : tensor<f32>\n"
     << "  %zp16 = tcc.constant dense<2> : tensor<16xui8>\n"
     << "  %a1 = tcc.conv2d_integer %x, %w1, %xzp, %wzp {padding = "
        "array<i64: 1, 1>} : ("
     << t(5, 9, "ui8") << ", tensor<16x5x3x3xi8>, tensor<ui8>, tensor<i8>) -> "
     << t(16, 9, "i32") << "\n"
     << "  %q1 = tcc.requantize %a1, %m1, %zp16 {axis = 1 : i64} : ("
     << t(16, 9, "i32") << ", tensor<16xf32>, tensor<16xui8>) -> "
     << t(16, 9, "ui8") << "\n"
     << "  %h1 = tcc.maximum %q1, %zp : (" << t(16, 9, "ui8")
     << ", tensor<ui8>) -> " << t(16, 9, "ui8") << "\n"
     << "  %a2 = tcc.conv2d_integer %h1, %w2, %zp, %wzp {stride = "
        "array<i64: 2, 2>, padding = array<i64: 1, 1>, groups = 16 : i64} : ("
     << t(16, 9, "ui8") << ", tensor<16x1x3x3xi8>, tensor<ui8>, tensor<i8>) -> "
     << t(16, 5, "i32") << "\n"
     << "  %h2 = tcc.requantize %a2, %m, %zp : (" << t(16, 5, "i32")
     << ", tensor<f32>, tensor<ui8>) -> " << t(16, 5, "ui8") << "\n"
     << "  %a3 = tcc.conv2d_integer %h2, %w3, %zp, %wzp : ("
     << t(16, 5, "ui8") << ", tensor<12x16x1x1xi8>, tensor<ui8>, tensor<i8>) -> "
     << t(12, 5, "i32") << "\n"
     << "  %h3 = tcc.requantize %a3, %m, %zp : (" << t(12, 5, "i32")
     << ", tensor<f32>, tensor<ui8>) -> " << t(12, 5, "ui8") << "\n"
     << "  return %h3" << (returnMiddle ? ", %h2" : "") << " : " << results
     << "\n}\n";
  return ir.str();
}

/// "nchw->nhwc" and so on, for each step of a plan of qconv2d steps.
std::vector<std::string> convLayouts(const std::vector<uint8_t> &bytes) {
  const tcc::artifact::Model *model = nullptr;
  std::vector<std::string> layouts;
  EXPECT_TRUE(
      tcc::runtime::verifyArtifactBytes(bytes.data(), bytes.size(), &model)
          .ok());
  for (uint32_t i = 0; model && i < model->plan()->size(); ++i)
    if (const tcc::artifact::Qconv2d *c =
            model->plan()->Get(i)->op_as_Qconv2d())
      layouts.push_back(std::string(c->nchw_input() ? "nchw" : "nhwc") +
                        "->" + (c->nchw_output() ? "nchw" : "nhwc"));
  return layouts;
}

TEST(QuantizedModel, ConvolutionChainsStayChannelsLast) {
  // Between the int8 convolutions activations stay NHWC; the compiled
  // chain equals the interpreter's NCHW one.
  std::string ir = chainIR(false);
  expectInt8Plan("conv chain", ir, {{2, 5, 9, 9}}, {kUInt8},
                 {"qconv2d", "qconv2d", "qconv2d"});
  std::vector<uint8_t> bytes;
  ASSERT_EQ(compileIR(ir, 2, &bytes), "");
  EXPECT_EQ(convLayouts(bytes),
            (std::vector<std::string>{"nchw->nhwc", "nhwc->nhwc",
                                      "nhwc->nchw"}));
  // A value the model returns keeps the IR's layout.
  ir = chainIR(true);
  expectInt8Plan("conv chain, middle returned", ir, {{2, 5, 9, 9}}, {kUInt8},
                 {"qconv2d", "qconv2d", "qconv2d"});
  ASSERT_EQ(compileIR(ir, 2, &bytes), "");
  EXPECT_EQ(convLayouts(bytes),
            (std::vector<std::string>{"nchw->nhwc", "nhwc->nchw",
                                      "nchw->nchw"}));
}

/// A ResNet basic block in the integer form calibration writes: h0 =
/// conv 1x1 (x), h1 = relu(conv 3x3 (h0)), then y = quantize(dequantize(
/// requantize(conv 3x3 (h1) + bias)) + dequantize(skip)), with ReLU as a
/// maximum with y's zero point when `relu`. The skip is h0 (written by an
/// int8 convolution) or, with `skipIsInput`, the model's input x.
std::string residualBlockIR(bool skipIsInput, bool relu) {
  auto t = [](const char *element) {
    return std::string("tensor<2x8x6x6x") + element + ">";
  };
  const std::string u8 = t("ui8"), i32 = t("i32"), f32 = t("f32");
  std::ostringstream ir;
  ir << "func.func @main(%x: " << u8 << ") -> " << u8 << " {\n"
     << constant("w0", randomValues<int8_t>(8 * 8, -127, 127, 21),
                 {8, 8, 1, 1}, "i8")
     << constant("w1", randomValues<int8_t>(8 * 8 * 9, -127, 127, 22),
                 {8, 8, 3, 3}, "i8")
     << constant("w2", randomValues<int8_t>(8 * 8 * 9, -127, 127, 23),
                 {8, 8, 3, 3}, "i8")
     << constant("bias", randomValues<int32_t>(8, -3000, 3000, 24), {8, 1, 1},
                 "i32")
     << constant("m2", randomScales(8, 25), {8}, "f32")
     << R"(  %xzp = tcc.constant dense<128> : tensor<ui8>
  %wzp = tcc.constant dense<0> : tensor<i8>
  %hzp = tcc.constant dense<3> : tensor<ui8>
  %m = tcc.constant dense<0.0023> : tensor<f32>
  %pzp = tcc.constant dense<100> : tensor<8xui8>
  %pzp0 = tcc.constant dense<100> : tensor<ui8>
  %ps = tcc.constant dense<0.043> : tensor<f32>
  %rs = tcc.constant dense<0.031> : tensor<f32>
  %ys = tcc.constant dense<0.057> : tensor<f32>
  %yzp = tcc.constant dense<)"
     << (relu ? 0 : 120) << R"(> : tensor<ui8>
)";
  auto conv = [&](const char *out, const char *in, const char *w,
                  const char *zp, bool pad) {
    ir << "  %" << out << " = tcc.conv2d_integer %" << in << ", %" << w
       << ", %" << zp << ", %wzp {padding = array<i64: " << pad << ", " << pad
       << ">} : (" << u8 << ", tensor<8x8x" << (pad ? "3x3" : "1x1")
       << "xi8>, tensor<ui8>, tensor<i8>) -> " << i32 << "\n";
  };
  conv("a0", "x", "w0", "xzp", false);
  ir << "  %h0 = tcc.requantize %a0, %m, %hzp : (" << i32
     << ", tensor<f32>, tensor<ui8>) -> " << u8 << "\n";
  conv("a1", "h0", "w1", "hzp", true);
  ir << "  %q1 = tcc.requantize %a1, %m, %hzp : (" << i32
     << ", tensor<f32>, tensor<ui8>) -> " << u8 << "\n"
     << "  %h1 = tcc.maximum %q1, %hzp : (" << u8 << ", tensor<ui8>) -> " << u8
     << "\n";
  conv("a2", "h1", "w2", "hzp", true);
  const char *skip = skipIsInput ? "x" : "h0";
  const char *skipZp = skipIsInput ? "xzp" : "hzp";
  ir << "  %s2 = tcc.add %a2, %bias : (" << i32 << ", tensor<8x1x1xi32>) -> "
     << i32 << "\n"
     << "  %p = tcc.requantize %s2, %m2, %pzp {axis = 1 : i64} : (" << i32
     << ", tensor<8xf32>, tensor<8xui8>) -> " << u8 << "\n"
     << "  %pf = tcc.dequantize %p, %ps, %pzp0 : (" << u8
     << ", tensor<f32>, tensor<ui8>) -> " << f32 << "\n"
     << "  %rf = tcc.dequantize %" << skip << ", %rs, %" << skipZp << " : ("
     << u8 << ", tensor<f32>, tensor<ui8>) -> " << f32 << "\n"
     << "  %sum = tcc.add %pf, %rf : (" << f32 << ", " << f32 << ") -> " << f32
     << "\n"
     << "  %q = tcc.quantize %sum, %ys, %yzp : (" << f32
     << ", tensor<f32>, tensor<ui8>) -> " << u8 << "\n";
  if (relu)
    ir << "  %y = tcc.maximum %q, %yzp : (" << u8 << ", tensor<ui8>) -> " << u8
       << "\n  return %y : " << u8 << "\n}\n";
  else
    ir << "  return %q : " << u8 << "\n}\n";
  return ir.str();
}

/// The residual layout ("nchw", "nhwc") of each qconv2d step that has a
/// residual.
std::vector<std::string> residualLayouts(const std::vector<uint8_t> &bytes) {
  const tcc::artifact::Model *model = nullptr;
  std::vector<std::string> layouts;
  EXPECT_TRUE(
      tcc::runtime::verifyArtifactBytes(bytes.data(), bytes.size(), &model)
          .ok());
  for (uint32_t i = 0; model && i < model->plan()->size(); ++i)
    if (const tcc::artifact::Qconv2d *c =
            model->plan()->Get(i)->op_as_Qconv2d())
      if (c->epilogue() && c->epilogue()->residual() >= 0)
        layouts.push_back(c->nchw_residual() ? "nchw" : "nhwc");
  return layouts;
}

TEST(QuantizedModel, ResidualAddInQdqFormFusesIntoTheConvolution) {
  // The block is three qconv2d steps: the add, its dequantizes and the
  // quantize run in the last one's epilogue, and the whole block stays
  // NHWC between its ends.
  for (bool relu : {false, true}) {
    std::string ir = residualBlockIR(/*skipIsInput=*/false, relu);
    expectInt8Plan(relu ? "residual block, relu" : "residual block", ir,
                   {{2, 8, 6, 6}}, {kUInt8}, {"qconv2d", "qconv2d", "qconv2d"});
    std::vector<uint8_t> bytes;
    ASSERT_EQ(compileIR(ir, 2, &bytes), "");
    EXPECT_EQ(convLayouts(bytes),
              (std::vector<std::string>{"nchw->nhwc", "nhwc->nhwc",
                                        "nhwc->nchw"}));
    EXPECT_EQ(residualLayouts(bytes), (std::vector<std::string>{"nhwc"}));
  }
  // A skip the model gives is NCHW; the step converts it.
  std::string ir = residualBlockIR(/*skipIsInput=*/true, false);
  expectInt8Plan("residual block, input skip", ir, {{2, 8, 6, 6}}, {kUInt8},
                 {"qconv2d", "qconv2d", "qconv2d"});
  std::vector<uint8_t> bytes;
  ASSERT_EQ(compileIR(ir, 2, &bytes), "");
  EXPECT_EQ(residualLayouts(bytes), (std::vector<std::string>{"nchw"}));
}

TEST(QuantizedModel, ResidualAddInQdqFormFusesIntoTheGemm) {
  // A transformer's residual after a projection: y = quantize(dequantize(
  // requantize(x W + b)) + dequantize(skip)), skip an input of y's shape.
  std::ostringstream ir;
  ir << "func.func @main(%x: tensor<2x7x24xui8>, %skip: tensor<2x7x16xui8>)"
        " -> tensor<2x7x16xui8> {\n"
     << constant("w", randomValues<int8_t>(24 * 16, -127, 127, 41), {24, 16},
                 "i8")
     << constant("bias", randomValues<int32_t>(16, -5000, 5000, 42), {16},
                 "i32")
     << constant("m", randomScales(16, 43), {16}, "f32")
     << R"(  %xzp = tcc.constant dense<128> : tensor<ui8>
  %wzp = tcc.constant dense<0> : tensor<i8>
  %pzp = tcc.constant dense<131> : tensor<16xui8>
  %pzp0 = tcc.constant dense<131> : tensor<ui8>
  %rzp = tcc.constant dense<120> : tensor<ui8>
  %yzp = tcc.constant dense<125> : tensor<ui8>
  %ps = tcc.constant dense<0.021> : tensor<f32>
  %rs = tcc.constant dense<0.017> : tensor<f32>
  %ys = tcc.constant dense<0.029> : tensor<f32>
  %a = tcc.matmul_integer %x, %w, %xzp, %wzp : (tensor<2x7x24xui8>, tensor<24x16xi8>, tensor<ui8>, tensor<i8>) -> tensor<2x7x16xi32>
  %s = tcc.add %a, %bias : (tensor<2x7x16xi32>, tensor<16xi32>) -> tensor<2x7x16xi32>
  %p = tcc.requantize %s, %m, %pzp {axis = 2 : i64} : (tensor<2x7x16xi32>, tensor<16xf32>, tensor<16xui8>) -> tensor<2x7x16xui8>
  %pf = tcc.dequantize %p, %ps, %pzp0 : (tensor<2x7x16xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x7x16xf32>
  %rf = tcc.dequantize %skip, %rs, %rzp : (tensor<2x7x16xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x7x16xf32>
  %sum = tcc.add %rf, %pf : (tensor<2x7x16xf32>, tensor<2x7x16xf32>) -> tensor<2x7x16xf32>
  %y = tcc.quantize %sum, %ys, %yzp : (tensor<2x7x16xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x7x16xui8>
  return %y : tensor<2x7x16xui8>
}
)";
  expectInt8Plan("linear + residual", ir.str(), {{2, 7, 24}, {2, 7, 16}},
                 {kUInt8, kUInt8}, {"qgemm"});
}

TEST(QuantizedModel, MaxPoolOfQuantizedTensorsStaysInt8) {
  // conv -> requantize -> dequantize -> max_pool2d -> reshape -> quantize
  // with the same parameters -> linear, as calibration writes a CNN:
  // tcc-fold-qdq moves the pool and the reshape to the 8-bit tensor and
  // drops the dequantize/quantize pair, so the plan is the conv, one pool
  // kernel and the GEMM, equal to the interpreter's float pool.
  std::ostringstream ir;
  ir << "func.func @main(%x: tensor<2x3x8x8xui8>) -> tensor<2x5xui8> {\n"
     << constant("w", randomValues<int8_t>(6 * 3 * 9, -127, 127, 31),
                 {6, 3, 3, 3}, "i8")
     << constant("w2", randomValues<int8_t>(96 * 5, -127, 127, 32), {96, 5},
                 "i8")
     << R"(  %xzp = tcc.constant dense<128> : tensor<ui8>
  %wzp = tcc.constant dense<0> : tensor<i8>
  %m = tcc.constant dense<0.0037> : tensor<f32>
  %m2 = tcc.constant dense<0.0011> : tensor<f32>
  %hzp = tcc.constant dense<7> : tensor<ui8>
  %hs = tcc.constant dense<0.061> : tensor<f32>
  %a = tcc.conv2d_integer %x, %w, %xzp, %wzp {padding = array<i64: 1, 1>} : (tensor<2x3x8x8xui8>, tensor<6x3x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<2x6x8x8xi32>
  %h = tcc.requantize %a, %m, %hzp : (tensor<2x6x8x8xi32>, tensor<f32>, tensor<ui8>) -> tensor<2x6x8x8xui8>
  %hf = tcc.dequantize %h, %hs, %hzp : (tensor<2x6x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x6x8x8xf32>
  %p = tcc.max_pool2d %hf {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x6x8x8xf32> -> tensor<2x6x4x4xf32>
  %r = tcc.reshape %p : tensor<2x6x4x4xf32> to tensor<2x96xf32>
  %q = tcc.quantize %r, %hs, %hzp : (tensor<2x96xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x96xui8>
  %acc = tcc.matmul_integer %q, %w2, %hzp, %wzp : (tensor<2x96xui8>, tensor<96x5xi8>, tensor<ui8>, tensor<i8>) -> tensor<2x5xi32>
  %y = tcc.requantize %acc, %m2, %hzp : (tensor<2x5xi32>, tensor<f32>, tensor<ui8>) -> tensor<2x5xui8>
  return %y : tensor<2x5xui8>
}
)";
  expectInt8Plan("conv, int8 pool, linear", ir.str(), {{2, 3, 8, 8}},
                 {kUInt8}, {"qconv2d", "kernel", "qgemm"});
}

/// A ResNet stem in integer form: h = requantize(conv 3x3 (x)), an 8-bit
/// p = max_pool2d 3x3/2 (h), then a residual block: q = requantize(conv
/// 3x3 (p)), y = quantize(dequantize(requantize(conv 3x3 (q))) +
/// dequantize(p)), p the block's input and its skip, all of `element` (ui8
/// or i8). With `returnPool`, p is also an output.
std::string stemPoolBlockIR(const std::string &element, bool returnPool) {
  auto t = [&](int64_t c, int64_t h, int64_t w, const std::string &e) {
    return "tensor<2x" + std::to_string(c) + "x" + std::to_string(h) + "x" +
           std::to_string(w) + "x" + e + ">";
  };
  const std::string x = t(3, 10, 12, "ui8"), a = t(8, 10, 12, "i32"),
                    h = t(8, 10, 12, element), b = t(8, 5, 6, "i32"),
                    p = t(8, 5, 6, element), pf = t(8, 5, 6, "f32");
  const std::string zp = element == "ui8" ? "7" : "-5";
  const std::string zpType = "tensor<" + element + ">";
  std::string results = p;
  if (returnPool)
    results += ", " + p;
  std::ostringstream ir;
  ir << "func.func @main(%x: " << x << ") -> (" << results << ") {\n"
     << constant("w1", randomValues<int8_t>(8 * 3 * 9, -127, 127, 51),
                 {8, 3, 3, 3}, "i8")
     << constant("w2", randomValues<int8_t>(8 * 8 * 9, -127, 127, 52),
                 {8, 8, 3, 3}, "i8")
     << constant("w3", randomValues<int8_t>(8 * 8 * 9, -127, 127, 54),
                 {8, 8, 3, 3}, "i8")
     << constant("m1", randomScales(8, 53), {8}, "f32")
     << "  %xzp = tcc.constant dense<128> : tensor<ui8>\n"
     << "  %wzp = tcc.constant dense<0> : tensor<i8>\n"
     << "  %zp = tcc.constant dense<" << zp << "> : " << zpType << "\n"
     << "  %zp8 = tcc.constant dense<" << zp << "> : tensor<8x" << element
     << ">\n"
     << "  %m = tcc.constant dense<0.0021> : tensor<f32>\n"
     << "  %ps = tcc.constant dense<0.043> : tensor<f32>\n"
     << "  %rs = tcc.constant dense<0.031> : tensor<f32>\n"
     << "  %ys = tcc.constant dense<0.057> : tensor<f32>\n"
     << "  %a1 = tcc.conv2d_integer %x, %w1, %xzp, %wzp {padding = array<i64: "
        "1, 1>} : ("
     << x << ", tensor<8x3x3x3xi8>, tensor<ui8>, tensor<i8>) -> " << a << "\n"
     << "  %h = tcc.requantize %a1, %m1, %zp8 {axis = 1 : i64} : (" << a
     << ", tensor<8xf32>, tensor<8x" << element << ">) -> " << h << "\n"
     << "  %p = tcc.max_pool2d %h {kernel_size = array<i64: 3, 3>, stride = "
        "array<i64: 2, 2>, padding = array<i64: 1, 1>} : "
     << h << " -> " << p << "\n"
     << "  %a2 = tcc.conv2d_integer %p, %w2, %zp, %wzp {padding = array<i64: "
        "1, 1>} : ("
     << p << ", tensor<8x8x3x3xi8>, " << zpType << ", tensor<i8>) -> " << b
     << "\n"
     << "  %q = tcc.requantize %a2, %m, %zp : (" << b << ", tensor<f32>, "
     << zpType << ") -> " << p << "\n"
     << "  %a3 = tcc.conv2d_integer %q, %w3, %zp, %wzp {padding = array<i64: "
        "1, 1>} : ("
     << p << ", tensor<8x8x3x3xi8>, " << zpType << ", tensor<i8>) -> " << b
     << "\n"
     << "  %r = tcc.requantize %a3, %m, %zp : (" << b << ", tensor<f32>, "
     << zpType << ") -> " << p << "\n"
     << "  %rf = tcc.dequantize %r, %ps, %zp : (" << p << ", tensor<f32>, "
     << zpType << ") -> " << pf << "\n"
     << "  %sf = tcc.dequantize %p, %rs, %zp : (" << p << ", tensor<f32>, "
     << zpType << ") -> " << pf << "\n"
     << "  %sum = tcc.add %rf, %sf : (" << pf << ", " << pf << ") -> " << pf
     << "\n"
     << "  %y = tcc.quantize %sum, %ys, %zp : (" << pf << ", tensor<f32>, "
     << zpType << ") -> " << p << "\n"
     << "  return %y" << (returnPool ? ", %p" : "") << " : " << results
     << "\n}\n";
  return ir.str();
}

TEST(QuantizedModel, MaxPoolBetweenConvolutionsRunsChannelsLast) {
  // The pool between two int8 convolutions reads and writes NHWC, so that
  // no convolution converts: the first writes NHWC, the block reads its
  // input and its skip NHWC. (Run NCHW on NHWC data, the pool would
  // differ from the interpreter's.)
  for (const char *element : {"ui8", "i8"}) {
    std::string ir = stemPoolBlockIR(element, /*returnPool=*/false);
    expectInt8Plan(element, ir, {{2, 3, 10, 12}}, {kUInt8},
                   {"qconv2d", "kernel", "qconv2d", "qconv2d"});
    std::vector<uint8_t> bytes;
    ASSERT_EQ(compileIR(ir, 2, &bytes), "");
    EXPECT_EQ(convLayouts(bytes),
              (std::vector<std::string>{"nchw->nhwc", "nhwc->nhwc",
                                        "nhwc->nchw"}));
    EXPECT_EQ(residualLayouts(bytes), (std::vector<std::string>{"nhwc"}));
  }
  // A pool the model returns keeps the IR's layout, and so do its ends.
  std::string ir = stemPoolBlockIR("ui8", /*returnPool=*/true);
  expectInt8Plan("pool returned", ir, {{2, 3, 10, 12}}, {kUInt8},
                 {"qconv2d", "kernel", "qconv2d", "qconv2d"});
  std::vector<uint8_t> bytes;
  ASSERT_EQ(compileIR(ir, 2, &bytes), "");
  EXPECT_EQ(convLayouts(bytes),
            (std::vector<std::string>{"nchw->nchw", "nchw->nhwc",
                                      "nhwc->nchw"}));
  EXPECT_EQ(residualLayouts(bytes), (std::vector<std::string>{"nchw"}));
}

TEST(QuantizedModel, MaxPoolOfEightBitTensors) {
  // ui8 and i8 max-pools (padded: the padding reads as the type's lowest
  // value, i8 inputs reach -128), compiled against the interpreter.
  for (const char *element : {"ui8", "i8"}) {
    std::string x = std::string("tensor<2x5x9x9x") + element + ">",
                y = std::string("tensor<2x5x5x5x") + element + ">";
    std::string ir = "func.func @main(%x: " + x + ") -> " + y +
                     " {\n  %y = tcc.max_pool2d %x {kernel_size = array<i64: "
                     "3, 3>, stride = array<i64: 2, 2>, padding = array<i64: "
                     "1, 1>} : " +
                     x + " -> " + y + "\n  return %y : " + y + "\n}\n";
    expectInt8Plan(element, ir, {{2, 5, 9, 9}},
                   {element[0] == 'u' ? kUInt8 : kInt8}, {"kernel"});
  }
}

TEST(QuantizedModel, ChannelsLastMaxPoolReadsItsInputInPlace) {
  // NHWC 8-bit pools (as between int8 convolutions) read taps in the
  // padding at the clamped position and replace them by the type's lowest
  // value instead of copying the image padded: with padding, with
  // ceil_mode windows past the image and dilation, against the
  // interpreter.
  struct Pool {
    const char *attrs, *x, *y;
  } pools[] = {
      {"kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = "
       "array<i64: 1, 1>",
       "2x9x11x5", "2x5x6x5"},
      {"kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = "
       "array<i64: 1, 1>, dilation = array<i64: 2, 2>, ceil_mode = true",
       "2x10x9x5", "2x5x4x5"},
      {"kernel_size = array<i64: 2, 3>, stride = array<i64: 1, 2>, padding = "
       "array<i64: 0, 1>",
       "1x4x7x3", "1x3x4x3"}};
  for (const char *element : {"ui8", "i8"})
    for (const Pool &pool : pools) {
      std::string x = std::string("tensor<") + pool.x + "x" + element + ">",
                  y = std::string("tensor<") + pool.y + "x" + element + ">";
      std::string ir = "func.func @main(%x: " + x + ") -> " + y +
                       " {\n  %y = tcc.max_pool2d %x {" + pool.attrs +
                       ", layout = #tcc.layout<nhwc>} : " + x + " -> " + y +
                       "\n  return %y : " + y + "\n}\n";
      std::vector<int64_t> shape;
      for (const char *p = pool.x; *p;) {
        char *end;
        shape.push_back(std::strtoll(p, &end, 10));
        p = *end ? end + 1 : end;
      }
      expectInt8Plan(pool.attrs, ir, {shape},
                     {element[0] == 'u' ? kUInt8 : kInt8}, {"kernel"});
    }
}

TEST(QuantizedModel, WeightsThatAreNotConstantsRunAsKernels) {
  // The kernels need packed constant weights: a weight given at run time
  // compiles to generated code, with the same results.
  std::string ir =
      R"(func.func @main(%x: tensor<3x8xui8>, %w: tensor<8x5xi8>) -> tensor<3x5xui8> {
  %xzp = tcc.constant dense<1> : tensor<ui8>
  %wzp = tcc.constant dense<0> : tensor<i8>
  %m = tcc.constant dense<0.01> : tensor<f32>
  %yzp = tcc.constant dense<128> : tensor<ui8>
  %acc = tcc.matmul_integer %x, %w, %xzp, %wzp : (tensor<3x8xui8>, tensor<8x5xi8>, tensor<ui8>, tensor<i8>) -> tensor<3x5xi32>
  %y = tcc.requantize %acc, %m, %yzp : (tensor<3x5xi32>, tensor<f32>, tensor<ui8>) -> tensor<3x5xui8>
  return %y : tensor<3x5xui8>
}
)";
  expectInt8Plan("runtime weight", ir, {{3, 8}, {8, 5}}, {kUInt8, kInt8},
                 {"kernel"});
}

} // namespace
} // namespace conformance
} // namespace tcc
