//===- BitcastBitsTest.cpp - Bit patterns through view(dtype)/tcc.bitcast -===//
//
// A bitcast must keep every bit: NaN payloads (quiet and signalling, either
// sign), -0, subnormals and infinities. The conformance group compares NaN
// with NaN only; this test compares bytes, for eager view(dtype), the
// reference interpreter and compiled code at -O0 and -O2, in both directions
// of every float type's same-width pair, and for view(dtype) traced and
// compiled with tcc::jit.
//
//===----------------------------------------------------------------------===//

#include "ConformanceSupport.h"

#include "tcc/jit.h"

#include <gtest/gtest.h>

#include <cstring>

namespace tcc {
namespace conformance {
namespace {

/// The bytes of a contiguous tensor.
std::vector<uint8_t> bytesOf(const Tensor &t) {
  Tensor c = t.contiguous();
  const auto *p = static_cast<const uint8_t *>(c.data_ptr());
  return std::vector<uint8_t>(p, p + c.nbytes());
}

/// A 1-D tensor of `dtype` holding `bits` (each the element's bit pattern,
/// of the element's width).
Tensor fromBits(const std::vector<uint64_t> &bits, ScalarType dtype) {
  Tensor t = empty({int64_t(bits.size())}, TensorOptions().dtype(dtype));
  auto *p = static_cast<uint8_t *>(t.data_ptr());
  size_t size = t.element_size();
  for (size_t i = 0; i < bits.size(); ++i)
    std::memcpy(p + i * size, &bits[i], size); // x86-64: little-endian
  return t;
}

struct Pair {
  ScalarType from, to;
  std::vector<uint64_t> bits; // patterns of `from`'s width
};

// Float patterns: +-0, the smallest and largest subnormals, infinities,
// quiet and signalling NaNs with payloads of either sign, and a normal value.
const std::vector<uint64_t> kF32 = {
    0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x7f800000,
    0xff800000, 0x7fc00000, 0x7fc12345, 0xffc00001, 0x7f800001,
    0xff812345, 0x3f800000};
const std::vector<uint64_t> kF64 = {
    0x0000000000000000, 0x8000000000000000, 0x0000000000000001,
    0x800fffffffffffff, 0x7ff0000000000000, 0xfff0000000000000,
    0x7ff8000000000000, 0x7ff8000012345678, 0xfff8000000000001,
    0x7ff0000000000001, 0xfff0000123456789, 0x3ff0000000000000};
// f16 patterns, read as bf16 they are other kinds (and the other way).
const std::vector<uint64_t> kF16 = {0x0000, 0x8000, 0x0001, 0x83ff, 0x7c00,
                                    0xfc00, 0x7e00, 0x7e15, 0xfe01, 0x7c01,
                                    0xfd23, 0x3c00};
const std::vector<uint64_t> kBF16 = {0x0000, 0x8000, 0x0001, 0x807f, 0x7f80,
                                     0xff80, 0x7fc0, 0x7fc5, 0xffc1, 0x7f81,
                                     0xff93, 0x3f80};

const std::vector<Pair> &pairs() {
  static const std::vector<Pair> all = {
      {kInt, kFloat, kF32},      {kFloat, kInt, kF32},
      {kLong, kDouble, kF64},    {kDouble, kLong, kF64},
      {kHalf, kBFloat16, kF16},  {kBFloat16, kHalf, kBF16},
      {kHalf, kBFloat16, kBF16}, {kBFloat16, kHalf, kF16},
  };
  return all;
}

TEST(BitcastBits, EagerInterpreterAndCompiledKeepEveryBit) {
  for (const Pair &p : pairs()) {
    SCOPED_TRACE(irElementType(p.from) + " to " + irElementType(p.to));
    Tensor x = fromBits(p.bits, p.from);
    std::vector<uint8_t> want = bytesOf(x);

    Tensor eager = x.view(p.to);
    EXPECT_EQ(eager.scalar_type(), p.to);
    EXPECT_EQ(bytesOf(eager), want);

    std::vector<int64_t> shape = {int64_t(p.bits.size())};
    std::string ir = "func.func @main(%x: " + irType(shape, p.from) +
                     ") -> " + irType(shape, p.to) +
                     " {\n  %y = tcc.bitcast %x : " + irType(shape, p.from) +
                     " to " + irType(shape, p.to) + "\n  return %y : " +
                     irType(shape, p.to) + "\n}\n";
    std::vector<Tensor> interpreted;
    ASSERT_EQ(runInterpreter(ir, {x}, &interpreted), "");
    ASSERT_EQ(interpreted.size(), 1u);
    EXPECT_EQ(interpreted[0].scalar_type(), p.to);
    EXPECT_EQ(bytesOf(interpreted[0]), want);

    for (int optLevel : {0, 2}) {
      SCOPED_TRACE("-O" + std::to_string(optLevel));
      std::vector<uint8_t> artifact;
      ASSERT_EQ(compileIR(ir, optLevel, &artifact), "");
      std::vector<Tensor> compiled;
      ASSERT_EQ(runArtifact(artifact, {x}, &compiled), "");
      ASSERT_EQ(compiled.size(), 1u);
      EXPECT_EQ(compiled[0].scalar_type(), p.to);
      EXPECT_EQ(bytesOf(compiled[0]), want);
    }
  }
}

TEST(BitcastBits, TracedAndCompiledViewDtypeKeepsEveryBit) {
  jit::CompileOptions options;
  options.num_threads = 1;
  options.trace.print_warnings = false;
  for (const Pair &p : pairs()) {
    SCOPED_TRACE(irElementType(p.from) + " to " + irElementType(p.to));
    Tensor x = fromBits(p.bits, p.from);
    auto view = [to = p.to](const Tensor &t) { return t.view(to); };
    std::vector<Tensor> traced = jit::trace(view, {x}).run({x});
    ASSERT_EQ(traced.size(), 1u);
    EXPECT_EQ(traced[0].scalar_type(), p.to);
    EXPECT_EQ(bytesOf(traced[0]), bytesOf(x));
    auto compiled = jit::compile(view, {x}, options);
    ASSERT_TRUE(compiled.is_compiled()) << compiled.fallback_reason();
    std::vector<Tensor> out = compiled({x});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].scalar_type(), p.to);
    EXPECT_EQ(bytesOf(out[0]), bytesOf(x));
  }
}

TEST(BitcastBits, EagerRefusesAnotherElementSize) {
  Tensor x = zeros({4}, TensorOptions().dtype(kFloat));
  EXPECT_THROW(x.view(kDouble), std::exception);
  EXPECT_THROW(x.view(kHalf), std::exception);
}

TEST(BitcastBits, EagerViewSharesStorageAndDoesNotRequireGrad) {
  Tensor x = zeros({3}, TensorOptions().dtype(kFloat)).requires_grad_();
  Tensor bits = x.view(kInt);
  EXPECT_FALSE(bits.requires_grad());
  EXPECT_EQ(bits.data_ptr(), x.data_ptr());
  // A view of the same dtype is the tensor itself.
  EXPECT_TRUE(x.view(kFloat).is_same(x));
}

} // namespace
} // namespace conformance
} // namespace tcc
