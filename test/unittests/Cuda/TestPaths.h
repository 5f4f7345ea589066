//===- TestPaths.h - build-time paths the GPU check overrides ----*- C++ -*-===//
//
// CudaDeviceTests find the fake driver, the plugin and the compiled models
// at paths the build compiles in. scripts/device-check.sh runs the same
// binary from another folder on another machine, and names them there
// through the environment.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_UNITTESTS_CUDA_TESTPATHS_H
#define TCC_TEST_UNITTESTS_CUDA_TESTPATHS_H

#include <cstdlib>
#include <string>

namespace tcc::test {

/// $`variable` where it is set and not empty, else `builtIn`.
inline std::string testPath(const char *variable, const char *builtIn) {
  const char *value = std::getenv(variable);
  return value && *value ? value : builtIn;
}

#ifdef TCC_FAKE_CUDA_LIBRARY
inline std::string fakeCudaLibrary() {
  return testPath("TCC_TEST_FAKE_CUDA_LIBRARY", TCC_FAKE_CUDA_LIBRARY);
}
inline std::string cudaPluginDir() {
  return testPath("TCC_TEST_CUDA_PLUGIN_DIR", TCC_CUDA_PLUGIN_DIR);
}
#endif
#ifdef TCC_CUDA_TEST_ARTIFACTS
inline std::string cudaTestArtifacts() {
  return testPath("TCC_TEST_CUDA_ARTIFACTS", TCC_CUDA_TEST_ARTIFACTS);
}
#endif

} // namespace tcc::test

#endif // TCC_TEST_UNITTESTS_CUDA_TESTPATHS_H
