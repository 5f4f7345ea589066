//===- CrossRunner.cpp - Conformance on another machine's runtime ---------===//

#include "CrossRunner.h"

#include "tcc/Frontend/RuntimeDtype.h"
#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/Npy.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/wait.h>

namespace tcc {
namespace conformance {

static std::string environment(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

const std::string &conformanceTarget() {
  static const std::string target = environment("TCC_CONFORMANCE_TARGET");
  return target;
}

const std::string &conformanceRunner() {
  static const std::string runner = environment("TCC_CONFORMANCE_RUNNER");
  return runner;
}

namespace {

// A folder of its own for one run, removed with everything in it.
class ScratchDir {
public:
  ScratchDir() {
    std::string base = environment("TMPDIR");
    std::string pattern = (base.empty() ? "/tmp" : base) + "/tcc-conf-XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    if (mkdtemp(name.data()))
      path_ = name.data();
  }
  ~ScratchDir() {
    std::error_code ignored;
    if (!path_.empty())
      std::filesystem::remove_all(path_, ignored);
  }
  bool ok() const { return !path_.empty(); }
  std::string file(const std::string &name) const { return path_ + "/" + name; }

private:
  std::string path_;
};

// Single quotes for the shell; paths here never contain one.
std::string shellQuoted(const std::string &path) { return "'" + path + "'"; }

std::string readText(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

std::string runWithRunner(const std::vector<uint8_t> &artifact,
                          const std::vector<Tensor> &inputs,
                          std::vector<Tensor> *outputs) {
  std::unique_ptr<runtime::Artifact> parsed;
  runtime::Status s = runtime::Artifact::fromMemory(
      artifact.data(), artifact.size(), nullptr, &parsed);
  if (!s.ok())
    return "artifact: " + s.toString();
  const auto *specs = parsed->model().outputs();
  size_t numOutputs = specs ? specs->size() : 0;

  ScratchDir dir;
  if (!dir.ok())
    return std::string("cannot create a scratch folder: ") +
           std::strerror(errno);
  std::string model = dir.file("model.bin");
  {
    std::ofstream out(model, std::ios::binary);
    out.write(reinterpret_cast<const char *>(artifact.data()),
              static_cast<std::streamsize>(artifact.size()));
    if (!out)
      return "cannot write " + model;
  }
  std::string command = conformanceRunner() + " run " + shellQuoted(model);
  for (size_t i = 0; i < inputs.size(); ++i) {
    Tensor in = inputs[i].contiguous();
    std::optional<tcc_dtype_t> dtype = to_runtime_dtype(in.scalar_type());
    if (!dtype)
      return "input " + std::to_string(i) + " has no runtime dtype";
    std::string path = dir.file("in" + std::to_string(i) + ".npy");
    s = runtime::writeNpy(path, *dtype, in.sizes().vec(), in.data_ptr(),
                          in.nbytes());
    if (!s.ok())
      return s.toString();
    command += " --input " + shellQuoted(path);
  }
  for (size_t i = 0; i < numOutputs; ++i)
    command += " --output " +
               shellQuoted(dir.file("out" + std::to_string(i) + ".npy"));
  std::string log = dir.file("log.txt");
  int status =
      std::system((command + " >" + shellQuoted(log) + " 2>&1").c_str());
  if (status != 0) {
    std::string how =
        status == -1 ? std::string("could not be started")
        : WIFEXITED(status)
            ? "exited with status " + std::to_string(WEXITSTATUS(status))
        : WIFSIGNALED(status)
            ? "was killed by signal " + std::to_string(WTERMSIG(status))
            : "failed";
    return "the runner " + how + ": " + readText(log) + "(command: " + command +
           ")";
  }

  outputs->clear();
  for (size_t i = 0; i < numOutputs; ++i) {
    runtime::NpyArray array;
    s = runtime::readNpy(dir.file("out" + std::to_string(i) + ".npy"), &array);
    if (!s.ok())
      return "output " + std::to_string(i) + ": " + s.toString();
    std::optional<ScalarType> dtype = from_runtime_dtype(array.dtype);
    if (!dtype)
      return "output " + std::to_string(i) + " has an unknown dtype";
    Tensor out = empty(array.shape, *dtype);
    if (out.nbytes() != array.data.size())
      return "output " + std::to_string(i) + " has the wrong size";
    if (!array.data.empty())
      std::memcpy(out.data_ptr(), array.data.data(), array.data.size());
    outputs->push_back(out);
  }
  return "";
}

} // namespace conformance
} // namespace tcc
