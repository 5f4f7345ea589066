//===- Registry.cpp - opening devices by name -----------------------------===//
//
// "cpu" is built in. Any other name is a plugin, libtcc_device_<name>.so,
// searched in the directories of TCC_DEVICE_PATH (colon-separated), then in
// the directory of libtcc_runtime itself (where an installation puts its
// plugins). The plugin's one entry point fills a table of C functions
// (tcc_device_plugin.h) that PluginDevice wraps.
//
//===----------------------------------------------------------------------===//

#include "Device.h"

#include "../Artifact/Checks.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/artifact_generated.h"
#include "tcc/runtime/tcc_device_plugin.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

namespace tcc {
namespace runtime {
namespace detail {
namespace {

class PluginExecutable final : public Executable {
public:
  PluginExecutable(const tcc_device_plugin_t &plugin, void *executable)
      : plugin_(plugin), executable_(executable) {}
  ~PluginExecutable() override {
    if (plugin_.executable_unload)
      plugin_.executable_unload(plugin_.self, executable_);
  }
  Status resolve(const std::string &symbol, void **out) const override {
    if (!plugin_.executable_resolve)
      return Status(TCC_STATUS_UNIMPLEMENTED,
                    "the device cannot resolve symbols");
    return Status(plugin_.executable_resolve(plugin_.self, executable_,
                                             symbol.c_str(), out));
  }

private:
  const tcc_device_plugin_t &plugin_;
  void *executable_;
};

class PluginQueue final : public Queue {
public:
  PluginQueue(const tcc_device_plugin_t &plugin, void *queue)
      : plugin_(plugin), queue_(queue) {}
  ~PluginQueue() override {
    if (plugin_.queue_destroy)
      plugin_.queue_destroy(plugin_.self, queue_);
  }
  Status submit(Work work, Done done) override {
    std::unique_ptr<Item> item(new Item{std::move(work), std::move(done)});
    Status s(plugin_.queue_submit(plugin_.self, queue_, runWork, finish,
                                  item.get()));
    if (s.ok())
      item.release(); // finish deletes it
    return s;
  }

private:
  struct Item {
    Work work;
    Done done;
  };
  static tcc_status_t runWork(void *arg) {
    try {
      return static_cast<Item *>(arg)->work().release();
    } catch (const std::bad_alloc &) {
      return tcc_status_make(TCC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    } catch (const std::exception &e) {
      return tcc_status_make(TCC_STATUS_INTERNAL, e.what());
    }
  }
  static void finish(void *arg, tcc_status_t status) {
    std::unique_ptr<Item> item(static_cast<Item *>(arg));
    item->done(Status(status));
  }

  const tcc_device_plugin_t &plugin_;
  void *queue_;
};

class PluginProgramSession final : public ProgramSession {
public:
  PluginProgramSession(const tcc_device_plugin_t &plugin, void *session)
      : plugin_(plugin), session_(session) {}
  ~PluginProgramSession() override {
    plugin_.program_session_destroy(plugin_.self, session_);
  }
  Status run(const void *const *inputs, void *const *outputs,
             uint64_t *stepNs) override {
    return Status(
        plugin_.program_run(plugin_.self, session_, inputs, outputs, stepNs));
  }

private:
  const tcc_device_plugin_t &plugin_;
  void *session_;
};

class PluginProgram final : public Program {
public:
  PluginProgram(const tcc_device_plugin_t &plugin, void *program)
      : plugin_(plugin), program_(program) {}
  ~PluginProgram() override { plugin_.program_unload(plugin_.self, program_); }
  Status createSession(std::unique_ptr<ProgramSession> *out) override {
    void *session = nullptr;
    TCC_RETURN_IF_ERROR(Status(
        plugin_.program_session_create(plugin_.self, program_, &session)));
    out->reset(new PluginProgramSession(plugin_, session));
    return Status();
  }

private:
  const tcc_device_plugin_t &plugin_;
  void *program_;
};

class PluginDevice final : public Device {
public:
  PluginDevice(std::string name, void *library,
               const tcc_device_plugin_t &plugin)
      : name_(std::move(name)), library_(library), plugin_(plugin),
        moduleKind_(plugin.module_kind ? plugin.module_kind : "") {}
  ~PluginDevice() override {
    if (plugin_.destroy)
      plugin_.destroy(plugin_.self);
    dlclose(library_);
  }

  const std::string &name() const override { return name_; }
  bool hostVisible(tcc_memory_kind_t kind) const override {
    return plugin_.host_visible(plugin_.self, kind) != 0;
  }
  Status allocate(tcc_memory_kind_t kind, size_t bytes, size_t alignment,
                  void **out) override {
    return Status(plugin_.allocate(plugin_.self, kind, bytes, alignment, out));
  }
  void free(tcc_memory_kind_t kind, void *address) override {
    plugin_.free(plugin_.self, kind, address);
  }

  const std::string &moduleKind() const override { return moduleKind_; }
  Status loadExecutable(const tcc::artifact::CodeModule &module,
                        const uint8_t *code, size_t size, uint32_t,
                        std::unique_ptr<Executable> *out) override {
    if (moduleKind_.empty() || !plugin_.executable_load)
      return Status(TCC_STATUS_UNIMPLEMENTED,
                    cat("device '", name_, "' loads no code modules"));
    // Import tables are the CPU loader's (runtime functions for host code).
    if (module.imports() && module.imports()->size())
      return Status(TCC_STATUS_UNIMPLEMENTED,
                    cat("device '", name_, "' fills no import table, but the "
                        "module imports ", module.imports()->size(),
                        " functions"));
    void *executable = nullptr;
    TCC_RETURN_IF_ERROR(Status(
        plugin_.executable_load(plugin_.self, code, size, &executable)));
    out->reset(new PluginExecutable(plugin_, executable));
    return Status();
  }

