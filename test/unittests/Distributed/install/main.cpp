// libtorch's c10d names on tcc, under mpirun: the process group handles in
// both spellings (std::shared_ptr and c10::intrusive_ptr), allreduce of a
// vector of one tensor returning a Work, wait(), errors kept in the Work,
// assignment through Tensor::data(), and DistributedRandomSampler's shards.
#include <c10d/ProcessGroupMPI.hpp>
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <set>

#ifndef TCC_TORCH_COMPAT
#error "built against a real libtorch, not tcc's compatibility layer"
#endif

static int failures = 0;
#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "check failed: %s (line %d)\n", #cond, __LINE__);  \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

int main() {
  // libtorch 1.13's spelling and the older one: the same group.
  c10::intrusive_ptr<c10d::ProcessGroupMPI> pg =
      c10d::ProcessGroupMPI::createProcessGroupMPI();
  std::shared_ptr<c10d::ProcessGroupMPI> shared = pg;
  const int n = shared->getSize(), rank = shared->getRank();
  CHECK(n == std::atoi(std::getenv("OMPI_COMM_WORLD_SIZE")));
  CHECK(rank == std::atoi(std::getenv("OMPI_COMM_WORLD_RANK")));

  // Sum of rank + 1 over the ranks: n (n + 1) / 2.
  std::vector<torch::Tensor> tensors = {
      torch::tensor({float(rank + 1), float(2 * (rank + 1))})};
  std::shared_ptr<c10d::ProcessGroup::Work> work = shared->allreduce(tensors);
  work->wait();
  CHECK(work->isCompleted() && work->isSuccess());
  CHECK(tensors[0][0].item<float>() == float(n * (n + 1) / 2));
  CHECK(tensors[0][1].item<float>() == float(n * (n + 1)));

  c10d::AllreduceOptions maxOptions;
  maxOptions.reduceOp = c10d::ReduceOp::MAX;
  std::vector<torch::Tensor> ranks = {torch::tensor({int64_t(rank)})};
  c10::intrusive_ptr<c10d::Work> maxWork = pg->allreduce(ranks, maxOptions);
  CHECK(maxWork->wait());
  CHECK(ranks[0].item<int64_t>() == n - 1);

  // An op tcc lacks: the error comes from wait(), as libtorch reports it.
  c10d::AllreduceOptions product;
  product.reduceOp = c10d::ReduceOp::PRODUCT;
  auto failed = pg->allreduce(ranks, product);
  try {
    failed->wait();
    CHECK(!"PRODUCT did not fail");
  } catch (const c10::Error &e) {
    CHECK(std::string(e.what()).find("PRODUCT") != std::string::npos);
  }

  // Assigning to the temporary data() writes into the gradient itself.
  auto w = torch::ones({3}, torch::requires_grad());
  (w * 2).sum().backward();
  torch::Tensor before = w.grad();
  w.grad().data() = w.grad().data() / n;
  CHECK(w.grad().is_same(before));
  CHECK(torch::allclose(w.grad(), torch::full({3}, 2.0 / n)));

  // Each rank's shard of 10 samples; together they cover every sample once.
  torch::data::samplers::DistributedRandomSampler sampler(10, size_t(n),
                                                          size_t(rank), false);
  auto mine = sampler.next(100).value();
  std::vector<torch::Tensor> input = {
      torch::tensor(std::vector<int64_t>(mine.begin(), mine.end()))};
  std::vector<std::vector<torch::Tensor>> output(1);
  for (int r = 0; r < n; ++r)
    output[0].push_back(torch::empty({int64_t(mine.size())}, torch::kLong));
  pg->allgather(output, input)->wait();
  std::set<int64_t> seen;
  size_t total = 0;
  for (const auto &t : output[0])
    for (int64_t i = 0; i < t.numel(); ++i, ++total)
      seen.insert(t[i].item<int64_t>());
  CHECK(n != 2 || (seen.size() == 10 && total == 10));

  std::cout << "rank " << rank << " of " << n << ": "
            << (failures ? "FAILED" : "ok") << std::endl;
  return failures ? 1 : 0;
}
