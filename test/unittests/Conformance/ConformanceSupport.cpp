//===- ConformanceSupport.cpp - Compile, run, interpret, compare ----------===//

#include "ConformanceSupport.h"
#include "CrossRunner.h"

#include "tcc/Codegen/KernelCompiler.h"
#include "tcc/Codegen/ModelCompiler.h"
#include "tcc/Codegen/Target.h"
#include "tcc/jit.h"
#include "tcc/jit/RunArtifact.h"
#include "tcc/runtime/Artifact.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <elf.h>

#include <cmath>
#include <cstring>
#include <sstream>

namespace tcc {
namespace conformance {

std::string irElementType(ScalarType dtype) {
  switch (dtype) {
  case kFloat:
    return "f32";
  case kDouble:
    return "f64";
  case kHalf:
    return "f16";
  case kBFloat16:
    return "bf16";
  case kLong:
    return "i64";
  case kInt:
    return "i32";
  case kChar:
    return "i8";
  case kByte:
    return "ui8";
  case kBool:
    return "i1";
  default:
    return "?";
  }
}

std::string irType(const std::vector<int64_t> &shape, ScalarType dtype) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + irElementType(dtype) + ">";
}

std::string compileIR(const std::string &ir, int optLevel,
                      std::vector<uint8_t> *bytes) {
  mlir::DialectRegistry registry;
  mlir::tcc::registerCodegenDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    std::string loc;
    llvm::raw_string_ostream os(loc);
    d.getLocation().print(os);
    diagnostics += loc + ": " + d.str() + "\n";
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(ir, &context);
  if (!module)
    return "parse failed: " + diagnostics;
  mlir::tcc::ModelCompileOptions options;
  options.optLevel = optLevel;
  if (!conformanceTarget().empty()) {
    mlir::tcc::TargetRequest request;
    request.target = conformanceTarget();
    std::string error;
    options.target = mlir::tcc::resolveTarget(request, &error);
    if (!options.target)
      return "TCC_CONFORMANCE_TARGET: " + error;
  }
  mlir::FailureOr<std::vector<uint8_t>> compiled =
      mlir::tcc::compileModel(*module, options);
  if (mlir::failed(compiled))
    return "compileModel -O" + std::to_string(optLevel) +
           " failed: " + diagnostics;
  *bytes = std::move(*compiled);
  return "";
}

std::string runArtifact(const std::vector<uint8_t> &bytes,
                        const std::vector<Tensor> &inputs,
                        std::vector<Tensor> *outputs) {
  if (!conformanceRunner().empty())
    return runWithRunner(bytes, inputs, outputs);
  outputs->clear();
  return jit::runArtifact(bytes, inputs, outputs);
}

std::string runInterpreter(const std::string &ir,
                           const std::vector<Tensor> &inputs,
                           std::vector<Tensor> *outputs) {
  try {
    *outputs = jit::Interpreter::parse(ir, "conformance.ir").run(inputs);
    return "";
  } catch (const std::exception &e) {
    return std::string("interpreter: ") + e.what();
  }
}

namespace {

/// Reads a T at `offset` of `data`, if it fits.
template <class T>
bool readAt(const std::vector<uint8_t> &data, uint64_t offset, T *out) {
  if (offset > data.size() || data.size() - offset < sizeof(T))
    return false;
  std::memcpy(out, data.data() + offset, sizeof(T));
  return true;
}

} // namespace

std::string undefinedSymbols(const std::vector<uint8_t> &artifact,
                             std::vector<std::string> *symbols) {
  std::unique_ptr<runtime::Artifact> parsed;
  runtime::Status s = runtime::Artifact::fromMemory(
      artifact.data(), artifact.size(), nullptr, &parsed);
  if (!s.ok())
    return "artifact: " + s.toString();
  std::vector<uint8_t> elf(parsed->code(),
                           parsed->code() + parsed->codeBytes());
  Elf64_Ehdr header;
  if (!readAt(elf, 0, &header) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) ||
      header.e_ident[EI_CLASS] != ELFCLASS64)
    return "the code segment is not a 64-bit ELF file";
  auto sectionAt = [&](uint64_t index, Elf64_Shdr *out) {
    return index < header.e_shnum &&
           readAt(elf, header.e_shoff + index * sizeof(Elf64_Shdr), out);
  };
  bool sawSymbolTable = false;
  for (uint64_t i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr section, strings;
    if (!sectionAt(i, &section))
      return "section header " + std::to_string(i) + " is out of bounds";
    if (section.sh_type != SHT_DYNSYM && section.sh_type != SHT_SYMTAB)
      continue;
    sawSymbolTable = true;
    if (!sectionAt(section.sh_link, &strings))
      return "symbol table " + std::to_string(i) + " has no string table";
    // Entry 0 is the reserved null symbol.
    for (uint64_t k = 1; k < section.sh_size / sizeof(Elf64_Sym); ++k) {
      Elf64_Sym symbol;
      if (!readAt(elf, section.sh_offset + k * sizeof(Elf64_Sym), &symbol))
        return "symbol " + std::to_string(k) + " is out of bounds";
      if (symbol.st_shndx != SHN_UNDEF)
        continue;
      uint64_t at = strings.sh_offset + symbol.st_name;
      std::string name;
      for (char c; readAt(elf, at, &c) && c; ++at)
        name += c;
      if (!name.empty())
        symbols->push_back(name);
    }
  }
  if (!sawSymbolTable)
    return "the code has no symbol table";
  return "";
}

