//===- PassTestSupport.cpp - Running passes and comparing numerics --------===//

#include "PassTestSupport.h"

#include "tcc/Codegen/Target.h"
#include "tcc/IR/TccDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace tcc {
namespace passtest {

std::string runPasses(const std::string &source, const AddPasses &add) {
  // Passes that ask the target find it by name (x86_64 by default).
  mlir::tcc::registerTargets();
  mlir::DialectRegistry registry;
  registry.insert<mlir::tcc::TccDialect, mlir::func::FuncDialect>();
  mlir::MLIRContext context(registry);
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    llvm::raw_string_ostream(diagnostics) << d << "\n";
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  if (!module) {
    ADD_FAILURE() << "cannot parse the module:\n" << diagnostics;
    return "";
  }
  mlir::PassManager pm(&context);
  add(pm);
  if (mlir::failed(pm.run(*module))) {
    ADD_FAILURE() << "the passes failed:\n" << diagnostics;
    return "";
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

std::vector<Tensor> seededInputs(const jit::Interpreter &module,
                                 uint64_t seed) {
  manual_seed(seed);
  std::vector<Tensor> inputs;
  for (const jit::TensorSpec &spec : module.signature().inputs) {
    if (isFloatingType(spec.dtype))
      inputs.push_back(randn(spec.shape, spec.dtype));
    else if (spec.dtype == kBool)
      inputs.push_back(randint(0, 2, spec.shape).to(kBool));
    else
      inputs.push_back(randint(-5, 5, spec.shape, spec.dtype));
  }
  return inputs;
}

::testing::AssertionResult closeTensors(const std::vector<Tensor> &actual,
                                        const std::vector<Tensor> &expected,
                                        double tol) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure()
           << actual.size() << " results, expected " << expected.size();
  for (size_t r = 0; r < actual.size(); ++r) {
    const Tensor &a = actual[r], &b = expected[r];
    if (a.scalar_type() != b.scalar_type() ||
        a.sizes().vec() != b.sizes().vec())
      return ::testing::AssertionFailure()
             << "result " << r << " is " << a.toString() << ", expected "
             << b.toString();
    Tensor da = a.to(kDouble).contiguous(), db = b.to(kDouble).contiguous();
    const double *pa = da.data_ptr<double>(), *pb = db.data_ptr<double>();
    for (int64_t i = 0; i < a.numel(); ++i) {
      bool bothNan = std::isnan(pa[i]) && std::isnan(pb[i]);
      // Equal values (infinities included) and NaN against NaN always
      // match; the tolerance covers the rest.
      // With tol == 0 the sign of zero must match too.
      bool equal = pa[i] == pb[i] &&
                   (tol > 0 || std::signbit(pa[i]) == std::signbit(pb[i]));
      bool close =
          bothNan || equal ||
          (tol > 0 && std::fabs(pa[i] - pb[i]) <= tol * (1 + std::fabs(pb[i])));
      if (!close)
        return ::testing::AssertionFailure()
               << "result " << r << " element " << i << " is " << pa[i]
               << ", expected " << pb[i] << " (tolerance " << tol << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

void expectSameResults(const std::string &before, const std::string &after,
                       double tol, int trials) {
  jit::Interpreter reference = jit::Interpreter::parse(before, "before");
  jit::Interpreter optimized = jit::Interpreter::parse(after, "after");
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<Tensor> inputs = seededInputs(reference, 1000 + trial);
    EXPECT_TRUE(closeTensors(optimized.run(inputs), reference.run(inputs), tol))
        << "trial " << trial;
  }
}

std::string tensorType(const Operand &o) {
  std::string type = "tensor<";
  for (int64_t d : o.shape)
    type += std::to_string(d) + "x";
  return type + o.elementType + ">";
}

namespace {
std::string formatValue(const std::string &elementType, double v) {
  if (elementType == "i1")
    return v != 0 ? "true" : "false";
  char buffer[64];
  if (elementType[0] == 'f' || elementType == "bf16")
    std::snprintf(buffer, sizeof buffer, "%.9e", v);
  else
    std::snprintf(buffer, sizeof buffer, "%lld", static_cast<long long>(v));
  return buffer;
}

/// A nested dense literal of `o` from dim `d` on, starting at `*next`.
std::string nested(const Operand &o, size_t d, size_t *next) {
  if (d == o.shape.size())
    return formatValue(o.elementType, o.values[(*next)++]);
  std::string text = "[";
  for (int64_t i = 0; i < o.shape[d]; ++i)
    text += (i ? ", " : "") + nested(o, d + 1, next);
  return text + "]";
}

} // namespace

Operand operand(const std::string &elementType, std::vector<int64_t> shape,
                uint64_t seed, double lo, double hi) {
  Operand o{elementType, std::move(shape), {}};
  int64_t count = 1;
  for (int64_t d : o.shape)
    count *= d;
  uint64_t state = seed * 6364136223846793005ull + 1442695040888963407ull;
  bool isFloat = elementType[0] == 'f' || elementType == "bf16";
  for (int64_t i = 0; i < count; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    double unit = static_cast<double>(state >> 11) / 9007199254740992.0;
    if (isFloat)
      o.values.push_back(std::round((lo + unit * (hi - lo)) * 8) / 8);
    else
      o.values.push_back(std::floor(lo + unit * (hi - lo + 1)));
  }
  return o;
}

std::string constantLine(const std::string &name, const Operand &o) {
  size_t next = 0;
  return "  %" + name + " = tcc.constant dense<" + nested(o, 0, &next) +
         "> : " + tensorType(o) + "\n";
}

int countOf(const std::string &module, const std::string &text) {
  int count = 0;
  for (size_t at = module.find(text); at != std::string::npos;
       at = module.find(text, at + text.size()))
    ++count;
  return count;
}

} // namespace passtest
} // namespace tcc
