//===- Compile.h - Compiling eager programs in the same process -*- C++ -*-===//
//
// The torch.compile journey without leaving the process:
//
//   auto fast = tcc::jit::compile(model, {x});  // trace, compile, load
//   Tensor y = fast({x})[0];                     // runs the compiled artifact
//
// compile() traces the program on the example inputs (tcc::jit::trace),
// compiles the trace as `tcc compile` would (mlir::tcc::compileModel, -O2 by
// default), and loads the artifact with libtcc_runtime from memory. When the
// program cannot be traced or compiled, the result runs the program eagerly
// instead and says why (one warning on stderr, fallback_reason()).
//
// The compiled callable computes the traced program: weights are constants
// captured at compile time (later changes to the module are not seen), the
// inputs must have the example inputs' dtypes and shapes, and the outputs do
// not record autograd history (it is for inference). Included by
// <tcc/jit.h>; like it, this header includes nothing from MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_JIT_COMPILE_H
#define TCC_JIT_COMPILE_H

#include "tcc/jit.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tcc {
namespace jit {

struct CompileOptions {
  /// 0: every op its own kernel; 2: the graph passes (fusion, folding)
  /// first, as `tcc compile -O2`.
  int opt_level = 2;
  /// Intra-op threads of the compiled model; 0: get_num_threads() at the
  /// time of compile(). Compiled modules of the same thread count share one
  /// pool of workers for the process.
  int num_threads = 0;
  /// The CPU to generate code for, as `tcc compile --cpu=` (e.g.
  /// "x86-64-v3"); empty: this machine's. The runtime refuses code that
  /// needs features this machine lacks, and an unknown name is refused with
  /// the valid ones (then the program runs eagerly).
  std::string cpu;
  /// The target triple, as `tcc compile --target-triple=`; empty: this
  /// machine's.
  std::string target_triple;
  /// Where the compiled model runs: "cpu" (this machine's, or the `cpu` and
  /// `target_triple` above) or "cuda": kernels for NVIDIA GPUs, as
  /// `tcc compile --target cuda` (docs/cuda.md). compile() then loads the
  /// artifact on the runtime's cuda device (libtcc_device_cuda.so, which
  /// needs a CUDA driver and, for GEMMs, cuBLASLt) and runs it there, taking
  /// and returning CPU tensors; where that device cannot be opened or load
  /// the model, the program runs eagerly and fallback_reason() says why.
  /// compile_artifact() gives the artifact without loading it.
  std::string device = "cpu";
  /// device "cuda": the GPU architectures, as `tcc compile --gpu=`
  /// ("sm_80,sm_90"); empty: sm_80.
  std::string gpu;
  /// device "cuda": fp32 GEMMs may round their operands to TF32, as
  /// `tcc compile --allow-tf32`.
  bool allow_tf32 = false;
  /// device "cuda": how fp32 convolutions run, as `tcc compile
  /// --cuda-conv`: "gemm" (im2col and a cuBLASLt GEMM; also empty) or
  /// "direct" (a generated kernel).
  std::string cuda_conv;
  /// device "cuda": "bf16" or "fp16" runs matmuls, linears and convolutions
  /// in that precision, as `tcc compile --precision`; empty: fp32.
  std::string precision;
  /// When tracing or compiling fails: true runs the program eagerly (with a
  /// warning), false throws JitError with the reason.
  bool fallback = true;
  /// Print the fallback warning to stderr (fallback_reason() has it either
  /// way).
  bool print_warnings = true;
  /// How the program is traced. Strict by default: a program that reads
  /// tensor values while tracing (item(), data_ptr(); say, to branch on
  /// them) would have the values it saw baked in, so it runs eagerly
  /// instead. Set trace.strict = false to compile such a program anyway.
  TraceOptions trace = strictTrace();

  static TraceOptions strictTrace() {
    TraceOptions o;
    o.strict = true;
    return o;
  }
};

/// What the compiler produced (the numbers `tcc compile --stats` prints);
/// all zero when running eagerly.
struct CompileStats {
  /// Steps of the execution plan: generated kernels, microkernel calls
  /// (matmul, convolution) and copies.
  std::size_t kernels = 0, library_calls = 0, copies = 0;
  /// The arena, against the sum of all intermediate tensors; the artifact.
  std::uint64_t arena_bytes = 0, intermediate_bytes = 0, artifact_bytes = 0;
  /// Wall time of tracing and of compiling plus loading.
  double trace_seconds = 0, compile_seconds = 0;
};

/// The callable compile() returns. Copies share the loaded model; calls from
/// several threads at once are safe (each gets its own session).
class CompiledModule {
public:
  using EagerFunction =
      std::function<std::vector<Tensor>(const std::vector<Tensor> &)>;

