//===- IdxFuzzer.cpp - libFuzzer target for the IDX (MNIST) readers -------===//
//
// The first byte picks the reader (images or labels), the rest is the file.
// The readers take a path (MNIST's files), so the bytes go through a file of
// this process's own. Any file must give a tensor or a tcc::Error.
//
//===----------------------------------------------------------------------===//

#include "tcc/Frontend/Error.h"
#include "tcc/Frontend/data/MNIST.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  static const std::string path = [] {
    const char *tmp = std::getenv("TMPDIR");
    return std::string(tmp && *tmp ? tmp : "/tmp") + "/tcc-fuzz-idx-" +
           std::to_string(getpid());
  }();
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file || std::fwrite(data + 1, 1, size - 1, file) != size - 1)
    __builtin_trap(); // the fuzzer's own file must be writable
  std::fclose(file);
  try {
    using namespace tcc::data::datasets;
    tcc::Tensor t = data[0] & 1 ? read_idx_labels(path) : read_idx_images(path);
    (void)t.sum(); // every byte it claims must be there
  } catch (const tcc::Error &) {
  }
  std::remove(path.c_str());
  return 0;
}
