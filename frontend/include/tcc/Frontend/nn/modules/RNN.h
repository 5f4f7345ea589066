//===- RNN.h - LSTM and GRU -------------------------------------*- C++ -*-===//
//
// PyTorch's recurrent layers: input [seq, batch, feature] ([batch, seq,
// feature] with batch_first; [seq, feature] unbatched), gates in PyTorch's
// order (LSTM: input, forget, cell, output; GRU: reset, update, new),
// parameters weight_ih_l{k}[_reverse], weight_hh_l{k}, bias_ih_l{k},
// bias_hh_l{k}, all uniform in +-1/sqrt(hidden_size). The time loop is
// written with eager ops, so autograd and the tracer see ordinary ops.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_MODULES_RNN_H
#define TCC_FRONTEND_NN_MODULES_RNN_H

#include "tcc/Frontend/nn/Cloneable.h"
#include "tcc/Frontend/nn/Options.h"
#include "tcc/Frontend/nn/Pimpl.h"

#include <optional>
#include <tuple>
#include <vector>

namespace tcc {
namespace nn {

class LSTMImpl : public Cloneable<LSTMImpl> {
public:
  LSTMImpl(int64_t input_size, int64_t hidden_size)
      : LSTMImpl(LSTMOptions(input_size, hidden_size)) {}
  explicit LSTMImpl(const LSTMOptions &options);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream &stream) const override;
  /// (output, (h_n, c_n)); hx = (h_0, c_0), zeros when absent.
  std::tuple<Tensor, std::tuple<Tensor, Tensor>>
  forward(const Tensor &input,
          std::optional<std::tuple<Tensor, Tensor>> hx_opt = std::nullopt);
  std::vector<Tensor> all_weights() const { return flat_weights_; }

  LSTMOptions options;

private:
  std::vector<Tensor> flat_weights_;
};
TCC_MODULE(LSTM);

class GRUImpl : public Cloneable<GRUImpl> {
public:
  GRUImpl(int64_t input_size, int64_t hidden_size)
      : GRUImpl(GRUOptions(input_size, hidden_size)) {}
  explicit GRUImpl(const GRUOptions &options);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream &stream) const override;
  /// (output, h_n); hx = h_0, zeros when undefined.
  std::tuple<Tensor, Tensor> forward(const Tensor &input, Tensor hx = {});
  std::vector<Tensor> all_weights() const { return flat_weights_; }

  GRUOptions options;

private:
  std::vector<Tensor> flat_weights_;
};
TCC_MODULE(GRU);

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_MODULES_RNN_H
