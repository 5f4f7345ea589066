//===- Artifact.h - a verified compiled model in memory ---------*- C++ -*-===//
//
// `Artifact` holds the bytes of a model file (mapped or copied) after every
// structural check has passed: preamble, header hash, FlatBuffers verifier,
// identifier, semantic validation and segment hashes. It does not check the
// host CPU and maps no code (the executor does both), so tools can inspect
// artifacts built for other machines.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_ARTIFACT_H
#define TCC_RUNTIME_ARTIFACT_H

#include "tcc/runtime/Status.h"
#include "tcc/runtime/artifact_generated.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tcc {
namespace runtime {

class TCC_RUNTIME_API Artifact {
public:
  // Maps `path` read-only, or with `readInto` reads it into a 64-byte
  // aligned buffer from that allocator. Errors name the file. With
  // `trustedKey` (kPublicKeySize bytes, Signing.h) the artifact must be
  // signed by that key.
  static Status openFile(const std::string &path,
                         std::unique_ptr<Artifact> *out,
                         const tcc_allocator_t *readInto = nullptr,
                         const uint8_t *trustedKey = nullptr);
  // Copies `size` bytes into a 64-byte aligned buffer from `allocator`
  // (NULL: the system allocator).
  static Status fromMemory(const void *data, size_t size,
                           const tcc_allocator_t *allocator,
                           std::unique_ptr<Artifact> *out,
                           const uint8_t *trustedKey = nullptr);
  ~Artifact();
  Artifact(const Artifact &) = delete;
  Artifact &operator=(const Artifact &) = delete;

  const tcc::artifact::Model &model() const { return *model_; }
  const uint8_t *fileData() const { return data_; }
  size_t fileSize() const { return size_; }
  // The segments' bytes (nullptr and 0 when absent). Constants are 64-byte
  // aligned in memory.
  const uint8_t *constants() const { return constants_; }
  uint64_t constantBytes() const { return constantBytes_; }
  // The code of code module `module` (nullptr and 0 when it has none or
  // there is no such module).
  struct Code {
    const uint8_t *data = nullptr;
    uint64_t size = 0;
  };
  Code moduleCode(uint32_t module) const;
  // Module 0's code, the only module of a single-target model.
  const uint8_t *code() const { return moduleCode(0).data; }
  uint64_t codeBytes() const { return moduleCode(0).size; }
  // Where the bytes came from, for messages: the path or "<memory>".
  const std::string &name() const { return name_; }

private:
  Artifact() = default;
  Status verify(const uint8_t *trustedKey);

  std::string name_;
  const uint8_t *data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
  // size_ bytes of the file `fd`: mapped, or read into allocator memory.
  Status mapAll(int fd);
  Status readAll(int fd, const tcc_allocator_t &allocator);
  // data_ becomes size_ bytes, 64-byte aligned, from `allocator`.
  Status allocateData(const tcc_allocator_t &allocator);
  tcc_allocator_t allocator_{};
  const tcc::artifact::Model *model_ = nullptr;
  const uint8_t *constants_ = nullptr;
  uint64_t constantBytes_ = 0;
};

// Checks a byte range that claims to be an artifact: everything Artifact
// checks, without owning the bytes. `data` must be 8-byte aligned. With
// `trustedKey` the signature is checked right after the FlatBuffers
// verifier, before anything else reads the header's values. On success
// `*out` points into `data`.
TCC_RUNTIME_API Status verifyArtifactBytes(const uint8_t *data, size_t size,
                                           const tcc::artifact::Model **out,
                                           const uint8_t *trustedKey = nullptr);

// Checks each "cpu" code module's target architecture and CPU features
// against this host (modules of other kinds are their devices' to check).
TCC_RUNTIME_API Status checkCpuModules(const tcc::artifact::Model &model);

// What loading checks of a verified model before it maps any code:
// checkCpuModules, then each code module's device, opened by its kind (and
// closed again), and every plan step's memory addressable by the host,
// where all steps run. `tcc inspect` reports it as "runs on this host".
TCC_RUNTIME_API Status checkModelRunsHere(const tcc::artifact::Model &model);

// Bytes per element of a schema dtype; 0 for an unknown value.
TCC_RUNTIME_API size_t dtypeSize(tcc::artifact::DType dtype);

} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_ARTIFACT_H
