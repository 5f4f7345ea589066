//===- KernelTestHarness.cpp - Compile, run and check kernels -------------===//

#include "KernelTestHarness.h"
#include "LoadedKernels.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/APFloat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>

using namespace mlir;

namespace tcc_test {

//===----------------------------------------------------------------------===//
// Dtypes
//===----------------------------------------------------------------------===//

const char *mlirName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I64:
    return "i64";
  case DType::I32:
    return "i32";
  case DType::I8:
    return "i8";
  case DType::UI8:
    return "ui8";
  case DType::Bool:
    return "i1";
  }
  return "?";
}

size_t byteWidth(DType dtype) {
  switch (dtype) {
  case DType::F64:
  case DType::I64:
    return 8;
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F16:
  case DType::BF16:
    return 2;
  default:
    return 1;
  }
}

bool isFloat(DType dtype) {
  return dtype == DType::F32 || dtype == DType::F64 || isHalf(dtype);
}
bool isHalf(DType dtype) { return dtype == DType::F16 || dtype == DType::BF16; }
bool isUnsigned(DType dtype) {
  return dtype == DType::UI8 || dtype == DType::Bool;
}

double minValue(DType dtype) {
  switch (dtype) {
  case DType::I64:
    return -9223372036854775808.0;
  case DType::I32:
    return -2147483648.0;
  case DType::I8:
    return -128;
  case DType::UI8:
  case DType::Bool:
    return 0;
  default:
    return -INFINITY;
  }
}

double maxValue(DType dtype) {
  switch (dtype) {
  case DType::I64:
    return 9223372036854775807.0;
  case DType::I32:
    return 2147483647.0;
  case DType::I8:
    return 127;
  case DType::UI8:
    return 255;
  case DType::Bool:
    return 1;
  default:
    return INFINITY;
  }
}

static const llvm::fltSemantics &halfSemantics(DType dtype) {
  return dtype == DType::F16 ? llvm::APFloat::IEEEhalf()
                             : llvm::APFloat::BFloat();
}

