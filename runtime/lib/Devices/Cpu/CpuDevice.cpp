//===- CpuDevice.cpp - the built-in CPU device ----------------------------===//
//
// Memory of both kinds is host memory; executables are ELF shared objects
// mapped by CodeModule with their import tables filled from this runtime
// (ImportTable.cpp); the queue is a host thread (HostQueue.cpp). Intra-op
// parallelism stays the session's thread pool.
//
//===----------------------------------------------------------------------===//

#include "../Device.h"

#include "../../Artifact/Checks.h"
#include "../../Executor/CodeModule.h"
#include "../../Executor/ImportTable.h"

#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/artifact_generated.h"

#include <cstdlib>

namespace tcc {
namespace runtime {
namespace detail {
namespace {

class CpuExecutable final : public Executable {
public:
  explicit CpuExecutable(std::unique_ptr<CodeModule> code)
      : code_(std::move(code)) {}
  Status resolve(const std::string &symbol, void **out) const override {
    return code_->resolve(symbol, out);
  }

private:
  std::unique_ptr<CodeModule> code_;
};

class CpuDevice final : public Device {
public:
  const std::string &name() const override { return name_; }
  bool hostVisible(tcc_memory_kind_t) const override { return true; }
  Status allocate(tcc_memory_kind_t, size_t bytes, size_t alignment,
                  void **out) override {
    size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    *out = std::aligned_alloc(alignment, rounded ? rounded : alignment);
    if (!*out)
      return Status(TCC_STATUS_RESOURCE_EXHAUSTED,
                    cat("cannot allocate ", bytes, " bytes"));
    return Status();
  }
  void free(tcc_memory_kind_t, void *address) override { std::free(address); }

  const std::string &moduleKind() const override { return name_; }

  Status loadExecutable(const tcc::artifact::CodeModule &module,
                        const uint8_t *code, size_t size, uint32_t flags,
                        std::unique_ptr<Executable> *out) override {
    std::unique_ptr<CodeModule> loaded;
    TCC_RETURN_IF_ERROR(CodeModule::load(
        code, size, flags & TCC_MODEL_LOAD_FLAG_CODE_FROM_TEMP_FILE, &loaded));
    // Imports first: nothing in the code may run before its table is filled.
    uint32_t numImports = module.imports() ? module.imports()->size() : 0;
    if (numImports) {
      std::vector<void *> entries;
      for (uint32_t i = 0; i < numImports; ++i) {
        std::string name = module.imports()->Get(i)->str();
        void *address = findImport(name);
        if (!address)
          return Status(TCC_STATUS_UNIMPLEMENTED,
                        cat("the code imports '", name,
                            "', which this runtime does not provide"));
        entries.push_back(address);
      }
      TCC_RETURN_IF_ERROR(loaded->fillImportTable(entries));
    }
    out->reset(new CpuExecutable(std::move(loaded)));
    return Status();
  }

  Status createQueue(std::unique_ptr<Queue> *out) override {
    *out = makeHostQueue();
    return Status();
  }

private:
  const std::string name_ = kCpuModuleKind;
};

} // namespace

std::unique_ptr<Device> makeCpuDevice() {
  return std::unique_ptr<Device>(new CpuDevice());
}

} // namespace detail
} // namespace runtime
} // namespace tcc
