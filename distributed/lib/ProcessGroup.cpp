//===- ProcessGroup.cpp - Blocking forms, the default group, the registry -===//

#include "tcc/Distributed/Backend.h"
#include "tcc/Distributed/ProcessGroup.h"

#include "BuiltinBackends.h"

#include "tcc/Frontend/Check.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <mutex>

namespace tcc {
namespace distributed {

const char *toString(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum:
    return "sum";
  case ReduceOp::Avg:
    return "avg";
  case ReduceOp::Max:
    return "max";
  case ReduceOp::Min:
    return "min";
  }
  return "unknown op";
}

Work::~Work() = default;
ProcessGroup::~ProcessGroup() = default;

void ProcessGroup::allreduce(const Tensor &tensor, ReduceOp op) {
  allreduce_async(tensor, op)->wait();
}

void ProcessGroup::broadcast(const Tensor &tensor, int root) {
  broadcast_async(tensor, root)->wait();
}

Tensor ProcessGroup::allgather(const Tensor &input) {
  auto work = allgather_async(input);
  work->wait();
  return work->result();
}

Tensor ProcessGroup::reduce_scatter(const Tensor &input, ReduceOp op) {
  auto work = reduce_scatter_async(input, op);
  work->wait();
  return work->result();
}

void ProcessGroup::barrier() { barrier_async()->wait(); }

// --- Backend registry --------------------------------------------------------

namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, BackendFactory> factories;
};

Registry &registry() {
  static Registry *r = [] {
    auto *fresh = new Registry;
    for (auto &[name, factory] : builtinBackends())
      fresh->factories.emplace(name, std::move(factory));
    return fresh;
  }();
  return *r;
}

} // namespace

void register_backend(const std::string &name, BackendFactory factory) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  TCC_CHECK(!name.empty() && factory, "register_backend: needs a name and a factory");
  TCC_CHECK(r.factories.emplace(name, std::move(factory)).second,
            "register_backend: a backend named '", name, "' exists already");
}

bool is_backend_registered(const std::string &name) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.factories.count(name) > 0;
}

std::vector<std::string> registered_backends() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names;
  for (auto &kv : r.factories)
    names.push_back(kv.first);
  return names;
}

BackendFactory backend_factory(const std::string &name) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.factories.find(name);
  if (it == r.factories.end()) {
    std::string known;
    for (auto &kv : r.factories)
      known += (known.empty() ? "" : ", ") + kv.first;
    detail::throwError("tcc::distributed: no backend named '" + name +
                       "' (registered: " + known + ")");
  }
  return it->second;
}

// --- The default group -------------------------------------------------------

namespace {

std::mutex defaultMutex;
std::shared_ptr<ProcessGroup> defaultGroup;

} // namespace

std::chrono::milliseconds default_timeout() {
  const char *env = std::getenv("TCC_DIST_TIMEOUT");
  if (!env || !*env)
    return std::chrono::seconds(300);
  char *end = nullptr;
  double seconds = std::strtod(env, &end);
  TCC_CHECK(end && *end == '\0' && std::isfinite(seconds) && seconds > 0,
            "TCC_DIST_TIMEOUT='", env,
            "': expected a positive number of seconds (such as 300 or 0.5)");
  return std::chrono::milliseconds(
      std::max<int64_t>(1, int64_t(std::llround(seconds * 1000))));
}

std::shared_ptr<ProcessGroup> init_process_group(const std::string &backend,
                                                 const InitOptions &options) {
  std::lock_guard<std::mutex> lock(defaultMutex);
  TCC_CHECK(!defaultGroup,
            "init_process_group: the default process group exists already "
            "(backend '", defaultGroup ? defaultGroup->backend_name() : "",
            "'); call destroy_process_group() first");
  BackendFactory factory = backend_factory(backend);
  InitOptions resolved = options;
  if (resolved.timeout.count() <= 0)
    resolved.timeout = default_timeout();
  defaultGroup = factory(resolved);
  return defaultGroup;
}

bool is_initialized() {
  std::lock_guard<std::mutex> lock(defaultMutex);
  return defaultGroup != nullptr;
}

std::shared_ptr<ProcessGroup> default_group_ptr() {
  std::lock_guard<std::mutex> lock(defaultMutex);
  TCC_CHECK(defaultGroup,
            "tcc::distributed: the default process group is not initialized; "
            "call tcc::distributed::init_process_group(\"mpi\") first");
  return defaultGroup;
}

ProcessGroup &default_group() { return *default_group_ptr(); }
int get_rank() { return default_group().rank(); }
int get_world_size() { return default_group().size(); }

void destroy_process_group() {
  std::lock_guard<std::mutex> lock(defaultMutex);
  defaultGroup.reset();
}

} // namespace distributed
} // namespace tcc
