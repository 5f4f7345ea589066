//===- RNN.cpp - LSTM and GRU ---------------------------------------------===//

#include "tcc/Frontend/nn/modules/RNN.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/Ops/Indexing.h"
#include "tcc/Frontend/Ops/NN.h"
#include "tcc/Frontend/nn/Init.h"

#include <cmath>
#include <optional>
#include <ostream>

namespace tcc {
namespace nn {
namespace {

struct Shape {
  int64_t layers, directions, hidden, gates;
  bool bias;
};

/// Registers PyTorch's parameters for every layer and direction.
std::vector<Tensor> registerWeights(Module &m, int64_t inputSize,
                                    const Shape &s) {
  std::vector<Tensor> flat;
  for (int64_t layer = 0; layer < s.layers; ++layer) {
    int64_t in = layer == 0 ? inputSize : s.hidden * s.directions;
    for (int64_t dir = 0; dir < s.directions; ++dir) {
      std::string suffix =
          "_l" + std::to_string(layer) + (dir ? "_reverse" : "");
      flat.push_back(m.register_parameter(
          "weight_ih" + suffix, tcc::empty({s.gates * s.hidden, in})));
      flat.push_back(m.register_parameter(
          "weight_hh" + suffix, tcc::empty({s.gates * s.hidden, s.hidden})));
      if (s.bias) {
        flat.push_back(m.register_parameter("bias_ih" + suffix,
                                            tcc::empty({s.gates * s.hidden})));
        flat.push_back(m.register_parameter("bias_hh" + suffix,
                                            tcc::empty({s.gates * s.hidden})));
      }
    }
  }
  return flat;
}

void initWeights(const std::vector<Tensor> &flat, int64_t hidden) {
  double bound = 1.0 / std::sqrt(double(hidden));
  for (const Tensor &w : flat)
    init::uniform_(w, -bound, bound);
}

/// The recurrence of one direction of one layer over `gatesX` (the input
/// projections, [seq, batch, gates * H]); returns outputs [seq, batch, H].
template <class Cell>
Tensor runDirection(const Tensor &gatesX, bool reverse, const Cell &cell) {
  int64_t seq = gatesX.size(0);
  std::vector<Tensor> outputs(static_cast<size_t>(seq));
  for (int64_t i = 0; i < seq; ++i) {
    int64_t t = reverse ? seq - 1 - i : i;
    outputs[size_t(t)] = cell(gatesX[t]);
  }
  return stack(outputs, 0);
}

/// The parameters of one layer and direction (`index` = layer *
/// directions + direction) in registerWeights' order.
struct DirectionWeights {
  Tensor wih, whh;
  std::optional<Tensor> bih, bhh;
};
DirectionWeights weightsOf(const std::vector<Tensor> &flat, const Shape &s,
                           int64_t index) {
  size_t w = size_t(index) * (s.bias ? 4 : 2);
  DirectionWeights d{flat[w], flat[w + 1], std::nullopt, std::nullopt};
  if (s.bias) {
    d.bih = flat[w + 2];
    d.bhh = flat[w + 3];
  }
  return d;
}

/// Every layer and direction over x ([seq, batch, feature]): `direction`
/// (index, layer input, weights, reverse) returns one direction's outputs,
/// which are concatenated along features; dropout between layers. Returns
/// the last layer's outputs.
template <class Direction>
Tensor runLayers(Tensor x, const Shape &s, const std::vector<Tensor> &flat,
                 double dropout, bool training, const Direction &direction) {
  for (int64_t layer = 0; layer < s.layers; ++layer) {
    std::vector<Tensor> outs;
    for (int64_t dir = 0; dir < s.directions; ++dir) {
      int64_t index = layer * s.directions + dir;
      outs.push_back(direction(index, x, weightsOf(flat, s, index), dir == 1));
    }
    x = outs.size() == 1 ? outs[0] : cat(outs, 2);
    if (dropout > 0 && layer + 1 < s.layers)
      x = tcc::dropout(x, dropout, training);
  }
  return x;
}

struct Prepared {
  Tensor input; // [seq, batch, feature]
  bool batched;
};

Prepared prepareInput(const Tensor &input, bool batchFirst, int64_t inputSize,
                      const char *name) {
  TCC_CHECK(input.dim() == 2 || input.dim() == 3, name,
            ": Expected input to be 2-D or 3-D but received ", input.dim(),
            "-D tensor");
  bool batched = input.dim() == 3;
  Tensor x = batched ? (batchFirst ? input.transpose(0, 1) : input)
                     : input.unsqueeze(1);
  TCC_CHECK(x.size(2) == inputSize, name,
            ": input.size(-1) must be equal to "
            "input_size. Expected ",
            inputSize, ", got ", x.size(2));
  return {x, batched};
}

Tensor finishOutput(Tensor out, bool batched, bool batchFirst) {
  if (!batched)
    return out.squeeze(1);
  return batchFirst ? out.transpose(0, 1) : out;
}

Tensor prepareState(const Tensor &h, const Shape &s, int64_t batch,
                    bool batched, const char *name, const char *what,
                    const Tensor &like) {
  if (!h.defined())
    return zeros({s.layers * s.directions, batch, s.hidden}, like.options());
  Tensor state = batched ? h : h.unsqueeze(1);
  TCC_CHECK(state.dim() == 3 && state.size(0) == s.layers * s.directions &&
                state.size(1) == batch && state.size(2) == s.hidden,
            name, ": Expected ", what, " size (", s.layers * s.directions, ", ",
            batch, ", ", s.hidden, "), got ", h.sizes());
  return state;
}

} // namespace

// --- LSTM --------------------------------------------------------------------

LSTMImpl::LSTMImpl(const LSTMOptions &options) : options(options) { reset(); }

void LSTMImpl::reset() {
  TCC_CHECK(options.proj_size() == 0, "LSTM: proj_size is not supported by "
                                      "tcc");
  TCC_CHECK(options.num_layers() > 0 && options.hidden_size() > 0,
            "LSTM: num_layers and hidden_size must be positive");
  TCC_CHECK(options.dropout() >= 0 && options.dropout() <= 1,
            "dropout should be a number in range [0, 1] representing the "
            "probability of an element being zeroed");
  flat_weights_ =
      registerWeights(*this, options.input_size(),
                      {options.num_layers(), options.bidirectional() ? 2 : 1,
                       options.hidden_size(), 4, options.bias()});
  reset_parameters();
}

void LSTMImpl::reset_parameters() {
  initWeights(flat_weights_, options.hidden_size());
}

void LSTMImpl::pretty_print(std::ostream &stream) const {
  stream << std::boolalpha
         << "torch::nn::LSTM(input_size=" << options.input_size()
         << ", hidden_size=" << options.hidden_size()
         << ", num_layers=" << options.num_layers()
         << ", bias=" << options.bias()
         << ", batch_first=" << options.batch_first()
         << ", dropout=" << options.dropout()
         << ", bidirectional=" << options.bidirectional() << ")";
}

std::tuple<Tensor, std::tuple<Tensor, Tensor>>
LSTMImpl::forward(const Tensor &input,
                  std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  Shape s{options.num_layers(), options.bidirectional() ? 2 : 1,
          options.hidden_size(), 4, options.bias()};
  Prepared p =
      prepareInput(input, options.batch_first(), options.input_size(), "LSTM");
  int64_t batch = p.input.size(1);
  Tensor h0 = hx_opt ? std::get<0>(*hx_opt) : Tensor();
  Tensor c0 = hx_opt ? std::get<1>(*hx_opt) : Tensor();
  h0 = prepareState(h0, s, batch, p.batched, "LSTM", "hidden[0]", p.input);
  c0 = prepareState(c0, s, batch, p.batched, "LSTM", "hidden[1]", p.input);

  std::vector<Tensor> hn, cn;
  Tensor x = runLayers(
      p.input, s, flat_weights_, options.dropout(), is_training(),
      [&](int64_t index, const Tensor &in, const DirectionWeights &w,
          bool reverse) {
        Tensor h = h0[index], c = c0[index];
        Tensor out = runDirection(
            linear(in, w.wih, w.bih), reverse, [&](const Tensor &gx) {
              std::vector<Tensor> g = (gx + linear(h, w.whh, w.bhh)).chunk(4, 1);
              c = g[1].sigmoid() * c + g[0].sigmoid() * g[2].tanh();
              h = g[3].sigmoid() * c.tanh();
              return h;
            });
        hn.push_back(h);
        cn.push_back(c);
        return out;
      });
  Tensor hN = stack(hn, 0), cN = stack(cn, 0);
  if (!p.batched) {
    hN = hN.squeeze(1);
    cN = cN.squeeze(1);
  }
  return {finishOutput(x, p.batched, options.batch_first()), {hN, cN}};
}

// --- GRU ---------------------------------------------------------------------

GRUImpl::GRUImpl(const GRUOptions &options) : options(options) { reset(); }

void GRUImpl::reset() {
  TCC_CHECK(options.num_layers() > 0 && options.hidden_size() > 0,
            "GRU: num_layers and hidden_size must be positive");
  TCC_CHECK(options.dropout() >= 0 && options.dropout() <= 1,
            "dropout should be a number in range [0, 1] representing the "
            "probability of an element being zeroed");
  flat_weights_ =
      registerWeights(*this, options.input_size(),
                      {options.num_layers(), options.bidirectional() ? 2 : 1,
                       options.hidden_size(), 3, options.bias()});
  reset_parameters();
}

void GRUImpl::reset_parameters() {
  initWeights(flat_weights_, options.hidden_size());
}

void GRUImpl::pretty_print(std::ostream &stream) const {
  stream << std::boolalpha
         << "torch::nn::GRU(input_size=" << options.input_size()
         << ", hidden_size=" << options.hidden_size()
         << ", num_layers=" << options.num_layers()
         << ", bias=" << options.bias()
         << ", batch_first=" << options.batch_first()
         << ", dropout=" << options.dropout()
         << ", bidirectional=" << options.bidirectional() << ")";
}

std::tuple<Tensor, Tensor> GRUImpl::forward(const Tensor &input, Tensor hx) {
  Shape s{options.num_layers(), options.bidirectional() ? 2 : 1,
          options.hidden_size(), 3, options.bias()};
  Prepared p =
      prepareInput(input, options.batch_first(), options.input_size(), "GRU");
  int64_t batch = p.input.size(1);
  Tensor h0 = prepareState(hx, s, batch, p.batched, "GRU", "hidden", p.input);
  std::vector<Tensor> hn;
  Tensor x = runLayers(
      p.input, s, flat_weights_, options.dropout(), is_training(),
      [&](int64_t index, const Tensor &in, const DirectionWeights &w,
          bool reverse) {
        Tensor h = h0[index];
        Tensor out = runDirection(
            linear(in, w.wih, w.bih), reverse, [&](const Tensor &gx) {
              std::vector<Tensor> i = gx.chunk(3, 1);
              std::vector<Tensor> hh = linear(h, w.whh, w.bhh).chunk(3, 1);
              Tensor r = (i[0] + hh[0]).sigmoid();
              Tensor z = (i[1] + hh[1]).sigmoid();
              Tensor n = (i[2] + r * hh[2]).tanh();
              h = (1 - z) * n + z * h;
              return h;
            });
        hn.push_back(h);
        return out;
      });
  Tensor hN = stack(hn, 0);
  if (!p.batched)
    hN = hN.squeeze(1);
  return {finishOutput(x, p.batched, options.batch_first()), hN};
}

} // namespace nn
} // namespace tcc
