//===- CollectivesTest.cpp - Every collective, op and dtype under mpirun --===//
//
// Run by ctest under `mpirun -np 2` and `-np 3`. Every rank runs the same
// tests in the same order. Rank r's input is a formula of (r, element), so
// each rank computes what the whole group should get with plain loops over
// all ranks in double (the reference), independently of MPI.
//
//===----------------------------------------------------------------------===//

#include "tcc/distributed.h"
#include "tcc/tcc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace tcc;
using namespace tcc::distributed;

namespace {

ProcessGroup &pg() { return default_group(); }

const ScalarType kAllDtypes[] = {kFloat, kDouble, kInt, kLong, kHalf, kBFloat16};
const ReduceOp kAllOps[] = {ReduceOp::Sum, ReduceOp::Avg, ReduceOp::Max,
                            ReduceOp::Min};

/// Rank r's value at element i: small integers, exact in every dtype
/// (bfloat16 included) and in their sums over a few ranks.
double valueOf(int rank, int64_t i) {
  return double(int64_t((i * 7 + rank * 5) % 11) - 5 + rank);
}

Tensor rankTensor(int rank, std::vector<int64_t> shape, ScalarType t) {
  Tensor x = empty(shape, kDouble);
  double *p = x.data_ptr<double>();
  for (int64_t i = 0; i < x.numel(); ++i)
    p[i] = valueOf(rank, i);
  return x.to(t);
}

double reduceRef(ReduceOp op, int64_t i, int size) {
  double acc = valueOf(0, i);
  for (int r = 1; r < size; ++r) {
    double v = valueOf(r, i);
    acc = op == ReduceOp::Max   ? std::max(acc, v)
          : op == ReduceOp::Min ? std::min(acc, v)
                                : acc + v;
  }
  return op == ReduceOp::Avg ? acc / size : acc;
}

/// Relative tolerance of a dtype's rounding (integers: exact).
double tolerance(ScalarType t) {
  return t == kHalf ? 1e-3 : t == kBFloat16 ? 8e-3 : t == kFloat ? 1e-6 : 0;
}

void expectValues(const Tensor &got, ScalarType t,
                  const std::function<double(int64_t)> &expected,
                  const std::string &what) {
  ASSERT_EQ(got.scalar_type(), t) << what;
  Tensor g = got.to(kDouble).contiguous();
  const double *p = g.data_ptr<double>();
  for (int64_t i = 0; i < g.numel(); ++i) {
    double e = expected(i);
    ASSERT_NEAR(p[i], e, tolerance(t) * std::max(1.0, std::abs(e)))
        << what << " element " << i << " on rank " << pg().rank();
  }
}

std::string name(ScalarType t, ReduceOp op, int64_t n) {
  return std::string(toString(t)) + " " + toString(op) + " numel " +
         std::to_string(n);
}

TEST(Allreduce, EveryOpDtypeAndSize) {
  int size = pg().size();
  for (ScalarType t : kAllDtypes)
    for (ReduceOp op : kAllOps) {
      if (op == ReduceOp::Avg && !isFloatingType(t))
        continue; // AvgOfIntegersIsRefused
      for (int64_t n : {1, 5, 12, 1031}) {
        Tensor x = rankTensor(pg().rank(), {n}, t);
        pg().allreduce(x, op);
        expectValues(x, t, [&](int64_t i) { return reduceRef(op, i, size); },
                     name(t, op, n));
      }
    }
}

TEST(Allreduce, AvgOfIntegersIsRefusedOnEveryRank) {
  Tensor x = ones({3}, kInt);
  try {
    pg().allreduce(x, ReduceOp::Avg);
    FAIL() << "avg of Int did not throw";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("avg needs a floating-point dtype"),
              std::string::npos)
        << e.what();
  }
  // The group goes on working.
  Tensor y = ones({2}, kInt);
  pg().allreduce(y);
  EXPECT_EQ(y[1].item<int>(), pg().size());
}

TEST(Allreduce, NonContiguousTensorIsReducedInPlace) {
  // A transposed view: reduced through a contiguous copy, written back.
  Tensor base = rankTensor(pg().rank(), {3, 4}, kFloat);
  Tensor view = base.t();
  pg().allreduce(view, ReduceOp::Sum);
  expectValues(base, kFloat,
               [&](int64_t i) { return reduceRef(ReduceOp::Sum, i, pg().size()); },
               "transposed view");
}

