//===- Calibrate.h - Post-training int8 quantization ------------*- C++ -*-===//
//
// Post-training static quantization of a traced (or imported) model:
//
//   auto calibration = tcc::quant::calibrate(traced, loader, options);
//   tcc::jit::TracedGraph int8 = calibration.quantize();        // all layers
//   tcc::jit::TracedGraph mixed = calibration.quantize({"fc2"}); // fc2 fp32
//
// calibrate() folds batch norm into the convolutions and linears before it,
// runs the folded model with the reference interpreter over the loader's
// batches, and records the range of every layer's input and output with the
// chosen observer (Observers.h). quantize() then rewrites each layer into
// tcc's integer ops (docs/quantization.md):
//
//   conv2d (depthwise too), linear, matmul by a constant:
//     quantize(x) -> conv2d_integer / matmul_integer with s8 weights
//     (per output channel, symmetric) -> + int32 bias -> requantize
//     -> dequantize
//   add of two tensors (residual):
//     quantize(add(dequantize(qa), dequantize(qb))) -> dequantize
//
// A ReLU that is a layer's only user is absorbed: the layer's output range
// starts at 0, so requantization's clamp at the zero point is the ReLU.
// Between quantized layers the dequantize/quantize pair of equal parameters
// is not emitted: the integer result feeds the next layer directly.
//
// Like <tcc/jit.h>, this header includes nothing from MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_QUANT_CALIBRATE_H
#define TCC_QUANT_CALIBRATE_H

#include "tcc/Quant/Observers.h"
#include "tcc/jit.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tcc {
namespace quant {

/// One batch: a tensor per model input, in the function's argument order.
using Batch = std::vector<Tensor>;

/// Calls `visit` with every calibration batch, in order. Calibration may
/// call it more than once (histogram observers make a second pass).
using BatchLoader =
    std::function<void(const std::function<void(const Batch &)> &visit)>;

/// A loader over batches held in memory.
BatchLoader loaderOf(std::vector<Batch> batches);

enum class ActivationType { U8, S8 };

struct CalibrationOptions {
  ObserverKind observer = ObserverKind::MinMax;
  /// The percentile observer's share of values kept, in (0, 100].
  double percentile = 99.99;
  /// The type of quantized activations (weights are always s8).
  ActivationType activations = ActivationType::U8;
};

/// A layer calibration can quantize.
struct LayerInfo {
  /// The weight's name without ".weight" (conv1, fc2, layer1.0.conv1), or
  /// "<kind>#<n>" for layers without a named weight (add#0).
  std::string name;
  /// conv2d, depthwise_conv2d, linear, matmul or add.
  std::string kind;
};

struct CalibrationState;

/// What calibrate() learned; quantize() can be called any number of times.
class Calibration {
public:
  Calibration(Calibration &&) noexcept;
  Calibration &operator=(Calibration &&) noexcept;
  ~Calibration();

  /// The quantizable layers, in program order.
  const std::vector<LayerInfo> &layers() const;
  /// The model with batch norm folded: the fp32 reference.
  const jit::TracedGraph &folded() const;
  /// Batches and samples (sum of dim 0 of the first input) seen.
  int64_t batches() const;
  int64_t samples() const;
  const CalibrationOptions &options() const;

  /// The model with every layer quantized except those named in
  /// `fp32Layers` (unknown names throw QuantError). Throws QuantError when
  /// a scale comes out zero or overflows, or a bias overflows int32.
  jit::TracedGraph quantize(const std::set<std::string> &fp32Layers = {}) const;

private:
  friend Calibration calibrate(const jit::TracedGraph &, const BatchLoader &,
                               const CalibrationOptions &);
  explicit Calibration(std::unique_ptr<CalibrationState> state);
  std::unique_ptr<CalibrationState> state_;
};

/// Calibrates `traced` on the loader's batches. Throws QuantError when a
/// batch does not fit the model's inputs (count, dtype or shape, naming the
/// input) or when there are no batches. Only float32 layers are quantized;
/// inputs of other types (token ids) are fine.
Calibration calibrate(const jit::TracedGraph &traced, const BatchLoader &loader,
                      const CalibrationOptions &options = {});

/// A model file (MLIR text; bytecode only with `allowBytecode`, the
/// reader not being hardened against corrupted bytecode) as a traced graph
/// of its entry function. Throws QuantError.
jit::TracedGraph readModel(const std::string &path, bool allowBytecode = false);

/// The model as MLIR text with locations, so that the int8 layers' names
/// (`loc("conv1 int8")`) reach the compiled model's plan (`tcc inspect`).
std::string modelText(const jit::TracedGraph &graph);

} // namespace quant
} // namespace tcc

#endif // TCC_QUANT_CALIBRATE_H
