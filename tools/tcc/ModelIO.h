//===- ModelIO.h - .npy inputs and outputs of a model -----------*- C++ -*-===//

#ifndef TCC_TOOLS_TCC_MODELIO_H
#define TCC_TOOLS_TCC_MODELIO_H

#include "tcc/runtime/Npy.h"
#include "tcc/runtime/Runtime.h"
#include "tcc/runtime/Signing.h"

#include <cstdio>
#include <string>
#include <vector>

namespace tcc {
namespace tool {

// "f32[2,3]"; "f32[]" for a scalar.
std::string describeTensor(tcc_dtype_t dtype,
                           const std::vector<int64_t> &shape);

// An --input/--output argument: "name=path" binds by name, "path" by
// position. Text before the first '=' is a name unless it contains '/'.
struct NamedPath {
  std::string name; // empty: by position
  std::string path;
};
NamedPath parseNamedPath(const std::string &arg);

// For each model input, which --input feeds it: named ones by name, the
// others in order. Errors name the argument.
runtime::Status assignInputs(const runtime::Model &model,
                             const std::vector<NamedPath> &inputs,
                             std::vector<std::string> *pathByInput);
// Same for --output; outputs without one get an empty path.
runtime::Status assignOutputs(const runtime::Model &model,
                              const std::vector<NamedPath> &outputs,
                              std::vector<std::string> *pathByOutput);

// Reads the .npy files and binds them; `arrays` keeps the data alive.
runtime::Status bindNpyInputs(const runtime::Model &model,
                              runtime::Session &session,
                              const std::vector<std::string> &pathByInput,
                              std::vector<runtime::NpyArray> *arrays);

// Seeded values for every input (uniform [-1, 1) for floats, small
// integers, alternating bools), bound to the session.
runtime::Status bindRandomInputs(const runtime::Model &model,
                                 runtime::Session &session, unsigned seed,
                                 std::vector<runtime::NpyArray> *arrays);

// The key of --public-key FILE, which models must be signed by; none when
// the option is absent (`path` empty). Shared by run, bench and inspect.
struct TrustedKey {
  runtime::PublicKey key{};
  bool given = false;
  const uint8_t *data() const { return given ? key.data() : nullptr; }
};
runtime::Status readTrustedKey(const std::string &path, TrustedKey *out);

// Tensors of more elements print as a summary unless `all` (--print-all).
inline constexpr size_t kPrintAllLimit = 1000;

// "name: f32[2,3]" and the values, one innermost row per line; past
// kPrintAllLimit elements (and not `all`), the first and last few values
// and min, max, mean and NaN/Inf counts instead.
void printTensor(FILE *out, const runtime::TensorInfo &info, const void *data,
                 bool all = false);

} // namespace tool
} // namespace tcc

#endif
