//===- ReplayMain.cpp - Runs a fuzz target once on each saved input -------===//
//
// The test command's replay of the seed corpora and saved crashes: a plain
// main (any compiler, no libFuzzer) that calls LLVMFuzzerTestOneInput once
// per file, in sorted order. A crash, a sanitizer report or an exception
// that escapes fails the test; the file is named first.
//
// Usage: tcc-fuzz-<target>-replay [--optional] [--suffix=.ext] PATH...
// A folder is walked recursively. A PATH must hold at least one file
// (a replay of nothing passes nothing) unless --optional precedes it;
// --suffix= keeps only files ending so in the folders after it.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace fs = std::filesystem;

namespace {

std::vector<std::string> filesUnder(const fs::path &path,
                                    const std::string &suffix) {
  std::vector<std::string> files;
  std::error_code ec;
  if (fs::is_regular_file(path, ec))
    return {path.string()};
  if (!fs::is_directory(path, ec))
    return {};
  for (const auto &entry : fs::recursive_directory_iterator(path, ec)) {
    std::string name = entry.path().string();
    if (entry.is_regular_file() && name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        entry.path().filename().string()[0] != '.')
      files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> files;
  std::string suffix;
  bool optional = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--optional") {
      optional = true;
      continue;
    }
    if (arg.rfind("--suffix=", 0) == 0) {
      suffix = arg.substr(9);
      continue;
    }
    std::vector<std::string> found = filesUnder(arg, suffix);
    if (found.empty() && !optional) {
      std::fprintf(stderr, "replay: no input files in %s\n", arg.c_str());
      return 1;
    }
    optional = false;
    files.insert(files.end(), found.begin(), found.end());
  }
  for (const std::string &file : files) {
    std::ifstream in(file, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
      std::fprintf(stderr, "replay: cannot read %s\n", file.c_str());
      return 1;
    }
    std::fprintf(stderr, "replay: %s\n", file.c_str());
    // A heap block of exactly the input's size, as libFuzzer passes, so
    // that ASan sees a read past its end (a vector's capacity may be more).
    std::unique_ptr<uint8_t[]> exact(new uint8_t[bytes.size()]);
    std::copy(bytes.begin(), bytes.end(), exact.get());
    LLVMFuzzerTestOneInput(exact.get(), bytes.size());
  }
  std::printf("replay: %zu inputs, no crash\n", files.size());
  return 0;
}
