//===- CApiFuzzer.cpp - libFuzzer target for the C API's argument checks --===//
//
// The input is a program: each byte picks a C API call and the next bytes
// its arguments (indices in and out of range, NULL, names that exist or
// not, sizes right, off by one or huge, pointers aligned or not, bool bytes
// other than 0 or 1), on a small model of copy steps. Every call must return
// OK or an error status, never crash or touch memory it was not given:
// pointers point into buffers larger than any size the model accepts, inputs
// and outputs in separate ones (the copy steps may not overlap).
//
//===----------------------------------------------------------------------===//

#include "tcc/runtime/ArtifactBuilder.h"
#include "tcc/runtime/tcc_runtime.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

using namespace tcc::artifact;

const std::vector<uint8_t> &modelBytes() {
  static const std::vector<uint8_t> bytes = [] {
    tcc::runtime::ArtifactBuilder b;
    uint32_t flags = b.addInput("flags", DType::Bool, {4});
    uint32_t x = b.addInput("x", DType::F32, {2, 3});
    b.addInput("none", DType::F32, {0, 8});
    uint32_t out = b.addOutput("out", DType::Bool, {4});
    uint32_t y = b.addOutput("y", DType::F32, {2, 3});
    for (auto [src, dst, size] : {std::tuple{flags, out, 4u},
                                  std::tuple{x, y, 24u}}) {
      CopyT copy;
      copy.src = src;
      copy.dst = dst;
      copy.bytes = size;
      OpUnion op;
      op.Set(std::move(copy));
      b.addStep(std::move(op));
    }
    return b.finish();
  }();
  return bytes;
}

/// Reads the program's bytes; past the end every byte is 0.
struct Reader {
  const uint8_t *data;
  size_t size;
  uint8_t byte() { return size ? (--size, *data++) : 0; }
};

constexpr size_t kScratch = 4096;
alignas(64) uint8_t inputMemory[kScratch];
alignas(64) uint8_t outputMemory[kScratch];

size_t pickIndex(Reader &r) {
  uint8_t b = r.byte();
  return b == 255 ? SIZE_MAX : b % 8;
}

const char *pickName(Reader &r) {
  static const char *const names[] = {nullptr, "flags", "x",  "none",
                                      "out",   "y",     "",   "nope"};
  return names[r.byte() % 8];
}

void *pickPointer(Reader &r, uint8_t *memory) {
  switch (r.byte() % 4) {
  case 0:
    return nullptr;
  case 1:
    return memory;
  case 2:
    return memory + 1; // misaligned for f32
  default:
    return memory + 64;
  }
}

size_t pickSize(Reader &r) {
  switch (r.byte() % 6) {
  case 0:
    return 0;
  case 1:
    return 4;
  case 2:
    return 24;
  case 3:
    return 25;
  case 4:
    return SIZE_MAX;
  default:
    return r.byte();
  }
}

void fill(Reader &r) {
  size_t n = r.byte();
  for (size_t i = 0; i < n; ++i)
    inputMemory[i] = r.byte();
}

void check(tcc_status_t status) { tcc_status_free(status); }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::vector<uint8_t> &bytes = modelBytes();
  tcc_model_t *model = nullptr;
  tcc_status_t status =
      tcc_model_load_memory(bytes.data(), bytes.size(), nullptr, &model);
  if (status)
    __builtin_trap(); // the fixed model must load
  tcc_session_t *session = nullptr;
  check(tcc_session_create(model, nullptr, &session));
  std::memset(inputMemory, 0, kScratch);

  Reader r{data, size};
  for (int calls = 0; r.size && calls < 64; ++calls) {
    switch (r.byte() % 14) {
    case 0:
      fill(r);
      break;
    case 1: {
      size_t index = pickIndex(r);
      void *p = pickPointer(r, inputMemory);
      check(tcc_session_bind_input(session, index, p, pickSize(r)));
      break;
    }
    case 2: {
      const char *name = pickName(r);
      void *p = pickPointer(r, inputMemory);
      check(tcc_session_bind_input_by_name(session, name, p, pickSize(r)));
      break;
    }
    case 3: {
      size_t index = pickIndex(r);
      void *p = pickPointer(r, outputMemory);
      check(tcc_session_bind_output(session, index, p, pickSize(r)));
      break;
    }
    case 4: {
      const char *name = pickName(r);
      void *p = pickPointer(r, outputMemory);
      check(tcc_session_bind_output_by_name(session, name, p, pickSize(r)));
      break;
    }
    case 5:
      check(tcc_session_run(session));
      break;
    case 6: {
      const void *out = nullptr;
      size_t outSize = 0;
      bool nullData = r.byte() & 1, nullSize = r.byte() & 1;
      check(tcc_session_output(session, pickIndex(r),
                               nullData ? nullptr : &out,
                               nullSize ? nullptr : &outSize));
      if (out) // what the API hands out must be readable
        for (size_t i = 0; i < outSize; ++i)
          (void)*static_cast<const volatile uint8_t *>(
              static_cast<const uint8_t *>(out) + i);
      break;
    }
    case 7: {
      tcc_tensor_info_t info;
      size_t index = pickIndex(r);
      bool nullInfo = r.byte() & 1;
      check(r.byte() & 1
                ? tcc_model_input_info(model, index, nullInfo ? nullptr : &info)
                : tcc_model_output_info(model, index,
                                        nullInfo ? nullptr : &info));
      break;
    }
    case 8: {
      size_t index;
      const char *name = pickName(r);
      check(r.byte() & 1 ? tcc_model_find_input(model, name, &index)
                         : tcc_model_find_output(model, name, &index));
      break;
    }
    case 9:
      check(tcc_session_set_profiling(session, r.byte() & 1));
      break;
    case 10: {
      uint64_t times[4];
      size_t capacity = r.byte() % 5, steps;
      uint64_t runs;
      check(tcc_session_step_times(session, capacity ? times : nullptr,
                                   capacity, r.byte() & 1 ? &steps : nullptr,
                                   r.byte() & 1 ? &runs : nullptr));
      break;
    }
    case 11: {
      // Null arguments only: a queued run drops its session reference on
      // the queue's thread after its event signals, which libFuzzer's
      // per-input leak check would report as a leak.
      tcc_event_t *event = nullptr;
      check(r.byte() & 1 ? tcc_session_run_async(nullptr, &event)
                         : tcc_session_run_async(session, nullptr));
      break;
    }
    case 12: {
      // Values outside the enum's range (0 to MAX_ENUM) would be UB in C++
      // before the call; C callers can pass any of these.
      uint8_t b = r.byte();
      auto dtype = b == 255 ? TCC_DTYPE_MAX_ENUM : static_cast<tcc_dtype_t>(b);
      (void)tcc_dtype_size(dtype);
      (void)std::strlen(tcc_dtype_name(dtype));
      break;
    }
    default: {
      // Null and empty arguments of the loader.
      tcc_model_t *other = nullptr;
      bool nullData = r.byte() & 1;
      check(tcc_model_load_memory(nullData ? nullptr : inputMemory,
                                  r.byte(), nullptr,
                                  r.byte() & 1 ? &other : nullptr));
      if (other)
        tcc_model_release(other);
      break;
    }
    }
  }
  tcc_session_release(session);
  tcc_model_release(model);
  return 0;
}
