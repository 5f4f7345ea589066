//===- TestModels.h - small artifacts for the runtime tests -----*- C++ -*-===//

#ifndef TCC_TEST_RUNTIMEARTIFACT_TESTMODELS_H
#define TCC_TEST_RUNTIMEARTIFACT_TESTMODELS_H

#include "tcc/runtime/ArtifactBuilder.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {
namespace test {

std::vector<uint8_t> readFile(const std::string &path);
void writeFile(const std::string &path, const std::vector<uint8_t> &bytes);

// The ELF of TestKernels.c (no libc) and of TestKernelsWithLibc.c.
const std::vector<uint8_t> &testKernels();
const std::vector<uint8_t> &testKernelsWithLibc();

// z = (x + y) * c for f32[n] inputs x, y and constant c[i] = i + 1: an add
// into the arena and a multiply into the output, each one tile per element.
/// The baseline CPU of the host's architecture as LLVM names it ("x86-64",
/// "generic" on AArch64): the cpu the test models' code modules name.
const char *hostBaselineCpu();

runtime::ArtifactBuilder addMulModel(int64_t n);

// out = exp(in) through the import table (imports: ["expf"]).
runtime::ArtifactBuilder expModel(int64_t n);

// counts[i] += 1 per tile i (i32 input/output "counts" via a Copy).
runtime::ArtifactBuilder countTilesModel(int64_t tiles);

// Appends a cuda code module with a PTX image (a tiny, valid-looking
// header) for each of `archs`, and a cubin (ELF magic) for each too when
// `cubins`; returns its index.
uint32_t addCudaModule(runtime::ArtifactBuilder &b,
                       const std::vector<std::string> &archs,
                       bool cubins = false);

// A kernel binding declaration: `bytes` read, or written.
inline artifact::KernelBinding reads(uint64_t bytes) {
  return artifact::KernelBinding(bytes, false);
}
inline artifact::KernelBinding writes(uint64_t bytes) {
  return artifact::KernelBinding(bytes, true);
}

// Rewrites the preamble's header hash after a test patched header bytes.
void rehashHeader(std::vector<uint8_t> &file);

} // namespace test
} // namespace tcc

#endif
