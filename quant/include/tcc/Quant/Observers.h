//===- Observers.h - Activation statistics for calibration ------*- C++ -*-===//
//
// An observer sees every value a tensor takes over the calibration batches
// and chooses the real range [min, max] its 8-bit quantization represents:
//
//   min/max      the extremes seen;
//   percentile   the extremes after dropping the (100 - p)% most extreme
//                values (split between the two tails);
//   entropy      the clipping of the extremes that minimizes the KL
//                divergence between the histogram and its quantized copy;
//   mse          the clipping that minimizes the mean squared quantization
//                error over the histogram.
//
// The histogram observers bin values over the min/max range the first pass
// found (`setHistogramRange`), so calibration makes two passes over the data
// for them. Every chosen range contains 0, so that 0 is exactly
// representable (padding and ReLU need it).
//
// Plain C++ (no MLIR, no tensors): GoogleTest checks it with hand-computed
// values.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_QUANT_OBSERVERS_H
#define TCC_QUANT_OBSERVERS_H

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tcc {
namespace quant {

/// Thrown for data or settings calibration cannot use; the message names
/// what is wrong (the layer, input or file where there is one).
class QuantError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class ObserverKind { MinMax, Percentile, Entropy, Mse };

/// "minmax", "percentile", "kl", "mse".
const char *observerName(ObserverKind kind);
/// The kind `name` names (observerName's spellings, "entropy" too), or false.
bool parseObserverKind(const std::string &name, ObserverKind *kind);

/// The integer range of an 8-bit type: [0, 255] (u8) or [-128, 127] (s8).
struct IntegerRange {
  int64_t min, max;
  static IntegerRange u8() { return {0, 255}; }
  static IntegerRange s8() { return {-128, 127}; }
};

/// A real range, min <= 0 <= max.
struct Range {
  double min = 0, max = 0;
};

/// Per-tensor affine parameters: real = (q - zeroPoint) * scale.
struct AffineParams {
  float scale = 1;
  int64_t zeroPoint = 0;
};

/// The scale and zero point mapping `range` onto `type`: scale = (max - min)
/// / (qmax - qmin) in float, zero point = qmin - round(min / scale), clamped
/// to the type. Throws QuantError naming `what` when the range is not
/// finite, or when the scale comes out zero or not a normal float (a tensor
/// that was always 0 on the calibration data, or one too large for f32).
AffineParams affineParams(const Range &range, IntegerRange type,
                          const std::string &what);

struct ObserverOptions {
  ObserverKind kind = ObserverKind::MinMax;
  /// Percentile observer: the share of values kept, in (0, 100].
  double percentile = 99.99;
  /// Bins of the histogram observers.
  int64_t bins = 2048;
  /// The type the tensor will be quantized to (entropy and mse measure the
  /// error of this type's grid).
  IntegerRange type = IntegerRange::u8();
};

class Observer {
public:
  explicit Observer(const ObserverOptions &options) : options_(options) {}
  virtual ~Observer() = default;

  /// Whether the observer needs a second pass with a histogram.
  bool needsHistogram() const { return options_.kind != ObserverKind::MinMax; }

  /// Pass 1: extremes. NaN values are ignored (they quantize to the zero
  /// point); infinities make affineParams refuse the range.
  void observeExtremes(const float *values, int64_t count);
  /// The extremes seen, widened to contain 0.
  Range extremes() const;
  int64_t count() const { return count_; }

  /// Pass 2 (histogram observers): bins over extremes() from here on.
  void setHistogramRange();
  void observeHistogram(const float *values, int64_t count);
  const std::vector<double> &histogram() const { return histogram_; }

  /// The range to quantize to.
  virtual Range range() const = 0;

protected:
  /// The real value at the lower edge of bin `i` (i == bins: the top).
  double edge(int64_t i) const;

  ObserverOptions options_;
  double min_ = 0, max_ = 0;
  int64_t count_ = 0;
  bool seen_ = false;
  std::vector<double> histogram_;
  Range binned_;
};

std::unique_ptr<Observer> makeObserver(const ObserverOptions &options);

/// The mean squared error of quantizing the histogram `counts` (bins of
/// equal width over `binned`, each value taken at its bin's center) to
/// `type` with the parameters of `clip`. Exposed for tests.
double histogramQuantizationError(const std::vector<double> &counts,
                                  const Range &binned, const Range &clip,
                                  IntegerRange type);

/// The candidate clipping ranges the entropy and mse observers try: the
/// extremes scaled by (i / steps) for i = steps / 8 .. steps.
std::vector<Range> clippingCandidates(const Range &extremes, int steps = 128);

} // namespace quant
} // namespace tcc

#endif // TCC_QUANT_OBSERVERS_H
