//===- Linear.h - Linear, Identity, Flatten, Unflatten ----------*- C++ -*-===//

#ifndef TCC_FRONTEND_NN_MODULES_LINEAR_H
#define TCC_FRONTEND_NN_MODULES_LINEAR_H

#include "tcc/Frontend/nn/Arg.h"
#include "tcc/Frontend/nn/Cloneable.h"
#include "tcc/Frontend/nn/Pimpl.h"

#include <vector>

namespace tcc {
namespace nn {

struct LinearOptions {
  LinearOptions(int64_t in_features, int64_t out_features)
      : in_features_(in_features), out_features_(out_features) {}
  TCC_ARG(int64_t, in_features);
  TCC_ARG(int64_t, out_features);
  TCC_ARG(bool, bias) = true;
};

/// y = x W^T + b, W [out, in] and b [out] uniform in +-1/sqrt(in) (W via
/// kaiming_uniform_ with a = sqrt(5), as libtorch).
class LinearImpl : public Cloneable<LinearImpl> {
public:
  LinearImpl(int64_t in_features, int64_t out_features)
      : LinearImpl(LinearOptions(in_features, out_features)) {}
  explicit LinearImpl(const LinearOptions &options);

  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input);

  LinearOptions options;
  Tensor weight;
  Tensor bias;
};
TCC_MODULE(Linear);

/// Returns its input.
class IdentityImpl : public Cloneable<IdentityImpl> {
public:
  IdentityImpl() = default;
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input) { return input; }
};
TCC_MODULE(Identity);

struct FlattenOptions {
  TCC_ARG(int64_t, start_dim) = 1;
  TCC_ARG(int64_t, end_dim) = -1;
};

class FlattenImpl : public Cloneable<FlattenImpl> {
public:
  explicit FlattenImpl(const FlattenOptions &options = {}) : options(options) {}
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input) {
    return input.flatten(options.start_dim(), options.end_dim());
  }
  FlattenOptions options;
};
TCC_MODULE(Flatten);

struct UnflattenOptions {
  UnflattenOptions(int64_t dim, std::vector<int64_t> sizes)
      : dim_(dim), sizes_(std::move(sizes)) {}
  TCC_ARG(int64_t, dim);
  TCC_ARG(std::vector<int64_t>, sizes);
};

class UnflattenImpl : public Cloneable<UnflattenImpl> {
public:
  UnflattenImpl(int64_t dim, std::vector<int64_t> sizes)
      : UnflattenImpl(UnflattenOptions(dim, std::move(sizes))) {}
  explicit UnflattenImpl(UnflattenOptions options)
      : options(std::move(options)) {}
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input) {
    return input.unflatten(options.dim(), options.sizes());
  }
  UnflattenOptions options;
};
TCC_MODULE(Unflatten);

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_MODULES_LINEAR_H
