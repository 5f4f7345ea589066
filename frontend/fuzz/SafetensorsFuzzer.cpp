//===- SafetensorsFuzzer.cpp - libFuzzer target for safetensors reading ---===//
//
// Any bytes must give tensors or a tcc::Error, never a crash, a sanitizer
// report or an allocation larger than the input can justify (libFuzzer's
// -malloc_limit_mb catches those).
//
//===----------------------------------------------------------------------===//

#include "tcc/Frontend/Error.h"
#include "tcc/Frontend/serialize/Safetensors.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  try {
    tcc::serialize::SafetensorsContent content =
        tcc::serialize::safetensors_deserialize(data, size);
    // Touch every element, so a tensor over too few bytes shows.
    for (const auto &item : content.tensors)
      (void)item.value().contiguous().sum();
  } catch (const tcc::Error &) {
  }
  return 0;
}
