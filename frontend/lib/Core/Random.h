//===- Random.h - The global random generator -----------------------------===//
//
// One generator for every random op: std::mt19937_64 seeded by
// manual_seed (default seed 67280421310721, PyTorch's). Uniform floats take
// the top 24 (float) or 53 (double) bits of a draw; normals use Box-Muller on
// two uniforms; integers take a draw modulo the range. PyTorch's streams are
// not reproduced; tcc's are stable across runs and platforms.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_CORE_RANDOM_H
#define TCC_LIB_CORE_RANDOM_H

#include <cstdint>
#include <mutex>
#include <random>
#include <sstream>
#include <string>

namespace tcc {
namespace detail {

class Generator {
public:
  /// Locks the generator for a batch of draws.
  std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mu_); }
  uint64_t next() { return engine_(); }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
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
    std::mt19937_64 engine;
    if (!(is >> engine))
      return false;
    engine_ = engine;
    return true;
  }

private:
  std::mutex mu_;
  std::mt19937_64 engine_{67280421310721ull};
};

Generator &globalGenerator();

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_CORE_RANDOM_H
