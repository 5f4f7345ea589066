//===- EdgeValues.h - the values where op semantics drift ---------*- C++ -*-===//
//
// NaN, and plus and minus: zero, the smallest subnormal, a subnormal near
// the normal range, the smallest normal, a few ordinary magnitudes, the
// largest finite value and infinity. Every check of a copy of an op's
// semantics against ScalarOps.h runs over these.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_UNITTESTS_EDGEVALUES_H
#define TCC_TEST_UNITTESTS_EDGEVALUES_H

#include <limits>
#include <vector>

namespace tcc {
namespace test {

/// The edge values of `T`, held in `V` (double holds every float exactly).
template <class T, class V = T> std::vector<V> edgeValues() {
  using L = std::numeric_limits<T>;
  std::vector<V> values = {V(L::quiet_NaN())};
  for (T m : {T(0), L::denorm_min(), T(L::min() / 2), L::min(), T(0.5), T(1),
              T(1.5), T(2.5), T(3), T(7), T(30), T(100), L::max(),
              L::infinity()}) {
    values.push_back(V(m));
    values.push_back(V(-m));
  }
  return values;
}

} // namespace test
} // namespace tcc

#endif // TCC_TEST_UNITTESTS_EDGEVALUES_H
