//===- Activation.h - ReLU, LeakyReLU, GELU, SiLU, Sigmoid, ... -*- C++ -*-===//

#ifndef TCC_FRONTEND_NN_MODULES_ACTIVATION_H
#define TCC_FRONTEND_NN_MODULES_ACTIVATION_H

#include "tcc/Frontend/nn/Cloneable.h"
#include "tcc/Frontend/nn/Functional.h"
#include "tcc/Frontend/nn/Pimpl.h"

namespace tcc {
namespace nn {

class ReLUImpl : public Cloneable<ReLUImpl> {
public:
  explicit ReLUImpl(const ReLUOptions &options = {}) : options(options) {}
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(Tensor input) { return functional::relu(input, options); }
  ReLUOptions options;
};
TCC_MODULE(ReLU);

/// x for x > 0, negative_slope * x otherwise.
class LeakyReLUImpl : public Cloneable<LeakyReLUImpl> {
public:
  explicit LeakyReLUImpl(const LeakyReLUOptions &options = {})
      : options(options) {}
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(Tensor input) {
    return functional::leaky_relu(input, options);
  }
  LeakyReLUOptions options;
};
TCC_MODULE(LeakyReLU);

class GELUImpl : public Cloneable<GELUImpl> {
public:
  explicit GELUImpl(GELUOptions options = {}) : options(std::move(options)) {}
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input) {
    return functional::gelu(input, options);
  }
  GELUOptions options;
};
TCC_MODULE(GELU);

class SiLUImpl : public Cloneable<SiLUImpl> {
public:
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input) { return functional::silu(input); }
};
TCC_MODULE(SiLU);

class SigmoidImpl : public Cloneable<SigmoidImpl> {
public:
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input) { return input.sigmoid(); }
};
TCC_MODULE(Sigmoid);

class TanhImpl : public Cloneable<TanhImpl> {
public:
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input) { return input.tanh(); }
};
TCC_MODULE(Tanh);

class SoftmaxImpl : public Cloneable<SoftmaxImpl> {
public:
  explicit SoftmaxImpl(int64_t dim) : options(dim) {}
  explicit SoftmaxImpl(const SoftmaxOptions &options) : options(options) {}
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input) { return input.softmax(options.dim()); }
  SoftmaxOptions options;
};
TCC_MODULE(Softmax);

class LogSoftmaxImpl : public Cloneable<LogSoftmaxImpl> {
public:
  explicit LogSoftmaxImpl(int64_t dim) : options(dim) {}
  explicit LogSoftmaxImpl(const LogSoftmaxOptions &options)
      : options(options) {}
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input) {
    return input.log_softmax(options.dim());
  }
  LogSoftmaxOptions options;
};
TCC_MODULE(LogSoftmax);

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_MODULES_ACTIVATION_H