double epsilonOf(ScalarType dtype) {
  switch (dtype) {
  case kFloat:
    return 0x1p-23;
  case kDouble:
    return 0x1p-52;
  case kHalf:
    return 0x1p-10;
  case kBFloat16:
    return 0x1p-7;
  default:
    return 0;
  }
}

static std::string describeShape(IntArrayRef shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

double errorInEpsilons(const Tensor &got, const Tensor &want,
                       std::string *where) {
  std::string ignored;
  std::string &note = where ? *where : ignored;
  if (got.scalar_type() != want.scalar_type()) {
    note = "dtype " + irElementType(got.scalar_type()) + " instead of " +
           irElementType(want.scalar_type());
    return INFINITY;
  }
  if (got.sizes().vec() != want.sizes().vec()) {
    note = "shape " + describeShape(got.sizes()) + " instead of " +
           describeShape(want.sizes());
    return INFINITY;
  }
  Tensor g = got.to(kDouble).contiguous(), w = want.to(kDouble).contiguous();
  const double *gv = g.data_ptr<double>(), *wv = w.data_ptr<double>();
  double eps = epsilonOf(want.scalar_type()), worst = 0;
  for (int64_t i = 0; i < g.numel(); ++i) {
    double a = gv[i], b = wv[i], error;
    if (std::isnan(a) || std::isnan(b))
      error = std::isnan(a) && std::isnan(b) ? 0 : INFINITY;
    else if (std::isinf(a) || std::isinf(b))
      error = a == b ? 0 : INFINITY;
    else if (eps == 0)
      error = a == b ? 0 : INFINITY;
    else
      error = std::fabs(a - b) / std::max(std::fabs(b), 1.0) / eps;
    if (error > worst || (i == 0 && where)) {
      worst = std::max(worst, error);
      std::ostringstream os;
      os.precision(17);
      os << "element " << i << ": got " << a << ", want " << b;
      note = os.str();
    }
  }
  return worst;
}

Tensor uniformTensor(const std::vector<int64_t> &shape, ScalarType dtype,
                     double lo, double hi) {
  if (dtype == kBool)
    return randint(0, 2, shape).to(kBool);
  if (epsilonOf(dtype) == 0)
    return randint(static_cast<int64_t>(lo), static_cast<int64_t>(hi), shape)
        .to(dtype);
  return (rand(shape, kDouble) * (hi - lo) + lo).to(dtype);
}

} // namespace conformance
} // namespace tcc
