//===- Verify.cpp - tcc compile --verify: artifact vs interpreter ---------===//
//
// The interpreter throws C++ exceptions (tcc::Error); every call into it and
// into the eager tensor library sits in a function that catches everything
// and returns an error string, and none runs inside an MLIR callback.
//
//===----------------------------------------------------------------------===//

#include "Verify.h"

#include "tcc/IR/TccOps.h"
#include "tcc/jit.h"
#include "tcc/jit/RunArtifact.h"
#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/StepKinds.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace tcc {
namespace tool {

namespace {

using Tensors = std::vector<::tcc::Tensor>;

/// "tcc.add loc("model.ir":3:8)", as the artifact's source ops spell it.
std::string describe(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName() << " ";
  op->getLoc().print(os);
  return text;
}

std::string printModule(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

/// Seeded inputs for `function` of `text`: floats uniform on [-1, 1),
/// integers 0 or 1 (valid indices for any non-empty dim), random bools.
std::string seededInputs(const std::string &text, const std::string &function,
                         unsigned seed, Tensors *inputs) {
  try {
    jit::Interpreter interpreter = jit::Interpreter::parse(text, "verify");
    manual_seed(seed);
    for (const jit::TensorSpec &spec : interpreter.signature(function).inputs) {
      switch (spec.dtype) {
      case kFloat:
      case kDouble:
      case kHalf:
      case kBFloat16:
        inputs->push_back((rand(spec.shape, kDouble) * 2 - 1).to(spec.dtype));
        break;
      case kBool:
        inputs->push_back(randint(0, 2, spec.shape).to(kBool));
        break;
      default:
        inputs->push_back(randint(0, 2, spec.shape).to(spec.dtype));
      }
    }
    return "";
  } catch (const std::exception &e) {
    return std::string("cannot make inputs: ") + e.what();
  } catch (...) {
    return "cannot make inputs: unknown exception";
  }
}

std::string interpret(const std::string &text, const std::string &function,
                      const Tensors &inputs, Tensors *outputs) {
  try {
    *outputs = jit::Interpreter::parse(text, "verify").run(function, inputs);
    return "";
  } catch (const std::exception &e) {
    return std::string("the reference interpreter failed: ") + e.what();
  } catch (...) {
    return "the reference interpreter failed (unknown exception)";
  }
}

std::string runArtifact(const std::vector<uint8_t> &bytes,
                        const Tensors &inputs, Tensors *outputs) {
  std::string error = jit::runArtifact(bytes, inputs, outputs);
  return error.empty() ? "" : "the compiled model failed to run: " + error;
}

/// Allowed |got - want| / max(|want|, 1): float results compare within a
/// few hundred ulp of f32 (other summation orders, polynomial
/// transcendentals), halves within a few of theirs, the rest exactly.
double toleranceOf(ScalarType dtype) {
  switch (dtype) {
  case kFloat:
  case kDouble:
    return 1e-4;
  case kHalf:
  case kBFloat16:
    return 2e-2;
  default:
    return 0;
  }
}

/// "" when `got` agrees with `want`, else the first diverging element.
std::string difference(const ::tcc::Tensor &got, const ::tcc::Tensor &want,
                       double *maxError) {
  try {
    if (got.sizes().vec() != want.sizes().vec() ||
        got.scalar_type() != want.scalar_type())
      return "its shape or dtype differs";
    ::tcc::Tensor g = got.to(kDouble).contiguous(),
                  w = want.to(kDouble).contiguous();
    const double *gv = g.data_ptr<double>(), *wv = w.data_ptr<double>();
    double tol = toleranceOf(want.scalar_type());
    for (int64_t i = 0; i < g.numel(); ++i) {
      double a = gv[i], b = wv[i];
      bool same = std::isnan(a) || std::isnan(b)
                      ? std::isnan(a) && std::isnan(b)
                  : std::isinf(a) || std::isinf(b) ? a == b
                                                   : true;
      double error = same && std::isfinite(a) && std::isfinite(b)
                         ? std::fabs(a - b) / std::max(std::fabs(b), 1.0)
                         : 0;
      *maxError = std::max(*maxError, error);
      if (!same || error > tol) {
        std::ostringstream os;
        os.precision(9);
        os << "element " << i << " is " << a << ", the interpreter gives " << b;
        return os.str();
      }
    }
    return "";
  } catch (const std::exception &e) {
    return std::string("cannot compare: ") + e.what();
  }
}

/// The first diverging output as "output N ('name'): element ...", or "".
std::string firstDivergence(const Tensors &got, const Tensors &want,
                            size_t first, double *maxError,
                            size_t *index = nullptr) {
  if (got.size() != want.size())
    return "the compiled model has " + std::to_string(got.size()) +
           " outputs, the interpreter " + std::to_string(want.size());
  for (size_t i = first; i < got.size(); ++i) {
    std::string d = difference(got[i], want[i], maxError);
    if (!d.empty()) {
      if (index)
        *index = i;
      return d;
    }
  }
  return "";
}

/// Compiles a copy of `source` (with the testing miscompile, if any).
std::string compileCopy(mlir::ModuleOp source, int optLevel,
                        const VerifyOptions &options,
                        std::vector<uint8_t> *bytes) {
  mlir::OwningOpRef<mlir::ModuleOp> copy = source.clone();
  if (miscompiles(options, optLevel)) {
    std::string error =
        applyTestingMiscompile(*copy, options.testingMiscompile);
    if (!error.empty())
      return error;
  }
  mlir::tcc::ModelCompileOptions compile = options.compile;
  compile.optLevel = optLevel;
  mlir::FailureOr<std::vector<uint8_t>> out =
      mlir::tcc::compileModel(*copy, compile);
  if (mlir::failed(out))
    return "recompiling at -O" + std::to_string(optLevel) + " failed";
  *bytes = std::move(*out);
  return "";
}

/// Prints the step of `bytes`' plan that computes `op` (by its source op
/// text); false if none lists it.
bool reportStepOf(const std::vector<uint8_t> &bytes, const std::string &op) {
  std::unique_ptr<runtime::Artifact> parsed;
  if (!runtime::Artifact::fromMemory(bytes.data(), bytes.size(), nullptr,
                                     &parsed)
           .ok())
    return false;
  const artifact::Model &m = parsed->model();
  uint32_t steps = m.plan() ? m.plan()->size() : 0;
  for (uint32_t i = 0; i < steps; ++i) {
    runtime::StepDescription step = runtime::describeStep(m, i);
    const std::vector<std::string> &ops = step.sourceOps;
    if (std::find(ops.begin(), ops.end(), op) == ops.end())
      continue;
    std::printf(
        "verify: first diverging kernel: step %u of %u, %s, computing:\n",
        i + 1, steps, step.role.c_str());
    for (const std::string &source : ops)
      std::printf("verify:   %s\n", source.c_str());
    return true;
  }
  return false;
}

/// A copy of `source` whose entry also returns every value computed by a
/// top-level op (constants aside), in program order after the original
/// results; `ops` receives each extra result's op text.
mlir::OwningOpRef<mlir::ModuleOp> probeModule(mlir::ModuleOp source,
                                              llvm::StringRef function,
                                              std::vector<std::string> *ops) {
  mlir::OwningOpRef<mlir::ModuleOp> probe = source.clone();
  // The source compiled, so its entry exists.
  mlir::func::FuncOp entry = *mlir::tcc::findEntryFunction(*probe, function);
  mlir::Operation *ret = entry.getBody().front().getTerminator();
  llvm::SmallVector<mlir::Value> values(ret->getOperands());
  llvm::SmallVector<mlir::DictionaryAttr> attrs;
  mlir::DictionaryAttr none = mlir::DictionaryAttr::get(source.getContext());
  for (unsigned i = 0; i < entry.getNumResults(); ++i) {
    mlir::DictionaryAttr attr = entry.getResultAttrDict(i);
    attrs.push_back(attr ? attr : none);
  }
  for (mlir::Operation &op : entry.getBody().front().without_terminator()) {
    if (mlir::isa<mlir::tcc::ConstantOp>(op))
      continue;
    for (mlir::Value result : op.getResults()) {
      values.push_back(result);
      attrs.push_back(none);
      ops->push_back(describe(&op));
    }
  }
  ret->setOperands(values);
  entry.setFunctionType(
      mlir::FunctionType::get(source.getContext(), entry.getArgumentTypes(),
                              mlir::ValueRange(values).getTypes()));
  entry.setAllResultAttrs(attrs);
  return probe;
}

} // namespace

std::string applyTestingMiscompile(mlir::ModuleOp module,
                                   const std::string &opName) {
  mlir::FailureOr<mlir::func::FuncOp> entry =
      mlir::tcc::findEntryFunction(module);
  if (mlir::failed(entry))
    return "--testing-miscompile: no entry function";
  for (mlir::Operation &op : entry->getBody().front().without_terminator()) {
    if (op.getName().getStringRef() != opName || op.getNumResults() == 0)
      continue;
    mlir::Value result = op.getResult(0);
    auto type = mlir::dyn_cast<mlir::RankedTensorType>(result.getType());
    if (!type || type.getElementType().isInteger(1))
      return "--testing-miscompile: '" + opName + "' has no numeric result";
    mlir::OpBuilder builder(op.getContext());
    builder.setInsertionPointAfter(&op);
    mlir::Value negated =
        builder.create<mlir::tcc::NegOp>(op.getLoc(), type, result);
    result.replaceAllUsesExcept(negated, negated.getDefiningOp());
    return "";
  }
  return "--testing-miscompile: no '" + opName + "' op in the entry function";
}

std::string verifyArtifact(mlir::ModuleOp source,
                           const std::vector<uint8_t> &artifact,
                           const VerifyOptions &options) {
  mlir::FailureOr<mlir::func::FuncOp> entry =
      mlir::tcc::findEntryFunction(source, options.compile.function);
  if (mlir::failed(entry))
    return "no entry function";
  std::string function = entry->getSymName().str();
  std::string text = printModule(source);

  Tensors inputs, want, got;
  std::string error = seededInputs(text, function, options.seed, &inputs);
  if (error.empty())
    error = interpret(text, function, inputs, &want);
  if (error.empty())
    error = runArtifact(artifact, inputs, &got);
  if (!error.empty())
    return error;
  double maxError = 0;
  size_t output = 0;
  std::string divergence = firstDivergence(got, want, 0, &maxError, &output);
  if (divergence.empty()) {
    std::printf("verify: %zu output%s with the reference interpreter "
                "(seed %u, largest error %.3g relative to max(|x|, 1))\n",
                got.size(), got.size() == 1 ? " agrees" : "s agree",
                options.seed, maxError);
    return "";
  }
  std::printf("verify: output %zu diverges from the reference interpreter: "
              "%s\n",
              output, divergence.c_str());

  // Which op's value diverges first: recompile with every intermediate as
  // an output, and compare them in program order.
  std::vector<std::string> probedOps;
  mlir::OwningOpRef<mlir::ModuleOp> probe = probeModule(source, function, &probedOps);
  std::string probeText = printModule(*probe);
  Tensors probeWant, probeGot;
  std::vector<uint8_t> probeBytes;
  error = interpret(probeText, function, inputs, &probeWant);
  if (error.empty())
    error = compileCopy(*probe, options.compile.optLevel, options, &probeBytes);
  if (error.empty())
    error = runArtifact(probeBytes, inputs, &probeGot);
  size_t first = got.size(), index = 0;
  std::string probeDivergence =
      error.empty()
          ? firstDivergence(probeGot, probeWant, first, &maxError, &index)
          : "";
  if (!error.empty()) {
    std::printf("verify: cannot look for the first diverging op: %s\n",
                error.c_str());
  } else if (probeDivergence.empty()) {
    std::printf("verify: no intermediate value diverges when each is an "
                "output (the divergence needs the ops' grouping)\n");
  } else {
    const std::string &op = probedOps[index - first];
    std::printf("verify: first diverging op: %s: %s\n", op.c_str(),
                probeDivergence.c_str());
    if (!reportStepOf(artifact, op))
      std::printf("verify: no step of the artifact lists %s\n", op.c_str());
  }

  // Bisect: does the model also diverge without the graph passes?
  if (options.compile.optLevel == 0) {
    std::printf("verify: compiled at -O0 (no fusion): not caused by fusion\n");
  } else {
    std::vector<uint8_t> o0;
    Tensors o0Got;
    error = compileCopy(source, 0, options, &o0);
    if (error.empty())
      error = runArtifact(o0, inputs, &o0Got);
    double ignored = 0;
    if (!error.empty())
      std::printf("verify: cannot bisect at -O0: %s\n", error.c_str());
    else if (firstDivergence(o0Got, want, 0, &ignored).empty())
      std::printf("verify: at -O0 (no fusion) the outputs agree: the -O2 "
                  "graph passes (fusion) caused the divergence\n");
    else
      std::printf("verify: the outputs diverge at -O0 (no fusion) too: not "
                  "caused by fusion\n");
  }
  return "the compiled model diverges from the reference interpreter";
}

} // namespace tool
} // namespace tcc
