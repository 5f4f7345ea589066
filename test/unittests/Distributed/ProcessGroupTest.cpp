//===- ProcessGroupTest.cpp - The API without mpirun ----------------------===//
//
// What needs no second process: errors before init_process_group, the
// backend registry, TCC_DIST_TIMEOUT, and the signature comparison that
// names a rank passing another shape.
//
//===----------------------------------------------------------------------===//

#include "tcc/distributed.h"
#include "tcc/tcc.h"

#include "Signature.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace tcc;
using namespace tcc::distributed;

namespace {

std::string errorOf(const std::function<void()> &fn) {
  try {
    fn();
  } catch (const Error &e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ProcessGroup, UseBeforeInitIsAClearError) {
  ASSERT_FALSE(is_initialized());
  for (auto fn : std::vector<std::function<void()>>{
           [] { default_group(); }, [] { get_rank(); },
           [] { get_world_size(); }}) {
    std::string e = errorOf(fn);
    EXPECT_NE(e.find("the default process group is not initialized"),
              std::string::npos) << e;
    EXPECT_NE(e.find("init_process_group(\"mpi\")"), std::string::npos) << e;
  }
}

TEST(ProcessGroup, UnknownBackendListsTheRegisteredOnes) {
  std::string e = errorOf([] { init_process_group("nccl"); });
  EXPECT_NE(e.find("no backend named 'nccl' (registered: "), std::string::npos) << e;
  EXPECT_NE(e.find("mpi"), std::string::npos) << e;
  EXPECT_FALSE(is_initialized());
}

TEST(ProcessGroup, BackendsRegisterByName) {
  EXPECT_TRUE(is_backend_registered("mpi"));
  bool created = false;
  register_backend("test-fake", [&](const InitOptions &o) {
    created = true;
    EXPECT_EQ(o.timeout, std::chrono::milliseconds(1500));
    return std::shared_ptr<ProcessGroup>();
  });
  EXPECT_NE(errorOf([] { register_backend("test-fake", [](const InitOptions &) {
                      return std::shared_ptr<ProcessGroup>();
                    }); }).find("exists already"),
            std::string::npos);
  InitOptions options;
  options.timeout = std::chrono::milliseconds(1500);
  init_process_group("test-fake", options);
  EXPECT_TRUE(created);
  destroy_process_group();
}

TEST(ProcessGroup, TimeoutComesFromTheEnvironment) {
  const char *saved = std::getenv("TCC_DIST_TIMEOUT");
  std::string keep = saved ? saved : "";
  unsetenv("TCC_DIST_TIMEOUT");
  EXPECT_EQ(default_timeout(), std::chrono::seconds(300));
  setenv("TCC_DIST_TIMEOUT", "0.25", 1);
  EXPECT_EQ(default_timeout(), std::chrono::milliseconds(250));
  for (const char *bad : {"abc", "-1", "0", "5s"}) {
    setenv("TCC_DIST_TIMEOUT", bad, 1);
    std::string e = errorOf([] { default_timeout(); });
    EXPECT_NE(e.find("expected a positive number of seconds"), std::string::npos)
        << bad << ": " << e;
  }
  if (saved)
    setenv("TCC_DIST_TIMEOUT", keep.c_str(), 1);
  else
    unsetenv("TCC_DIST_TIMEOUT");
}

TEST(Signature, MismatchNamesEachRanksCall) {
  auto sig = [](std::vector<int64_t> shape, ScalarType t, CollectiveKind k) {
    return CollectiveSignature::make(k, ReduceOp::Sum, 0, zeros(shape, t), 7);
  };
  std::vector<CollectiveSignature> same(3, sig({4, 3}, kFloat, CollectiveKind::Allreduce));
  EXPECT_EQ(findMismatch(same, ""), "");
  std::vector<CollectiveSignature> all = same;
  all[2] = sig({4, 2}, kFloat, CollectiveKind::Allreduce);
  EXPECT_EQ(findMismatch(all, "fc.weight"),
            "tcc::distributed: ranks called different collectives (tensor "
            "'fc.weight'): ranks 0, 1 called allreduce(sum) #7 of Float[4, 3]; "
            "rank 2 called allreduce(sum) #7 of Float[4, 2]. Every rank must "
            "pass tensors of the same dtype and shape to the same collectives "
            "in the same order");
  // Allgather: dim 0 may differ, the rest may not.
  std::vector<CollectiveSignature> gather = {
      sig({1, 3}, kHalf, CollectiveKind::Allgather),
      sig({5, 3}, kHalf, CollectiveKind::Allgather)};
  EXPECT_EQ(findMismatch(gather, ""), "");
  gather[1] = sig({5, 3}, kBFloat16, CollectiveKind::Allgather);
  EXPECT_NE(findMismatch(gather, "").find("rank 1 called allgather #7 of BFloat16[5, 3]"),
            std::string::npos);
}

TEST(Signature, ChunksSplitRowsAsTensorSplit) {
  // 7 rows over 3 ranks: 3, 2, 2 starting at 0, 3, 5.
  EXPECT_EQ(chunkRows(7, 0, 3), 3);
  EXPECT_EQ(chunkRows(7, 1, 3), 2);
  EXPECT_EQ(chunkRows(7, 2, 3), 2);
  EXPECT_EQ(chunkStart(7, 1, 3), 3);
  EXPECT_EQ(chunkStart(7, 2, 3), 5);
  EXPECT_EQ(chunkRows(1, 1, 2), 0);
  EXPECT_EQ(chunkStart(1, 1, 2), 1);
}

} // namespace
