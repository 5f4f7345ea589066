//===- Random.h - The global random generator -----------------------------===//
//
// One generator for every random op: MT19937-64 (Mt19937.h, the stream of
// std::mt19937_64) seeded by manual_seed (default seed 67280421310721,
// PyTorch's). Uniform floats take
// the top 24 (float) or 53 (double) bits of a draw; normals use Box-Muller on
// two uniforms; integers take a draw modulo the range. PyTorch's streams are
// not reproduced; tcc's are stable across runs and platforms.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_CORE_RANDOM_H
#define TCC_LIB_CORE_RANDOM_H

#include "Mt19937.h"

#include <cstdint>
#include <mutex>
#include <sstream>
#include <string>

namespace tcc {
namespace detail {

class Generator {
public:
  /// Locks the generator for a batch of draws.
  std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mu_); }
  uint64_t next() { return engine_(); }
  /// out[0, count) = the next `count` draws of next() (faster in bulk).
  void fill(uint64_t *out, int64_t count) { engine_.fill(out, count); }
  /// The uniform double in [0, 1) that uniform() makes of a draw.
  static double toUniform(uint64_t draw) {
    return double(draw >> 11) * 0x1.0p-53;
  }
  double uniform() { return toUniform(next()); }
  float uniformFloat() { return float(next() >> 40) * 0x1.0p-24f; }
  void seed(uint64_t s) { engine_.seed(s); }
  /// The engine's state as text, and back (training checkpoints).
  std::string state() {
    std::ostringstream os;
    os << engine_;
    return os.str();
  }
  bool setState(const std::string &text) {
    std::istringstream is(text);
    Mt19937_64 engine;
    if (!(is >> engine))
      return false;
    engine_ = engine;
    return true;
  }

private:
  std::mutex mu_;
  Mt19937_64 engine_{67280421310721ull};
};

Generator &globalGenerator();

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_CORE_RANDOM_H