/// f16/bf16 bits of a float, rounded to nearest even.
static uint16_t halfBits(DType dtype, float value) {
  llvm::APFloat f(value);
  bool losesInfo;
  f.convert(halfSemantics(dtype), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
}

static double halfValue(DType dtype, uint16_t bits) {
  llvm::APFloat f(halfSemantics(dtype), llvm::APInt(16, bits));
  bool losesInfo;
  f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return f.convertToDouble();
}

double roundTo(DType dtype, double value) {
  switch (dtype) {
  case DType::F64:
    return value;
  case DType::F32:
    return static_cast<float>(value);
  case DType::F16:
  case DType::BF16:
    return halfValue(dtype, halfBits(dtype, static_cast<float>(value)));
  case DType::Bool:
    return value != 0 ? 1 : 0;
  case DType::I64:
    return static_cast<double>(static_cast<int64_t>(value));
  case DType::I32:
    return static_cast<int32_t>(static_cast<int64_t>(value));
  case DType::I8:
    return static_cast<int8_t>(static_cast<int64_t>(value));
  case DType::UI8:
    return static_cast<uint8_t>(static_cast<int64_t>(value));
  }
  return value;
}

static void store(DType dtype, double value, uint8_t *out) {
  switch (dtype) {
  case DType::F64:
    std::memcpy(out, &value, 8);
    return;
  case DType::F32: {
    float f = static_cast<float>(value);
    std::memcpy(out, &f, 4);
    return;
  }
  case DType::F16:
  case DType::BF16: {
    uint16_t bits = halfBits(dtype, static_cast<float>(value));
    std::memcpy(out, &bits, 2);
    return;
  }
  case DType::I64: {
    int64_t v = static_cast<int64_t>(value);
    std::memcpy(out, &v, 8);
    return;
  }
  case DType::I32: {
    int32_t v = static_cast<int32_t>(static_cast<int64_t>(value));
    std::memcpy(out, &v, 4);
    return;
  }
  case DType::I8:
  case DType::UI8:
    *out = static_cast<uint8_t>(static_cast<int64_t>(value));
    return;
  case DType::Bool:
    *out = value != 0;
    return;
  }
}

static double load(DType dtype, const uint8_t *in) {
  switch (dtype) {
  case DType::F64: {
    double v;
    std::memcpy(&v, in, 8);
    return v;
  }
  case DType::F32: {
    float v;
    std::memcpy(&v, in, 4);
    return v;
  }
  case DType::F16:
  case DType::BF16: {
    uint16_t bits;
    std::memcpy(&bits, in, 2);
    return halfValue(dtype, bits);
  }
  case DType::I64: {
    int64_t v;
    std::memcpy(&v, in, 8);
    return static_cast<double>(v);
  }
  case DType::I32: {
    int32_t v;
    std::memcpy(&v, in, 4);
    return v;
  }
  case DType::I8:
    return static_cast<int8_t>(*in);
  case DType::UI8:
    return *in;
  case DType::Bool:
    return *in; // anything but 0 or 1 fails the comparison
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string Tensor::type() const {
  std::ostringstream os;
  os << "tensor<";
  for (int64_t d : shape)
    os << d << "x";
  os << mlirName(dtype) << ">";
  return os.str();
}

int64_t Tensor::flat(const std::vector<int64_t> &index) const {
  int64_t offset = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    offset = offset * shape[d] + index[d];
  return offset;
}

Tensor zeros(DType dtype, std::vector<int64_t> shape) {
  Tensor t{dtype, std::move(shape), {}};
  t.values.assign(t.numel(), 0.0);
  return t;
}

static uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Tensor random(DType dtype, std::vector<int64_t> shape, double lo, double hi,
              uint64_t seed) {
  Tensor t = zeros(dtype, std::move(shape));
  uint64_t state = seed * 0x2545F4914F6CDD1Dull + 1;
  for (double &v : t.values) {
    double unit = static_cast<double>(splitmix64(state) >> 11) * 0x1p-53;
    v = isFloat(dtype) ? lo + (hi - lo) * unit
                       : std::floor(lo + (hi - lo + 1) * unit);
    v = roundTo(dtype, v);
  }
  return t;
}

int64_t leadingTiles(const std::vector<int64_t> &shape) {
  for (int64_t extent : shape)
    if (extent > 1)
      return extent;
  return 1;
}

std::vector<std::vector<int64_t>> indices(const std::vector<int64_t> &shape) {
  std::vector<std::vector<int64_t>> all;
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t n = 0; n < count; ++n) {
    all.push_back(index);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return all;
}

Tensor generate(DType dtype, std::vector<int64_t> shape,
                const std::function<double(const std::vector<int64_t> &)> &fn) {
  Tensor t = zeros(dtype, std::move(shape));
  for (const auto &index : indices(t.shape))
    t.values[t.flat(index)] = roundTo(dtype, fn(index));
  return t;
}

std::string singleOpFunction(const std::string &name,
                             const std::vector<Tensor> &inputs,
                             const Tensor &result, const std::string &op) {
  std::ostringstream os;
  os << "func.func @" << name << "(";
  for (size_t i = 0; i < inputs.size(); ++i)
    os << (i ? ", " : "") << "%a" << i << ": " << inputs[i].type();
  os << ") -> " << result.type() << " {\n  %r = " << op
     << "\n  return %r : " << result.type() << "\n}\n";
  return os.str();
}

//===----------------------------------------------------------------------===//
// Compile and run
//===----------------------------------------------------------------------===//

std::unique_ptr<MLIRContext> makeContext() {
  DialectRegistry registry;
  tcc::registerCodegenDialects(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  return context;
}

namespace {

bool close(double got, double want, const Tolerance &tolerance) {
  if (std::isnan(want))
    return std::isnan(got);
  if (std::isinf(want) || std::isinf(got))
    return got == want;
  return std::fabs(got - want) <=
         tolerance.abs + tolerance.rel * std::fabs(want);
}

std::string formatIndex(const Tensor &t, int64_t flat) {
  std::vector<int64_t> index(t.shape.size());
  for (size_t d = t.shape.size(); d-- > 0;) {
    index[d] = flat % t.shape[d];
    flat /= t.shape[d];
  }
  std::string out = "[";
  for (size_t d = 0; d < index.size(); ++d)
    out += (d ? "," : "") + std::to_string(index[d]);
  return out + "]";
}

void runOne(KernelFn fn, const tcc::CompiledKernel &kernel, KernelCase &c) {
  std::vector<std::vector<uint8_t>> buffers;
  for (const Tensor &t : c.inputs) {
    buffers.emplace_back(std::max<size_t>(t.numel() * byteWidth(t.dtype), 1));
    for (int64_t i = 0; i < t.numel(); ++i)
      store(t.dtype, t.values[i],
            buffers.back().data() + i * byteWidth(t.dtype));
  }
  // Outputs start as a recognizable pattern so unwritten elements show.
  for (const Tensor &t : c.expected)
    buffers.emplace_back(std::max<size_t>(t.numel() * byteWidth(t.dtype), 1),
                         0xA5);
  for (int64_t bytes : kernel.scratchBytes)
    buffers.emplace_back(std::max<int64_t>(bytes, 1), 0x5A);
  std::vector<void *> bindings;
  for (auto &buffer : buffers)
    bindings.push_back(buffer.data());
  ASSERT_EQ(bindings.size(), kernel.numBindings()) << c.name;

  int64_t half = kernel.tiles / 2;
  fn(bindings.data(), half, kernel.tiles);
  if (half > 0)
    fn(bindings.data(), 0, half);

  for (size_t o = 0; o < c.expected.size(); ++o) {
    const Tensor &want = c.expected[o];
    const uint8_t *data = buffers[c.inputs.size() + o].data();
    int failures = 0;
    for (int64_t i = 0; i < want.numel(); ++i) {
      double got = load(want.dtype, data + i * byteWidth(want.dtype));
      double expected = roundTo(want.dtype, want.values[i]);
      if (std::isfinite(expected) && std::isfinite(got)) {
        double error = std::fabs(got - expected);
        c.maxAbsoluteError = std::max(c.maxAbsoluteError, error);
        c.maxRelativeError = std::max(
            c.maxRelativeError, error / std::max(std::fabs(expected), 1e-30));
      }
      bool sameZero = !c.signedZeros || expected != 0 ||
                      std::signbit(got) == std::signbit(expected);
      if ((!close(got, expected, c.tolerance) || !sameZero) &&
          failures++ < 5)
        ADD_FAILURE() << c.name << ": output " << o << " at "
                      << formatIndex(want, i) << " is " << got << ", expected "
                      << expected << " (reference " << want.values[i] << ")";
    }
    EXPECT_EQ(failures, 0) << c.name << ": " << failures << " of "
                           << want.numel() << " elements differ";
  }
}

} // namespace

void runCases(MLIRContext &context, std::vector<KernelCase> &cases,
              const tcc::CpuTarget &target) {
  std::string source;
  for (const KernelCase &c : cases)
    source += c.function;
  if (std::getenv("TCC_DUMP_KERNELS"))
    std::fprintf(stderr, "%s\n", source.c_str());
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(module) << "cannot parse:\n" << source;
  FailureOr<tcc::KernelObject> object = tcc::compileKernels(*module, target);
  ASSERT_TRUE(succeeded(object)) << "compileKernels failed";
  LoadedKernels loaded(*object);
  for (KernelCase &c : cases) {
    auto kernel =
        llvm::find_if(object->kernels, [&](const tcc::CompiledKernel &k) {
          return k.symbol == c.name;
        });
    ASSERT_NE(kernel, object->kernels.end()) << "no kernel " << c.name;
    KernelFn fn = loaded.get(c.name);
    ASSERT_NE(fn, nullptr) << "no symbol " << c.name;
    if (c.expectedTiles > 0) {
      EXPECT_EQ(kernel->tiles, c.expectedTiles) << c.name << ": tile count";
    }
    runOne(fn, *kernel, c);
    if (std::getenv("TCC_PRINT_ERRORS"))
      std::printf("%-32s max error: relative %.3g, absolute %.3g\n",
                  c.name.c_str(), c.maxRelativeError, c.maxAbsoluteError);
  }
}

} // namespace tcc_test
