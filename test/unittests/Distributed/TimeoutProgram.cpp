//===- TimeoutProgram.cpp - A rank that never joins a collective ----------===//
//
// Under mpirun -np 2 with a short TCC_DIST_TIMEOUT: rank 1 skips the
// allreduce that rank 0 starts. Rank 0 must print the collective, its rank
// and the tensor, and abort the job (ctest matches the message); without
// the timeout it would wait forever. `--unchecked` turns the signature
// exchange off, so the wait happens in the data collective itself.
//
//===----------------------------------------------------------------------===//

#include "tcc/distributed.h"
#include "tcc/tcc.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

int main(int argc, char **argv) {
  tcc::distributed::InitOptions options;
  options.check_signatures = !(argc > 1 && !std::strcmp(argv[1], "--unchecked"));
  auto pg = tcc::distributed::init_process_group("mpi", options);
  if (pg->rank() == 1) {
    // Busy elsewhere for far longer than the timeout; MPI_Abort ends it.
    std::this_thread::sleep_for(std::chrono::seconds(60));
    std::printf("rank 1 was not aborted\n");
    return 1;
  }
  tcc::Tensor weights = tcc::ones({3});
  pg->allreduce_async(weights, tcc::distributed::ReduceOp::Sum, "weights")->wait();
  std::printf("rank 0's allreduce returned without rank 1\n");
  return 1;
}
