//===- CpuTarget.h - The CPU compiled code runs on --------------*- C++ -*-===//
//
// A CPU target is an LLVM triple, CPU and feature string. Users name one
// with `--target NAME [--cpu CPU] [--features +a,-b]` (tcc compile) or the
// jit's CompileOptions; resolveCpuTarget checks the names against LLVM and
// the registered targets and says what is wrong, listing the valid names.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_CPUTARGET_H
#define TCC_CODEGEN_CPUTARGET_H

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

/// What a user asks for.
struct CpuTargetRequest {
  /// A registered target ("x86_64"), or "cpu" or "host": this machine's
  /// architecture; "": the triple's, else this machine's.
  std::string target;
  /// Overrides the target's triple (default: this machine's for its own
  /// architecture, else the target's); its architecture must be the
  /// target's.
  std::string triple;
  /// "" or "native": this machine's CPU and features when the target is this
  /// machine's (same triple), else the architecture's baseline CPU. Host
  /// features are never put on another triple.
  std::string cpu;
  /// "+name,-name,...": added to the CPU's features.
  std::string features;
};

/// The registered CPU targets' names ("x86_64"): the architectures whose
/// features the runtime can check.
std::vector<std::string> cpuTargetNames();

/// The target `request` names, or nothing with `*error` saying what is
/// wrong (an unknown target or CPU lists the valid names).
std::optional<CpuTarget> resolveCpuTarget(const CpuTargetRequest &request,
                                          std::string *error);

/// Registers LLVM's targets once (idempotent).
void initializeLlvmTargets();

} // namespace mlir::tcc

#endif // TCC_CODEGEN_CPUTARGET_H
