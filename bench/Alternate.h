//===- Alternate.h - Round-robin timing of candidates in one process ------===//
//
// Each rep runs every candidate once, in turn, so that load from other
// processes and the machine's drift hit all of them alike; the result is
// each candidate's median.
//
// Peers must not spin-wait between calls: a library whose idle workers spin
// takes a vCPU from whatever runs next, and on this 2-vCPU machine a
// 2-thread tcc run then measured at 1-thread speed or worse (OpenBLAS's
// server threads call sched_yield for 2^28 TSC cycles, ~0.12 s here, after
// each call: OPENBLAS_THREAD_TIMEOUT=18 makes that 2^18 cycles, ~114 us,
// about what tcc's own pools spin (100 us, TCC_POOL_SPIN_US); libgomp's:
// OMP_WAIT_POLICY=PASSIVE).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_BENCH_ALTERNATE_H
#define TCC_BENCH_ALTERNATE_H

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <vector>

namespace tcc {
namespace bench {

inline double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Runs every candidate once untimed, then `reps` timed rounds; returns each
/// candidate's seconds per round as read by `clock` (wall or CPU time).
inline std::vector<std::vector<double>>
alternateTimes(const std::vector<std::function<void()>> &candidates, int reps,
               const std::function<double()> &clock) {
  for (const auto &run : candidates)
    run();
  std::vector<std::vector<double>> times(candidates.size());
  for (int r = 0; r < reps; ++r)
    for (size_t i = 0; i < candidates.size(); ++i) {
      double t0 = clock();
      candidates[i]();
      times[i].push_back(clock() - t0);
    }
  return times;
}

/// Each candidate's median seconds over `reps` alternating rounds.
inline std::vector<double>
alternate(const std::vector<std::function<void()>> &candidates, int reps,
          const std::function<double()> &clock) {
  std::vector<double> medians;
  for (const std::vector<double> &t : alternateTimes(candidates, reps, clock))
    medians.push_back(medianOf(t));
  return medians;
}

/// The p-th quantile (0..1, nearest rank) of a / b taken round by round: how
/// a ratio of medians holds up rep by rep.
inline double pairedRatioQuantile(const std::vector<double> &a,
                                  const std::vector<double> &b, double p) {
  std::vector<double> ratios;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    ratios.push_back(a[i] / b[i]);
  if (ratios.empty())
    return 0;
  std::sort(ratios.begin(), ratios.end());
  size_t rank = size_t(p * double(ratios.size() - 1) + 0.5);
  return ratios[std::min(rank, ratios.size() - 1)];
}

/// A note for stdout when the peers' threads would spin between calls.
inline const char *spinningPeersNote() {
  if (!std::getenv("OPENBLAS_THREAD_TIMEOUT"))
    return "note: OPENBLAS_THREAD_TIMEOUT is unset: OpenBLAS's idle workers "
           "spin ~0.1 s after each call and slow down whatever runs next at "
           "2+ threads (docs/performance.md runs with "
           "OPENBLAS_THREAD_TIMEOUT=18)\n";
  return "";
}

} // namespace bench
} // namespace tcc

#endif // TCC_BENCH_ALTERNATE_H
