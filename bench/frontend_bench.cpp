//===- frontend_bench.cpp - Eager elementwise bandwidth and dispatch cost -===//
//
// 1. `auto z = x + y;` on 16M floats, written as users write it (a new
//    result every call), against memcpy between pre-touched buffers, both
//    counted as bytes read + written. Also `add_out` into a preallocated z.
// 2. Dispatch overhead: ns per add of two 4-element tensors, without and
//    with autograd (inputs that require grad).
// Medians of repeated runs; ratios measured in the same process. The same
// source builds against libtorch (bench/libtorch_parity/run.sh compiles it
// with -DTCC_BENCH_TORCH_API against Debian's libtorch and against tcc's
// <torch/torch.h>) so the peer runs the identical program.
//
//===----------------------------------------------------------------------===//

#ifdef TCC_BENCH_TORCH_API
#include <torch/torch.h>
namespace api = torch;
#else
#include <tcc/tcc.h>
namespace api = tcc;
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <vector>

namespace {

double seconds(const std::function<void()> &fn, int reps) {
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i)
    fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
             .count() /
         reps;
}

/// CPU time of this thread (robust to other processes sharing the cores).
double threadSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double cpuSeconds(const std::function<void()> &fn, int reps) {
  double t0 = threadSeconds();
  for (int i = 0; i < reps; ++i)
    fn();
  return (threadSeconds() - t0) / reps;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double medianOf(const std::function<void()> &fn, int reps, int runs) {
  fn(); // warm-up
  std::vector<double> t;
  for (int r = 0; r < runs; ++r)
    t.push_back(seconds(fn, reps));
  return median(t);
}

} // namespace

int main(int argc, char **argv) {
  const int64_t n = 16 << 20;
  const double addBytes = 3.0 * n * sizeof(float);  // read x, y; write z
  const double copyBytes = 2.0 * n * sizeof(float); // read a; write b
  std::vector<float> a(size_t(n), 1.0f), b(size_t(n), 2.0f);

  api::Tensor x = api::rand({n}), y = api::rand({n});
  api::Tensor z;
  api::Tensor pre = api::empty({n});
  int threadCounts[] = {1, api::get_num_threads()};
  std::printf("elementwise add, 16M float32 (GB/s = bytes read + written / s)\n");
  double memcpyGBs = copyBytes / medianOf([&] {
    std::memcpy(b.data(), a.data(), size_t(n) * sizeof(float));
  }, 5, 7) / 1e9;
  std::printf("  memcpy (pre-touched, 1 thread)       %7.2f GB/s\n", memcpyGBs);
  for (int t : threadCounts) {
    api::set_num_threads(t);
    double fresh = addBytes / medianOf([&] { z = x + y; }, 5, 7) / 1e9;
    double out = addBytes / medianOf([&] { api::add_out(pre, x, y); }, 5, 7) / 1e9;
    std::printf("  z = x + y, %d thread(s)               %7.2f GB/s  (%.2f of memcpy)\n",
                t, fresh, fresh / memcpyGBs);
    std::printf("  add_out(z, x, y), %d thread(s)        %7.2f GB/s  (%.2f of memcpy)\n",
                t, out, out / memcpyGBs);
  }

  api::set_num_threads(1);
  api::Tensor s1 = api::rand({4}), s2 = api::rand({4});
  api::Tensor g1 = api::rand({4}).requires_grad_(), g2 = api::rand({4}).requires_grad_();
  api::Tensor r;
  const int reps = 200000;
  auto cpuMedian = [&](const std::function<void()> &fn) {
    fn();
    std::vector<double> t;
    for (int k = 0; k < 7; ++k)
      t.push_back(cpuSeconds(fn, reps));
    return median(t) * 1e9;
  };
  double plain = medianOf([&] { r = s1 + s2; }, reps, 7) * 1e9;
  double grad = medianOf([&] { r = g1 + g2; }, reps, 7) * 1e9;
  double plainCpu = cpuMedian([&] { r = s1 + s2; });
  double gradCpu = cpuMedian([&] { r = g1 + g2; });
  std::printf("dispatch overhead, add of two 4-element float tensors "
              "(wall / thread CPU time)\n");
  std::printf("  without autograd  %7.0f ns / %7.0f ns\n", plain, plainCpu);
  std::printf("  with autograd     %7.0f ns / %7.0f ns\n", grad, gradCpu);
  (void)argc;
  (void)argv;
  return 0;
}