  Status createQueue(std::unique_ptr<Queue> *out) override {
    if (!plugin_.queue_create || !plugin_.queue_submit) {
      *out = makeHostQueue();
      return Status();
    }
    void *queue = nullptr;
    TCC_RETURN_IF_ERROR(Status(plugin_.queue_create(plugin_.self, &queue)));
    out->reset(new PluginQueue(plugin_, queue));
    return Status();
  }

  bool runsPrograms() const override { return plugin_.program_load; }
  Status loadProgram(const Artifact &artifact,
                     std::unique_ptr<Program> *out) override {
    tcc_device_program_source_t source{};
    source.file = artifact.fileData();
    source.file_size = artifact.fileSize();
    source.model = &artifact.model();
    source.constants = artifact.constants();
    source.constant_bytes = size_t(artifact.constantBytes());
    void *program = nullptr;
    TCC_RETURN_IF_ERROR(
        Status(plugin_.program_load(plugin_.self, &source, &program)));
    out->reset(new PluginProgram(plugin_, program));
    return Status();
  }

private:
  std::string name_;
  void *library_;
  tcc_device_plugin_t plugin_;
  std::string moduleKind_;
};

// TCC_DEVICE_PATH's directories, then libtcc_runtime's own.
std::vector<std::string> searchDirectories() {
  std::vector<std::string> dirs;
  if (const char *path = std::getenv("TCC_DEVICE_PATH")) {
    std::string list = path;
    for (size_t begin = 0; begin <= list.size();) {
      size_t end = list.find(':', begin);
      if (end == std::string::npos)
        end = list.size();
      if (end > begin)
        dirs.push_back(list.substr(begin, end - begin));
      begin = end + 1;
    }
  }
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&searchDirectories), &info) &&
      info.dli_fname) {
    std::string self = info.dli_fname;
    size_t slash = self.rfind('/');
    dirs.push_back(slash == std::string::npos ? "." : self.substr(0, slash));
  }
  return dirs;
}

bool isPlainName(const std::string &name) {
  if (name.empty())
    return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

Status openPlugin(const std::string &name, std::unique_ptr<Device> *out) {
  if (!isPlainName(name))
    return Status(TCC_STATUS_INVALID_ARGUMENT,
                  cat("no device '", name,
                      "': device names are lowercase letters, digits and _"));
  std::string file = cat("libtcc_device_", name, ".so");
  std::vector<std::string> dirs = searchDirectories();
  std::string path, searched;
  for (const std::string &dir : dirs) {
    searched += cat(searched.empty() ? "" : ", ", dir);
    std::string candidate = cat(dir, "/", file);
    if (::access(candidate.c_str(), F_OK) == 0) {
      path = candidate;
      break;
    }
  }
  if (path.empty())
    return Status(TCC_STATUS_NOT_FOUND,
                  cat("no device '", name, "': ", file, " not found in ",
                      searched.empty() ? "(no directory)" : searched,
                      " (built-in: ", kCpuModuleKind,
                      "; TCC_DEVICE_PATH adds directories)"));
  void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *error = dlerror();
    return Status(TCC_STATUS_INTERNAL, cat("device '", name, "': ",
                                           error ? error : "dlopen failed"));
  }
  auto entry = reinterpret_cast<tcc_device_plugin_entry_fn>(
      dlsym(library, TCC_DEVICE_PLUGIN_ENTRY));
  if (!entry) {
    dlclose(library);
    return Status(TCC_STATUS_NOT_FOUND,
                  cat("device '", name, "': ", path, " does not export ",
                      TCC_DEVICE_PLUGIN_ENTRY));
  }
  tcc_device_plugin_t plugin = {};
  Status s(entry(TCC_DEVICE_PLUGIN_ABI_VERSION, &plugin));
  if (s.ok() && plugin.abi_version != TCC_DEVICE_PLUGIN_ABI_VERSION) {
    if (plugin.destroy)
      plugin.destroy(plugin.self);
    s = Status(TCC_STATUS_UNIMPLEMENTED,
               cat(path, " is built for device plugin ABI ",
                   plugin.abi_version, ", this runtime speaks ",
                   TCC_DEVICE_PLUGIN_ABI_VERSION));
  } else if (s.ok() &&
             (!plugin.host_visible || !plugin.allocate || !plugin.free)) {
    if (plugin.destroy)
      plugin.destroy(plugin.self);
    s = Status(TCC_STATUS_DATA_LOSS,
               cat(path, " lacks host_visible, allocate or free"));
  } else if (s.ok() && plugin.program_load &&
             (!plugin.program_unload || !plugin.program_session_create ||
              !plugin.program_session_destroy || !plugin.program_run)) {
    if (plugin.destroy)
      plugin.destroy(plugin.self);
    s = Status(TCC_STATUS_DATA_LOSS,
               cat(path, " has program_load but lacks another program "
                         "function"));
  }
  if (!s.ok()) {
    dlclose(library);
    return std::move(s).withContext(cat("device '", name, "'"));
  }
  out->reset(new PluginDevice(name, library, plugin));
  return Status();
}

} // namespace

Status openDevice(const std::string &name, std::unique_ptr<Device> *out) {
  if (name == kCpuModuleKind) {
    *out = makeCpuDevice();
    return Status();
  }
  return openPlugin(name, out);
}

} // namespace detail
} // namespace runtime
} // namespace tcc