  /// Runs the compiled artifact (or the program eagerly, when it could not
  /// be compiled). Throws JitError when an input's dtype or shape differs
  /// from the example input's; non-contiguous inputs are copied first.
  std::vector<Tensor> forward(const std::vector<Tensor> &inputs) const;
  std::vector<Tensor> operator()(const std::vector<Tensor> &inputs) const {
    return forward(inputs);
  }

  /// Whether calls run the compiled artifact (else the eager program).
  bool is_compiled() const;
  /// Why the program runs eagerly; empty when compiled.
  const std::string &fallback_reason() const;
  /// The traced program's inputs and outputs (empty if tracing failed).
  const Signature &signature() const;
  const CompileStats &stats() const;
  /// Intra-op threads the compiled model runs on.
  int num_threads() const;
  /// The same compiled model running on `num_threads` intra-op threads
  /// (sharing the loaded model; no recompilation).
  CompiledModule with_num_threads(int num_threads) const;

  /// The loaded model and its sessions (defined in the implementation).
  struct Impl;

private:
  friend CompiledModule compileProgram(
      const std::function<TracedGraph(const TraceOptions &)> &traceProgram,
      EagerFunction eager, const CompileOptions &options);
  explicit CompiledModule(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

/// compile() without the template: traces with `traceProgram`, falls back
/// to `eager`.
CompiledModule compileProgram(
    const std::function<TracedGraph(const TraceOptions &)> &traceProgram,
    CompiledModule::EagerFunction eager, const CompileOptions &options);

/// compile_artifact() without the template.
std::vector<std::uint8_t> compileProgramArtifact(
    const std::function<TracedGraph(const TraceOptions &)> &traceProgram,
    const CompileOptions &options);

namespace detail {

/// What the compiled callable keeps of `module` for the eager fallback:
/// module holders, smart pointers, raw pointers and rvalues are held by
/// value (holders and pointers share the module); an lvalue object is
/// referred to, so it must outlive the callable (as with torch.compile).
template <class M> auto holdModule(M &&module) {
  using T = std::remove_cv_t<std::remove_reference_t<M>>;
  constexpr bool sharesModule = std::is_pointer<T>::value ||
                                !std::is_void<typename Pointee<T>::type>::value;
  if constexpr (std::is_lvalue_reference<M>::value && !sharesModule)
    return std::shared_ptr<std::remove_reference_t<M>>(
        std::shared_ptr<void>(), &module); // aliasing, owns nothing
  else
    return std::make_shared<T>(std::forward<M>(module));
}

} // namespace detail

/// Traces `module` (a module holder, a pointer to a module, an object with
/// `forward`, or a callable; see trace()) on `example_inputs`, compiles the
/// trace and returns a callable that runs the compiled code.
template <class M>
CompiledModule compile(M &&module, const std::vector<Tensor> &example_inputs,
                       CompileOptions options = {}) {
  auto held = detail::holdModule(std::forward<M>(module));
  auto eager = [held](const std::vector<Tensor> &inputs) {
    return detail::callModel(detail::moduleOf(*held), inputs);
  };
  auto traceProgram = [&held, &example_inputs](const TraceOptions &o) {
    return trace(*held, example_inputs, o);
  };
  return compileProgram(traceProgram, std::move(eager), options);
}

/// Traces `module` on `example_inputs` and compiles the trace as compile()
/// does, for `options.device`, but returns the artifact (the bytes
/// `tcc compile` writes, for libtcc_runtime or `tcc-run`) without loading
/// it, so it works for a device this machine lacks. Throws JitError, with
/// the reason, when tracing or compiling fails (`fallback` is ignored).
template <class M>
std::vector<std::uint8_t>
compile_artifact(M &&module, const std::vector<Tensor> &example_inputs,
                 const CompileOptions &options = {}) {
  auto traceProgram = [&module, &example_inputs](const TraceOptions &o) {
    return trace(module, example_inputs, o);
  };
  return compileProgramArtifact(traceProgram, options);
}

} // namespace jit
} // namespace tcc

#endif // TCC_JIT_COMPILE_H
