//===- TargetRequest.h - The target a user names ----------------*- C++ -*-===//

#ifndef TCC_CODEGEN_TARGETREQUEST_H
#define TCC_CODEGEN_TARGETREQUEST_H

#include <string>

namespace mlir::tcc {

/// What a user asks for: `tcc compile --target NAME [--target-triple T]
/// [--cpu CPU] [--features +a,-b]`, or the jit's CompileOptions.
struct TargetRequest {
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
  /// GPU targets: the architectures to compile for, comma-separated
  /// ("sm_80,sm_90"); "" for the target's default.
  std::string gpu;
  /// GPU targets: fp32 GEMMs may round their operands to TF32
  /// (`--allow-tf32`).
  bool allowTf32 = false;
  /// The cuda target: how fp32 convolutions run (`--cuda-conv`): "gemm"
  /// (or ""), im2col and a cuBLASLt GEMM; "direct", a generated kernel.
  std::string cudaConv;
};

} // namespace mlir::tcc

#endif // TCC_CODEGEN_TARGETREQUEST_H