TEST(Allreduce, AsyncWorksCompleteInAnyWaitOrder) {
  std::vector<Tensor> xs;
  std::vector<std::shared_ptr<Work>> works;
  for (int k = 0; k < 6; ++k) {
    xs.push_back(full({257}, double(k + pg().rank()), kDouble));
    works.push_back(pg().allreduce_async(xs.back(), ReduceOp::Max));
  }
  for (int k = 5; k >= 0; --k) {
    works[size_t(k)]->wait();
    EXPECT_TRUE(works[size_t(k)]->is_completed());
    EXPECT_EQ(xs[size_t(k)][100].item<double>(), double(k + pg().size() - 1));
    EXPECT_TRUE(works[size_t(k)]->result().is_same(xs[size_t(k)]) ||
                works[size_t(k)]->result().data_ptr() == xs[size_t(k)].data_ptr());
  }
}

TEST(Broadcast, EveryRootAndDtype) {
  for (int root = 0; root < pg().size(); ++root)
    for (ScalarType t : kAllDtypes) {
      Tensor x = rankTensor(pg().rank(), {4, 5}, t);
      auto work = pg().broadcast_async(x, root);
      work->wait();
      expectValues(x, t, [&](int64_t i) { return valueOf(root, i); },
                   std::string("broadcast root ") + std::to_string(root));
    }
}

TEST(Broadcast, BadRootIsNamedOnEveryRank) {
  Tensor x = zeros({2});
  try {
    pg().broadcast(x, pg().size());
    FAIL() << "root out of range did not throw";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("is not a rank of this group"),
              std::string::npos)
        << e.what();
  }
}

TEST(Allgather, EqualAndUnevenRowsEveryDtype) {
  int size = pg().size();
  for (ScalarType t : kAllDtypes)
    for (bool uneven : {false, true}) {
      // Rank r contributes (uneven ? r + 1 : 2) rows of 3 elements, its
      // values offset by its rank.
      auto rowsOf = [&](int r) { return uneven ? r + 1 : 2; };
      Tensor x = rankTensor(pg().rank(), {rowsOf(pg().rank()), 3}, t);
      Tensor all = pg().allgather(x);
      int64_t totalRows = 0;
      for (int r = 0; r < size; ++r)
        totalRows += rowsOf(r);
      ASSERT_EQ(all.sizes().vec(), (std::vector<int64_t>{totalRows, 3}));
      int64_t offset = 0;
      for (int r = 0; r < size; ++r) {
        Tensor part = all.narrow(0, offset, rowsOf(r));
        expectValues(part, t, [&](int64_t i) { return valueOf(r, i); },
                     std::string("allgather part of rank ") + std::to_string(r));
        offset += rowsOf(r);
      }
    }
}

TEST(Allgather, ScalarsBecomeOneRowEach) {
  Tensor x = full({}, pg().rank() * 10, kLong);
  Tensor all = pg().allgather(x);
  ASSERT_EQ(all.sizes().vec(), (std::vector<int64_t>{pg().size()}));
  for (int r = 0; r < pg().size(); ++r)
    EXPECT_EQ(all[r].item<int64_t>(), r * 10);
}

TEST(ReduceScatter, EveryOpDtypeDividingAndNot) {
  int size = pg().size();
  int rank = pg().rank();
  // 6 rows divide among 2 and 3 ranks; 7 among neither; 1 leaves ranks
  // with no rows.
  for (int64_t rows : {6, 7, 1})
    for (ScalarType t : kAllDtypes)
      for (ReduceOp op : kAllOps) {
        if (op == ReduceOp::Avg && !isFloatingType(t))
          continue;
        Tensor x = rankTensor(rank, {rows, 3}, t);
        Tensor mine = pg().reduce_scatter(x, op);
        int64_t expectRows = rows / size + (rank < rows % size ? 1 : 0);
        int64_t start = 0;
        for (int r = 0; r < rank; ++r)
          start += rows / size + (r < rows % size ? 1 : 0);
        ASSERT_EQ(mine.sizes().vec(), (std::vector<int64_t>{expectRows, 3}))
            << rows << " rows";
        expectValues(mine, t,
                     [&](int64_t i) { return reduceRef(op, start * 3 + i, size); },
                     name(t, op, rows * 3) + " reduce_scatter");
      }
}

