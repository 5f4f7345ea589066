//===- LinearModel.h - A small cuda model for the plugin --------*- C++ -*-===//
//
// y = relu(x W^T + bias + 0.5 r) * c and z = relu(x W^T + bias + 0.5 r), for
// x of 4x3 and r of 4x5, as three steps on a cuda module:
//   step 0, sgemm (cuBLASLt, bias + residual + ReLU): t = relu(...)
//   step 1, kernel 'k_mul' (function 'k_mul_fn', one block of 20 threads,
//           parameters y, t, c): y = t * c
//   step 2, copy: z = t
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_UNITTESTS_CUDA_LINEARMODEL_H
#define TCC_TEST_UNITTESTS_CUDA_LINEARMODEL_H

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {
namespace test {

constexpr int64_t M = 4, K = 3, N = 5;

struct LinearModel {
  std::vector<float> w, bias, c;
  std::vector<uint8_t> file;
};

// With `images`, the cuda module has these PTX images, one per `archs`;
// without, TestModels' placeholder PTX and cubin per architecture.
// `sharedBytes` is the launch's dynamic shared memory.
LinearModel
linearModel(const std::vector<std::vector<uint8_t>> *images = nullptr,
            const std::vector<std::string> &archs = {"sm_80", "sm_90"},
            uint32_t sharedBytes = 0);

// Inputs from `seed`, and the outputs in float64.
void linearInputs(int seed, std::vector<float> *x, std::vector<float> *r);
void linearReference(const LinearModel &m, const std::vector<float> &x,
                     const std::vector<float> &r, std::vector<double> *y,
                     std::vector<double> *z);

} // namespace test
} // namespace tcc

#endif // TCC_TEST_UNITTESTS_CUDA_LINEARMODEL_H
