//===- CodeModule.h - The code segment as a shared object -------*- C++ -*-===//

#ifndef TCC_RUNTIME_LIB_EXECUTOR_CODEMODULE_H
#define TCC_RUNTIME_LIB_EXECUTOR_CODEMODULE_H

#include "tcc/runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tcc {
namespace runtime {
namespace detail {

// An ELF shared object loaded from bytes in memory, never from a named file
// that someone could swap: the bytes go to a memfd, or, where the kernel
// forbids executing memfds, to an unlinked temporary file, and dlopen reads
// them through /proc/self/fd. The descriptor stays open while the object is
// loaded, so its /proc path cannot be reused by another model (dlopen would
// hand back this object for the same name).
class CodeModule {
public:
  static Status load(const uint8_t *elf, size_t size, bool forceTempFile,
                     std::unique_ptr<CodeModule> *out);
  ~CodeModule();
  CodeModule(const CodeModule &) = delete;
  CodeModule &operator=(const CodeModule &) = delete;

  // The address of `symbol`, which must be defined by this object itself
  // (dlsym would also find symbols of its dependencies).
  Status resolve(const std::string &symbol, void **out) const;

  // Writes `entries` into the object's import table (kImportTableSymbol),
  // after checking that the symbol is a writable array large enough.
  Status fillImportTable(const std::vector<void *> &entries) const;

  // "memfd" or "temporary file": how the object was mapped.
  const char *source() const {
    return fromTempFile_ ? "temporary file" : "memfd";
  }

private:
  CodeModule() = default;
  static Status open(int fd, const uint8_t *elf, size_t size,
                     std::unique_ptr<CodeModule> *out);

  int fd_ = -1;
  void *handle_ = nullptr;
  bool fromTempFile_ = false;
};

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_EXECUTOR_CODEMODULE_H
