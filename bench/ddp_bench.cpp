//===- ddp_bench.cpp - DistributedDataParallel step time and overlap ------===//
//
// The MLP 784-4096-4096-10 (20.0 M parameters: 80 MB of float gradients)
// trained with SGD at a global batch of 64, split across the ranks. For
// overlap on and off it prints the median step time, the median time the
// allreduces took (first bucket started to all done) and how much of that
// was hidden behind backward (1 - the time the last hook waited after the
// last gradient / the communication time). With one rank it also times the
// step without DistributedDataParallel.
//
//   mpirun --allow-run-as-root --oversubscribe -np 2 tcc-ddp-bench [--steps 15]
//
//===----------------------------------------------------------------------===//

#include "tcc/distributed.h"
#include "tcc/nn.h"
#include "tcc/optim.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace tcc;
using Clock = std::chrono::steady_clock;

namespace {

struct MlpImpl : nn::Module {
  MlpImpl()
      : fc1(register_module("fc1", nn::Linear(784, 4096))),
        fc2(register_module("fc2", nn::Linear(4096, 4096))),
        fc3(register_module("fc3", nn::Linear(4096, 10))) {}
  Tensor forward(Tensor x) {
    return fc3(fc2(fc1(x).relu()).relu()).log_softmax(1);
  }
  nn::Linear fc1, fc2, fc3;
};
TCC_MODULE(Mlp);

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Result {
  double step_ms, comm_ms, exposed_ms;
};

/// Median over `steps` timed steps after 2 warm-up steps.
template <class Forward>
Result run(Forward &&forward, optim::SGD &opt, const Tensor &x,
           const Tensor &y, int steps, const distributed::Reducer *reducer,
           distributed::ProcessGroup &group) {
  std::vector<double> step, comm, exposed;
  for (int s = 0; s < steps + 2; ++s) {
    group.barrier(); // every rank starts the step together
    auto t0 = Clock::now();
    opt.zero_grad();
    nll_loss(forward(x), y).backward();
    opt.step();
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (s < 2)
      continue;
    step.push_back(ms);
    if (reducer) {
      comm.push_back(reducer->last_stats().communication.count() / 1e6);
      exposed.push_back(reducer->last_stats().exposed_wait.count() / 1e6);
    }
  }
  // Rank 0 reports the slowest rank's medians.
  Tensor m = tensor({median(step), comm.empty() ? 0.0 : median(comm),
                     exposed.empty() ? 0.0 : median(exposed)});
  group.allreduce(m, distributed::ReduceOp::Max);
  return {m[0].item<double>(), m[1].item<double>(), m[2].item<double>()};
}

} // namespace

int main(int argc, char **argv) {
  int steps = 15;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--steps") && i + 1 < argc)
      steps = std::atoi(argv[++i]);
    else {
      std::printf("usage: mpirun -np N tcc-ddp-bench [--steps 15]\n"
                  "Times DistributedDataParallel on the MLP 784-4096-4096-10 "
                  "at a global batch of 64,\nwith the allreduces overlapping "
                  "backward and after it.\n");
      return std::strcmp(argv[i], "--help") ? 2 : 0;
    }
  }
  auto group = distributed::init_process_group("mpi");
  int rank = group->rank(), world = group->size();
  const int64_t batch = 64 / world;
  manual_seed(1);
  Mlp model;
  Tensor x = randn({batch, 784});
  Tensor y = randint(0, 10, {batch});
  optim::SGD opt(model->parameters(), optim::SGDOptions(1e-3));
  if (rank == 0)
    std::printf("MLP 784-4096-4096-10, global batch 64 (%lld per rank), %d "
                "rank(s), median of %d steps\n",
                static_cast<long long>(batch), world, steps);
  if (world == 1) {
    Result plain = run([&](const Tensor &in) { return model(in); }, opt, x, y,
                       steps, nullptr, *group);
    std::printf("  without DDP           step %8.1f ms\n", plain.step_ms);
  }
  for (bool overlap : {true, false}) {
    nn::parallel::DistributedDataParallel<Mlp> ddp(
        model, nn::parallel::DistributedDataParallelOptions().overlap(overlap));
    Result r = run([&](const Tensor &in) { return ddp(in); }, opt, x, y, steps,
                   &ddp.reducer(), *group);
    if (rank == 0)
      std::printf("  DDP overlap %-3s       step %8.1f ms, allreduce %7.1f ms, "
                  "%5.1f ms after backward: %3.0f%% hidden (%zu buckets)\n",
                  overlap ? "on" : "off", r.step_ms, r.comm_ms, r.exposed_ms,
                  r.comm_ms > 0 ? std::max(0.0, 100.0 * (1 - r.exposed_ms / r.comm_ms)) : 0.0,
                  ddp.reducer().buckets().size());
  }
  return 0;
}
