//===- CApiTest.cpp - the C API's contracts -------------------------------===//

#include "TempPath.h"
#include "TestModels.h"
#include "TestStatus.h"

#include "tcc/runtime/Runtime.h"
#include "tcc/runtime/tcc_runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <cstring>
#include <map>
#include <unistd.h>

using namespace tcc::test;
using tcc::runtime::Status;

extern "C" int tcc_test_run_from_c(const void *bytes, size_t size,
                                   const float *x, const float *y, float *out);

namespace {

TEST(CApi, StatusCarriesCodeAndMessage) {
  tcc_status_t s = tcc_status_make(TCC_STATUS_NOT_FOUND, "no such thing");
  EXPECT_EQ(tcc_status_code(s), TCC_STATUS_NOT_FOUND);
  EXPECT_STREQ(tcc_status_message(s), "no such thing");
  tcc_status_free(s);
  EXPECT_EQ(tcc_status_code(nullptr), TCC_STATUS_OK);
  EXPECT_STREQ(tcc_status_message(nullptr), "");
  tcc_status_free(nullptr);
  EXPECT_STREQ(tcc_status_code_name(TCC_STATUS_DATA_LOSS), "DATA_LOSS");
  // An error is never OK, even when made with TCC_STATUS_OK.
  tcc_status_t odd = tcc_status_make(TCC_STATUS_OK, "");
  EXPECT_NE(tcc_status_code(odd), TCC_STATUS_OK);
  tcc_status_free(odd);
}

TEST(CApi, DTypeSizesAndNames) {
  const std::map<tcc_dtype_t, std::pair<size_t, const char *>> expected = {
      {TCC_DTYPE_F32, {4, "f32"}},  {TCC_DTYPE_F64, {8, "f64"}},
      {TCC_DTYPE_F16, {2, "f16"}},  {TCC_DTYPE_BF16, {2, "bf16"}},
      {TCC_DTYPE_I64, {8, "i64"}},  {TCC_DTYPE_I32, {4, "i32"}},
      {TCC_DTYPE_I8, {1, "i8"}},    {TCC_DTYPE_U8, {1, "u8"}},
      {TCC_DTYPE_BOOL, {1, "bool"}}};
  ASSERT_EQ(expected.size(), size_t(TCC_DTYPE_COUNT));
  for (const auto &[dtype, info] : expected) {
    EXPECT_EQ(tcc_dtype_size(dtype), info.first);
    EXPECT_STREQ(tcc_dtype_name(dtype), info.second);
  }
  EXPECT_EQ(tcc_dtype_size(tcc_dtype_t(99)), 0u);
  EXPECT_STREQ(tcc_dtype_name(tcc_dtype_t(99)), "?");
}

// The system allocator honours each alignment, puts blocks of 4 MiB or more
// on a 2 MiB boundary (for transparent huge pages; whether the kernel grants
// them is its business) unless the environment says TCC_HUGE_PAGES=0, and
// the memory is usable end to end.
TEST(CApi, SystemAllocatorAlignsLargeBlocksForHugePages) {
  const char *env = std::getenv("TCC_HUGE_PAGES");
  const bool hugePages = !(env && std::string(env) == "0");
  tcc_allocator_t a = tcc_allocator_system();
  const size_t twoMiB = size_t(2) << 20;
  for (size_t size : {size_t(1), size_t(4096), (size_t(4) << 20) - 1,
                      size_t(4) << 20, size_t(9) << 20}) {
    for (size_t alignment : {size_t(1), size_t(64), size_t(4096)}) {
      auto *p = static_cast<unsigned char *>(a.alloc(a.self, size, alignment));
      ASSERT_NE(p, nullptr) << size;
      uintptr_t address = reinterpret_cast<uintptr_t>(p);
      EXPECT_EQ(address % std::max(alignment, sizeof(void *)), 0u) << size;
      if (size >= (size_t(4) << 20) && hugePages) {
        EXPECT_EQ(address % twoMiB, 0u) << size;
      }
      std::memset(p, 0x5a, size);
      EXPECT_EQ(p[size - 1], 0x5a);
      a.free(a.self, p);
    }
  }
}

TEST(CApi, WorksFromC) {
  std::vector<uint8_t> bytes = addMulModel(3).finish();
  float x[3] = {1, 2, 3}, y[3] = {1, 1, 1}, z[3] = {0, 0, 0};
  ASSERT_EQ(tcc_test_run_from_c(bytes.data(), bytes.size(), x, y, z), 0);
  EXPECT_EQ(z[0], 2.0f);
  EXPECT_EQ(z[1], 6.0f);
  EXPECT_EQ(z[2], 12.0f);
}

// A bool is one byte, 0 or 1: other bytes would read as true to one
// kernel and as their value to another, so binding refuses them, and an
// empty input (no bytes at all) may be bound to NULL.
TEST(CApi, BindingRefusesBoolBytesOtherThanZeroOrOne) {
  using namespace tcc::artifact;
  tcc::runtime::ArtifactBuilder b;
  uint32_t flags = b.addInput("flags", DType::Bool, {4});
  uint32_t out = b.addOutput("out", DType::Bool, {4});
  b.addInput("none", DType::F32, {0, 8});
  CopyT copy;
  copy.src = flags;
  copy.dst = out;
  copy.bytes = 4;
  OpUnion op;
  op.Set(std::move(copy));
  b.addStep(std::move(op));
  std::vector<uint8_t> bytes = b.finish();
  tcc_model_t *model = nullptr;
  ASSERT_TCC_OK(
      tcc_model_load_memory(bytes.data(), bytes.size(), nullptr, &model));
  tcc_session_t *session = nullptr;
  ASSERT_TCC_OK(tcc_session_create(model, nullptr, &session));
  const uint8_t bad[4] = {1, 0, 2, 1};
  EXPECT_TCC_ERROR(tcc_session_bind_input(session, 0, bad, 4),
                   TCC_STATUS_INVALID_ARGUMENT,
                   "input 0 'flags': bool element 2 is 2 (bools are 0 or 1)");
  const uint8_t good[4] = {1, 0, 0, 1};
  ASSERT_TCC_OK(tcc_session_bind_input(session, 0, good, 4));
  ASSERT_TCC_OK(tcc_session_bind_input(session, 1, nullptr, 0));
  ASSERT_TCC_OK(tcc_session_run(session));
  const void *result = nullptr;
  size_t resultBytes = 0;
  ASSERT_TCC_OK(tcc_session_output(session, 0, &result, &resultBytes));
  ASSERT_EQ(resultBytes, 4u);
  EXPECT_EQ(std::memcmp(result, good, 4), 0);
  tcc_session_release(session);
  tcc_model_release(model);
}

TEST(CApi, DescribesInputsAndOutputs) {
  std::vector<uint8_t> bytes = countTilesModel(6).finish();
  tcc_model_t *model = nullptr;
  ASSERT_TCC_OK(
      tcc_model_load_memory(bytes.data(), bytes.size(), nullptr, &model));
  ASSERT_EQ(tcc_model_input_count(model), 1u);
  ASSERT_EQ(tcc_model_output_count(model), 1u);
  tcc_tensor_info_t info;
  ASSERT_TCC_OK(tcc_model_output_info(model, 0, &info));
  EXPECT_STREQ(info.name, "counts");
  EXPECT_EQ(info.dtype, TCC_DTYPE_I32);
  ASSERT_EQ(info.rank, 1u);
  EXPECT_EQ(info.shape[0], 6);
  EXPECT_EQ(info.byte_size, 24u);
  EXPECT_TCC_ERROR(tcc_model_input_info(model, 1, &info),
                   TCC_STATUS_OUT_OF_RANGE,
                   "input index 1 out of range (the model has 1)");
  size_t index = 99;
  ASSERT_TCC_OK(tcc_model_find_output(model, "counts", &index));
  EXPECT_EQ(index, 0u);
  EXPECT_TCC_ERROR(tcc_model_find_input(model, "nope", &index),
                   TCC_STATUS_NOT_FOUND,
                   "the model has no input named 'nope' (inputs: 'counts')");
  EXPECT_TCC_ERROR(tcc_model_find_input(model, nullptr, &index),
                   TCC_STATUS_INVALID_ARGUMENT, "name is NULL");
  tcc_model_release(model);
}

TEST(CApi, RejectsBadBindings) {
  tcc::runtime::Model model;
  std::vector<uint8_t> bytes = addMulModel(4).finish();
  ASSERT_TCC_OK(
      tcc::runtime::Model::loadMemory(bytes.data(), bytes.size(), &model));
  tcc::runtime::Session session;
  ASSERT_TCC_OK(model.createSession(nullptr, &session));
  alignas(16) float data[8] = {};
  EXPECT_TCC_ERROR(session.run(), TCC_STATUS_FAILED_PRECONDITION,
                   "input 0 'x' is not bound");
  EXPECT_TCC_ERROR(session.bindInput(0, data, 12), TCC_STATUS_INVALID_ARGUMENT,
                   "input 0 'x': 12 bytes given, it takes 16 (f32)");
  EXPECT_TCC_ERROR(session.bindInput(0, reinterpret_cast<char *>(data) + 1, 16),
                   TCC_STATUS_INVALID_ARGUMENT,
                   "input 0 'x': data is not aligned to its 4-byte elements");
  EXPECT_TCC_ERROR(session.bindInput(2, data, 16), TCC_STATUS_OUT_OF_RANGE,
                   "input index 2 out of range (the model has 2)");
  EXPECT_TCC_ERROR(session.bindInput(0, nullptr, 16),
                   TCC_STATUS_INVALID_ARGUMENT, "data is NULL");
  EXPECT_TCC_ERROR(session.bindInput("w", data, 16), TCC_STATUS_NOT_FOUND,
                   "no input named 'w' (inputs: 'x', 'y')");
  EXPECT_TCC_ERROR(session.bindOutput("z", data, 8),
                   TCC_STATUS_INVALID_ARGUMENT, "output 0 'z': 8 bytes given");
  const float *out = nullptr;
  EXPECT_TCC_ERROR(session.output(0, &out), TCC_STATUS_FAILED_PRECONDITION,
                   "output 0 'z' has no data before the first run");
  EXPECT_TCC_ERROR(session.output(1, &out), TCC_STATUS_OUT_OF_RANGE,
                   "output index 1 out of range");
}

TEST(CApi, NullArgumentsAreErrorsNotCrashes) {
  tcc_model_t *model = nullptr;
  EXPECT_TCC_ERROR(tcc_model_load_file(nullptr, nullptr, &model),
                   TCC_STATUS_INVALID_ARGUMENT, "path is NULL");
  EXPECT_TCC_ERROR(tcc_model_load_file("x", nullptr, nullptr),
                   TCC_STATUS_INVALID_ARGUMENT, "out_model is NULL");
  EXPECT_TCC_ERROR(tcc_model_load_memory(nullptr, 10, nullptr, &model),
                   TCC_STATUS_INVALID_ARGUMENT, "model data is NULL");
  tcc_session_t *session = nullptr;
  EXPECT_TCC_ERROR(tcc_session_create(nullptr, nullptr, &session),
                   TCC_STATUS_INVALID_ARGUMENT, "model is NULL");
  EXPECT_TCC_ERROR(tcc_session_run(nullptr), TCC_STATUS_INVALID_ARGUMENT,
                   "session is NULL");
  EXPECT_EQ(tcc_model_input_count(nullptr), 0u);
  tcc_model_release(nullptr);
  tcc_session_release(nullptr);
  tcc_thread_pool_release(nullptr);
  tcc_thread_pool_t *pool = nullptr;
  EXPECT_TCC_ERROR(tcc_thread_pool_create(0, &pool),
                   TCC_STATUS_INVALID_ARGUMENT, "num_threads is 0");
  // A count past the stated limit is refused before any thread starts.
  EXPECT_TCC_ERROR(tcc_thread_pool_create(TCC_MAX_THREADS + 1, &pool),
                   TCC_STATUS_INVALID_ARGUMENT, "must be 1 to 1024");
  EXPECT_EQ(pool, nullptr);
}

// Counts what goes through an allocator, to check it is used and balanced.
struct CountingAllocator {
  int allocs = 0, frees = 0;
  size_t bytes = 0;
  bool fail = false;
  std::map<void *, size_t> live;
  tcc_allocator_t get() {
    return {this,
            [](void *self, size_t size, size_t alignment) -> void * {
              auto *c = static_cast<CountingAllocator *>(self);
              if (c->fail)
                return nullptr;
              void *p = nullptr;
              if (posix_memalign(&p, alignment, size) != 0)
                return nullptr;
              ++c->allocs;
              c->bytes += size;
              c->live[p] = alignment;
              return p;
            },
            [](void *self, void *p) {
              auto *c = static_cast<CountingAllocator *>(self);
              ++c->frees;
              c->live.erase(p);
              std::free(p);
            }};
  }
};

TEST(CApi, LargeMemoryComesFromTheCallersAllocator) {
  std::vector<uint8_t> bytes = addMulModel(10).finish();
  CountingAllocator modelAlloc, sessionAlloc;
  tcc_model_load_options_t loadOptions;
  tcc_model_load_options_initialize(&loadOptions);
  loadOptions.allocator = modelAlloc.get();
  tcc_model_t *model = nullptr;
  ASSERT_TCC_OK(
      tcc_model_load_memory(bytes.data(), bytes.size(), &loadOptions, &model));
  EXPECT_EQ(modelAlloc.allocs, 1); // the model's bytes
  EXPECT_EQ(modelAlloc.bytes, bytes.size());

  tcc_session_options_t options;
  tcc_session_options_initialize(&options);
  options.allocator = sessionAlloc.get();
  tcc_session_t *session = nullptr;
  ASSERT_TCC_OK(tcc_session_create(model, &options, &session));
  EXPECT_EQ(sessionAlloc.allocs, 1); // the 40-byte arena
  EXPECT_EQ(sessionAlloc.bytes, 40u);
  float x[10] = {}, y[10] = {};
  ASSERT_TCC_OK(tcc_session_bind_input(session, 0, x, sizeof(x)));
  ASSERT_TCC_OK(tcc_session_bind_input(session, 1, y, sizeof(y)));
  ASSERT_TCC_OK(tcc_session_run(session));
  ASSERT_TCC_OK(tcc_session_run(session));
  EXPECT_EQ(sessionAlloc.allocs, 2); // plus output z, once
  for (const auto &entry : sessionAlloc.live)
    EXPECT_EQ(uintptr_t(entry.first) % 64, 0u);

  // The session keeps the model alive after the caller's release.
  tcc_model_release(model);
  EXPECT_EQ(modelAlloc.frees, 0);
  ASSERT_TCC_OK(tcc_session_run(session));
  tcc_session_release(session);
  EXPECT_EQ(sessionAlloc.frees, 2);
  EXPECT_EQ(modelAlloc.frees, 1);
}

/// z = (x + y) * [1..4] of a loaded addMulModel(4), for x = 1, y = 2.
std::vector<float> runAddMul(tcc_model_t *model) {
  tcc_session_t *session = nullptr;
  std::vector<float> z(4, -1.0f);
  if (tcc_status_t s = tcc_session_create(model, nullptr, &session)) {
    ADD_FAILURE() << tcc_status_message(s);
    tcc_status_free(s);
    return z;
  }
  float x[4] = {1, 1, 1, 1}, y[4] = {2, 2, 2, 2};
  EXPECT_TCC_OK(tcc_session_bind_input(session, 0, x, sizeof(x)));
  EXPECT_TCC_OK(tcc_session_bind_input(session, 1, y, sizeof(y)));
  EXPECT_TCC_OK(tcc_session_bind_output(session, 0, z.data(), 4 * sizeof(float)));
  EXPECT_TCC_OK(tcc_session_run(session));
  tcc_session_release(session);
  return z;
}

TEST(CApi, LoadFileReadsIntoTheAllocatorUnlessMapped) {
  std::vector<uint8_t> bytes = addMulModel(4).finish();
  tcc::test::TempPath temp("capi_load_file.bin");
  const std::string &path = temp.path;
  writeFile(path, bytes);
  const std::vector<float> want = {3, 6, 9, 12};
  // By default the whole file goes into one block from the allocator.
  CountingAllocator modelAlloc;
  tcc_model_load_options_t loadOptions;
  tcc_model_load_options_initialize(&loadOptions);
  loadOptions.allocator = modelAlloc.get();
  tcc_model_t *model = nullptr;
  ASSERT_TCC_OK(tcc_model_load_file(path.c_str(), &loadOptions, &model));
  EXPECT_EQ(modelAlloc.allocs, 1);
  EXPECT_EQ(modelAlloc.bytes, bytes.size());
  EXPECT_EQ(runAddMul(model), want);
  tcc_model_release(model);
  EXPECT_EQ(modelAlloc.frees, 1);
  // Mapped, the allocator is not asked.
  CountingAllocator unused;
  loadOptions.allocator = unused.get();
  loadOptions.flags = TCC_MODEL_LOAD_FLAG_MAP_FILE;
  ASSERT_TCC_OK(tcc_model_load_file(path.c_str(), &loadOptions, &model));
  EXPECT_EQ(unused.allocs, 0);
  EXPECT_EQ(runAddMul(model), want);
  tcc_model_release(model);
  // An allocator that fails is an error naming the file.
  CountingAllocator failing;
  failing.fail = true;
  loadOptions.allocator = failing.get();
  loadOptions.flags = 0;
  EXPECT_TCC_ERROR(tcc_model_load_file(path.c_str(), &loadOptions, &model),
                   TCC_STATUS_RESOURCE_EXHAUSTED,
                   path + ": cannot allocate " + std::to_string(bytes.size()));
}

TEST(CApi, AllocationFailuresAreErrors) {
  std::vector<uint8_t> bytes = addMulModel(10).finish();
  CountingAllocator failing;
  failing.fail = true;
  tcc_model_load_options_t loadOptions;
  tcc_model_load_options_initialize(&loadOptions);
  loadOptions.allocator = failing.get();
  tcc_model_t *model = nullptr;
  EXPECT_TCC_ERROR(
      tcc_model_load_memory(bytes.data(), bytes.size(), &loadOptions, &model),
      TCC_STATUS_RESOURCE_EXHAUSTED, "cannot allocate");
  ASSERT_TCC_OK(
      tcc_model_load_memory(bytes.data(), bytes.size(), nullptr, &model));
  tcc_session_options_t options;
  tcc_session_options_initialize(&options);
  options.allocator = failing.get();
  tcc_session_t *session = nullptr;
  EXPECT_TCC_ERROR(tcc_session_create(model, &options, &session),
                   TCC_STATUS_RESOURCE_EXHAUSTED,
                   "cannot allocate the 40-byte arena");
  // A huge arena fails the same way, not by crashing.
  std::vector<uint8_t> huge = addMulModel(10).finish(
      [](tcc::artifact::ModelT &m) { m.memory_spaces[0]->arena_bytes = uint64_t(1) << 62; });
  tcc_model_t *hugeModel = nullptr;
  ASSERT_TCC_OK(
      tcc_model_load_memory(huge.data(), huge.size(), nullptr, &hugeModel));
  EXPECT_TCC_ERROR(tcc_session_create(hugeModel, nullptr, &session),
                   TCC_STATUS_RESOURCE_EXHAUSTED, "arena");
  tcc_model_release(hugeModel);
  tcc_model_release(model);
}

TEST(CApi, CppWrapperHandlesShareAndMove) {
  std::vector<uint8_t> bytes = addMulModel(2).finish();
  tcc::runtime::Model a;
  ASSERT_TCC_OK(
      tcc::runtime::Model::loadMemory(bytes.data(), bytes.size(), &a));
  tcc::runtime::Model b = a; // retained
  tcc::runtime::Model c = std::move(a);
  EXPECT_FALSE(a);
  EXPECT_EQ(b.get(), c.get());
  tcc::runtime::TensorInfo info;
  ASSERT_TCC_OK(b.input(1, &info));
  EXPECT_EQ(info.name, "y");
  EXPECT_EQ(info.shape, std::vector<int64_t>{2});
  EXPECT_EQ(info.byteSize, 8u);
  Status s = tcc::runtime::Model::loadFile("/nonexistent.bin", &a);
  EXPECT_EQ(s.code(), TCC_STATUS_NOT_FOUND);
  EXPECT_NE(s.toString().find("NOT_FOUND: /nonexistent.bin"),
            std::string::npos);
}

TEST(CApi, StepProfilingSumsEachStepOverRuns) {
  std::vector<uint8_t> bytes = addMulModel(4096).finish();
  tcc::runtime::Model model;
  ASSERT_TCC_OK(
      tcc::runtime::Model::loadMemory(bytes.data(), bytes.size(), &model));
  tcc::runtime::Session session;
  ASSERT_TCC_OK(model.createSession(nullptr, &session));
  std::vector<float> x(4096, 1.0f), y(4096, 2.0f);
  ASSERT_TCC_OK(session.bindInput(0, x.data(), x.size() * 4));
  ASSERT_TCC_OK(session.bindInput(1, y.data(), y.size() * 4));

  // Off by default: runs add nothing.
  ASSERT_TCC_OK(session.run());
  std::vector<uint64_t> ns;
  uint64_t runs = 99;
  ASSERT_TCC_OK(session.stepTimes(&ns, &runs));
  ASSERT_EQ(ns.size(), 2u); // the add kernel, then the mul kernel
  EXPECT_EQ(runs, 0u);
  EXPECT_EQ(ns, (std::vector<uint64_t>{0, 0}));

  ASSERT_TCC_OK(session.setProfiling(true));
  for (int i = 0; i < 3; ++i)
    ASSERT_TCC_OK(session.run());
  ASSERT_TCC_OK(session.stepTimes(&ns, &runs));
  EXPECT_EQ(runs, 3u);
  EXPECT_GT(ns[0], 0u);
  EXPECT_GT(ns[1], 0u);

  // Disabling keeps the totals; enabling again clears them.
  ASSERT_TCC_OK(session.setProfiling(false));
  ASSERT_TCC_OK(session.run());
  std::vector<uint64_t> kept;
  ASSERT_TCC_OK(session.stepTimes(&kept, &runs));
  EXPECT_EQ(kept, ns);
  EXPECT_EQ(runs, 3u);
  ASSERT_TCC_OK(session.setProfiling(true));
  ASSERT_TCC_OK(session.stepTimes(&kept, &runs));
  EXPECT_EQ(kept, (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(runs, 0u);

  // A short array gets the first steps; NULL with room is an error.
  uint64_t first = 7;
  size_t steps = 0;
  ASSERT_TCC_OK(tcc_session_step_times(session.get(), &first, 1, &steps,
                                       nullptr));
  EXPECT_EQ(first, 0u);
  EXPECT_EQ(steps, 2u);
  EXPECT_TCC_ERROR(tcc_session_step_times(session.get(), nullptr, 2, &steps,
                                          nullptr),
                   TCC_STATUS_INVALID_ARGUMENT, "out_nanoseconds");
  EXPECT_TCC_ERROR(tcc_session_set_profiling(nullptr, 1),
                   TCC_STATUS_INVALID_ARGUMENT, "session");
}

} // namespace
