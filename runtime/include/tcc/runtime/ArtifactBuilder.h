//===- ArtifactBuilder.h - writes model files -------------------*- C++ -*-===//
//
// The one writer of the artifact layout, shared by the code generator and
// tests: add buffers, kernels, plan steps, constants, code modules and
// memory spaces; finish()
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

// The header under construction: the schema's Model plus the fields of the
// shape every model starts with, one CPU code module and a host arena.
// finish() writes them as code_modules[0] (kind "cpu", with the code given
// to setCode) and memory_spaces[0] (host); addCodeModule and addMemorySpace
// append more.
struct ModelDraft : tcc::artifact::ModelT {
  std::string target_triple;             // module 0
  std::string cpu;                       // module 0
  std::vector<std::string> cpu_features; // module 0
  std::vector<std::string> imports;      // module 0
  uint64_t arena_bytes = 0;              // memory space 0
};

class TCC_RUNTIME_API ArtifactBuilder {
public:
  // Starts a model for this runtime's format and kernel ABI, targeting the
  // host's architecture ("x86_64-unknown-linux-gnu" on x86-64 Linux).
  ArtifactBuilder();

  // The header under construction; anything not covered below is set here.
  ModelDraft &model() { return model_; }
  const ModelDraft &model() const { return model_; }

  // Adds a buffer in memory space `space`; byte_size is computed from dtype
  // and shape. Returns its index.
  uint32_t addBuffer(tcc::artifact::DType dtype, std::vector<int64_t> shape,
                     tcc::artifact::Storage storage, uint64_t offset = 0,
                     uint32_t index = 0, uint32_t space = 0);
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

  // A kernel of code module `module`'s code, compiled for `tiles` tiles,
  // declaring what it reads and writes of each binding; returns its index.
  uint32_t addKernel(const std::string &symbol,
                     std::vector<tcc::artifact::KernelBinding> bindings,
                     int64_t tiles, std::vector<std::string> sourceOps = {},
                     uint32_t module = 0);
  // A step calling `kernel` over its tiles; it runs where the kernel's
  // module does.
  void addKernelCall(uint32_t kernel, std::vector<uint32_t> bindings,
                     std::vector<std::string> sourceOps = {});
  // Any step (Sgemm, Conv2d, Copy, ...): pass the filled native table. The
  // step's kind name is the registered one of its type; it runs on code
  // module `module`'s device.
  void addStep(tcc::artifact::OpUnion op,
               std::vector<std::string> sourceOps = {}, uint32_t module = 0);

  // Raw constants bytes (appended, at `alignment`); returns their offset.
  uint64_t appendConstants(const void *bytes, size_t size,
                           size_t alignment = 64);
  // Module 0's code (an ELF shared object).
  void setCode(std::vector<uint8_t> elf) { code_ = std::move(elf); }
  // Appends a code module (its code_segment is set by finish()); returns
  // its index. A cuda module gives the bytes of its images instead, one per
  // entry of module.cuda->images, whose segments finish() sets.
  uint32_t addCodeModule(const tcc::artifact::CodeModuleT &module,
                         std::vector<uint8_t> code = {},
                         std::vector<std::vector<uint8_t>> images = {});
  // Appends a memory space; returns its index.
  uint32_t addMemorySpace(tcc::artifact::MemoryKind kind, uint64_t arenaBytes,
                          uint32_t module = 0);

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

  ModelDraft model_;
  std::vector<uint8_t> constants_;
  std::vector<uint8_t> code_;
  std::vector<tcc::artifact::CodeModuleT> moreModules_;
  std::vector<std::vector<uint8_t>> moreCode_;
  std::vector<std::vector<std::vector<uint8_t>>> moreImages_;
  std::vector<tcc::artifact::MemorySpaceT> moreSpaces_;
};

// The host's target triple as the builder and the loader spell it.
TCC_RUNTIME_API std::string hostTargetTriple();

} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_ARTIFACTBUILDER_H
