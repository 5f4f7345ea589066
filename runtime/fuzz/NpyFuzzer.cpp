//===- NpyFuzzer.cpp - libFuzzer target for the .npy parser ---------------===//

#include "tcc/runtime/Npy.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tcc::runtime::NpyArray array;
  (void)tcc::runtime::parseNpy(data, size, &array);
  return 0;
}