TEST(Barrier, NoRankPassesBeforeEveryRankArrives) {
  // Every rank creates its marker file, then waits at the barrier; after
  // it, every marker must exist. Rank 0 picks the folder and broadcasts it.
  Tensor path = zeros({256}, kByte);
  if (pg().rank() == 0) {
    char dir[] = "/tmp/tcc-barrier-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    std::memcpy(path.data_ptr(), dir, sizeof(dir));
  }
  pg().broadcast(path);
  std::string dir(static_cast<const char *>(path.data_ptr()));
  // Later ranks arrive later, so an early pass would miss their files.
  usleep(useconds_t(20000 * pg().rank()));
  std::ofstream(dir + "/rank" + std::to_string(pg().rank())) << "here";
  pg().barrier();
  for (int r = 0; r < pg().size(); ++r) {
    struct stat st;
    EXPECT_EQ(stat((dir + "/rank" + std::to_string(r)).c_str(), &st), 0)
        << "rank " << r << "'s marker missing after the barrier";
  }
  pg().barrier();
  std::remove((dir + "/rank" + std::to_string(pg().rank())).c_str());
  pg().barrier();
  if (pg().rank() == 0)
    rmdir(dir.c_str());
}

/// Calls fn, expecting an error whose message contains every part.
void expectError(const std::function<void()> &fn,
                 const std::vector<std::string> &parts) {
  try {
    fn();
    FAIL() << "no error on rank " << pg().rank();
  } catch (const Error &e) {
    for (const std::string &p : parts)
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos)
          << "'" << p << "' not in: " << e.what();
  }
}

TEST(Mismatch, ShapesAreNamedPerRank) {
  // Rank r passes r + 4 elements.
  Tensor x = ones({pg().rank() + 4});
  expectError([&] { pg().allreduce_async(x, ReduceOp::Sum, "grads")->wait(); },
              {"ranks called different collectives", "tensor 'grads'",
               "rank 0 called allreduce(sum)", "of Float[4]",
               "rank 1 called allreduce(sum)", "of Float[5]"});
  Tensor y = ones({2});
  pg().allreduce(y); // still in step
  EXPECT_EQ(y[0].item<float>(), float(pg().size()));
}

TEST(Mismatch, DtypesAreNamed) {
  Tensor x = ones({3}, pg().rank() == 0 ? kFloat : kDouble);
  expectError([&] { pg().allreduce(x); }, {"of Float[3]", "of Double[3]"});
}

TEST(Mismatch, DifferentCollectivesAreNamed) {
  Tensor x = ones({3});
  expectError(
      [&] {
        if (pg().rank() == 0)
          pg().allreduce(x);
        else
          pg().broadcast(x, 0);
      },
      {"rank 0 called allreduce(sum)", "called broadcast(root 0)"});
}

TEST(Mismatch, AllgatherTrailingDimsMustAgree) {
  Tensor x = ones({2, pg().rank() == 0 ? 3 : 4});
  expectError([&] { pg().allgather(x); },
              {"allgather", "Float[2, 3]", "Float[2, 4]", "except dim 0"});
}

TEST(ProcessGroup, RankAndSizeMatchMpi) {
  const char *size = std::getenv("OMPI_COMM_WORLD_SIZE");
  const char *rank = std::getenv("OMPI_COMM_WORLD_RANK");
  ASSERT_TRUE(size && rank) << "run under Open MPI's mpirun";
  EXPECT_EQ(pg().size(), std::atoi(size));
  EXPECT_EQ(pg().rank(), std::atoi(rank));
  EXPECT_EQ(pg().backend_name(), "mpi");
  EXPECT_EQ(get_world_size(), pg().size());
}

} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  init_process_group("mpi");
  int failed = RUN_ALL_TESTS();
  // Every rank's verdict: one rank's failure fails them all.
  Tensor anyFailed = full({1}, failed ? 1 : 0, kInt);
  default_group().allreduce(anyFailed, ReduceOp::Max);
  destroy_process_group();
  return anyFailed.item<int>();
}
