//===- CpuTarget.h - The CPU compiled code runs on --------------*- C++ -*-===//
//
// A CPU target is an LLVM triple, CPU and feature string, shared by the CPU
// targets (Targets/X86, Targets/AArch64): resolveCpuTarget checks a request's
// triple, CPU and features against LLVM and says what is wrong, listing the
// valid names.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_CPUTARGET_H
#define TCC_CODEGEN_CPUTARGET_H

#include "tcc/Codegen/TargetRequest.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tcc {

/// The CPU that compiled code runs on.
struct CpuTarget {
  std::string triple;   // e.g. "x86_64-unknown-linux-gnu"
  std::string cpu;      // e.g. "znver4"
  std::string features; // LLVM feature string, e.g. "+avx2,+fma,..."

  /// This machine's CPU, or a named one (`--cpu=`) of the host's triple.
  static CpuTarget host();
  static CpuTarget named(StringRef cpu, StringRef triple = "");

  /// The CPU features (LLVM names, e.g. "avx512f") the code may use and the
  /// running CPU must have: those the runtime can check that this target
  /// enables beyond its architecture's baseline.
  std::vector<std::string> requiredFeatures() const;
};

/// The CPU of architecture `arch` (LLVM's name, "x86_64", "aarch64", one the
/// runtime can check features of) that `request` names: its triple
/// (default: this machine's when `arch` is this machine's, else the
/// architecture's), CPU and features. Nothing, with `*error` saying what is
/// wrong, when the triple is of another architecture or the CPU or a
/// feature is unknown.
std::optional<CpuTarget> resolveCpuTarget(StringRef arch,
                                          const TargetRequest &request,
                                          std::string *error);

/// LLVM's architecture name of `triple` ("x86_64"), "unknown" for none.
std::string llvmArchOf(StringRef triple);

/// This machine's triple.
std::string hostTriple();

/// Registers LLVM's targets once (idempotent).
void initializeLlvmTargets();

} // namespace mlir::tcc

#endif // TCC_CODEGEN_CPUTARGET_H
