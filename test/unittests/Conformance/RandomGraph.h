//===- RandomGraph.h - Seeded small valid graphs of mixed tcc ops ---------===//
//
// A seed determines a function of f32 tensors built from elementwise ops
// with broadcasting, matmul and linear, reductions, reshape and transpose,
// softmax, and a conv2d + pool branch, together with seeded inputs. Every
// graph is valid by construction (the generator tracks shapes).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_CONFORMANCE_RANDOMGRAPH_H
#define TCC_TEST_CONFORMANCE_RANDOMGRAPH_H

#include "tcc/tcc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {
namespace conformance {

struct RandomGraph {
  std::string ir; // func.func @main
  std::vector<Tensor> inputs;
  std::vector<std::string> ops; // the op names, in order
};

RandomGraph randomGraph(uint64_t seed);

} // namespace conformance
} // namespace tcc

#endif // TCC_TEST_CONFORMANCE_RANDOMGRAPH_H
