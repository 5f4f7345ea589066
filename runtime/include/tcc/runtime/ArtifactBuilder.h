//===- ArtifactBuilder.h - writes model files -------------------*- C++ -*-===//
//
// The one writer of the artifact layout, shared by the code generator and
// tests: add buffers, kernels, plan steps, constants and code; finish()
// returns the file's bytes with the preamble, the FlatBuffer header, zero
// padding, the segments and every hash. The builder checks nothing about the
// model itself (tests build invalid models on purpose); the loader does.
// The same calls give the same bytes.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_ARTIFACTBUILDER_H
#define TCC_RUNTIME_ARTIFACTBUILDER_H

#include "tcc/runtime/artifact_generated.h"
#include "tcc/runtime/tcc_runtime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tcc {
namespace runtime {

class TCC_RUNTIME_API ArtifactBuilder {
public:
  // Starts a model for this runtime's format and kernel ABI, targeting the
  // host's architecture ("x86_64-unknown-linux-gnu" on x86-64 Linux).
  ArtifactBuilder();

  // The header under construction; anything not covered below is set here.
  tcc::artifact::ModelT &model() { return model_; }
  const tcc::artifact::ModelT &model() const { return model_; }

  // Adds a buffer; byte_size is computed from dtype and shape. Returns its
  // index.
  uint32_t addBuffer(tcc::artifact::DType dtype, std::vector<int64_t> shape,
                     tcc::artifact::Storage storage, uint64_t offset = 0,
                     uint32_t index = 0);
  // A buffer at `offset` in the arena; grows arena_bytes to cover it.
  uint32_t addArenaBuffer(tcc::artifact::DType dtype,
                          std::vector<int64_t> shape, uint64_t offset);
  // Appends `bytes` to the constants segment at the next multiple of
  // `alignment` and returns a buffer over them.
  uint32_t addConstantBuffer(tcc::artifact::DType dtype,
                             std::vector<int64_t> shape, const void *bytes,
                             size_t alignment = 64);
  // A named input/output with its buffer; returns the buffer index.
  uint32_t addInput(const std::string &name, tcc::artifact::DType dtype,
                    std::vector<int64_t> shape);
  uint32_t addOutput(const std::string &name, tcc::artifact::DType dtype,
                     std::vector<int64_t> shape);

  // A kernel of the code segment; returns its index.
  uint32_t addKernel(const std::string &symbol, uint32_t numBindings,
                     std::vector<std::string> sourceOps = {});
  void addKernelCall(uint32_t kernel, std::vector<uint32_t> bindings,
                     int64_t tiles, std::vector<std::string> sourceOps = {});
  // Any step (Sgemm, Conv2d, Copy, ...): pass the filled native table.
  void addStep(tcc::artifact::OpUnion op,
               std::vector<std::string> sourceOps = {});

  // Raw constants bytes (appended, at `alignment`); returns their offset.
  uint64_t appendConstants(const void *bytes, size_t size,
                           size_t alignment = 64);
  void setCode(std::vector<uint8_t> elf) { code_ = std::move(elf); }

  // The file's bytes. `edit`, when given, may change the header after the
  // segments are recorded and before it is serialized (tests use it to
  // build corrupt models with correct hashes).
  std::vector<uint8_t>
  finish(const std::function<void(tcc::artifact::ModelT &)> &edit = {}) const;

private:
  uint32_t
  addSpec(std::vector<std::unique_ptr<tcc::artifact::TensorSpecT>> &specs,
          tcc::artifact::Storage storage, const std::string &name,
          tcc::artifact::DType dtype, std::vector<int64_t> shape);

  tcc::artifact::ModelT model_;
  std::vector<uint8_t> constants_;
  std::vector<uint8_t> code_;
};

// The host's target triple as the builder and the loader spell it.
TCC_RUNTIME_API std::string hostTargetTriple();

} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_ARTIFACTBUILDER_H
