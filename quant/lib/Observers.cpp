//===- Observers.cpp - min/max, percentile, entropy and mse observers -----===//

#include "tcc/Quant/Observers.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace tcc {
namespace quant {

const char *observerName(ObserverKind kind) {
  switch (kind) {
  case ObserverKind::MinMax:
    return "minmax";
  case ObserverKind::Percentile:
    return "percentile";
  case ObserverKind::Entropy:
    return "kl";
  case ObserverKind::Mse:
    return "mse";
  }
  return "?";
}

bool parseObserverKind(const std::string &name, ObserverKind *kind) {
  for (ObserverKind k : {ObserverKind::MinMax, ObserverKind::Percentile,
                         ObserverKind::Entropy, ObserverKind::Mse})
    if (name == observerName(k)) {
      *kind = k;
      return true;
    }
  if (name == "entropy") {
    *kind = ObserverKind::Entropy;
    return true;
  }
  return false;
}

AffineParams affineParams(const Range &range, IntegerRange type,
                          const std::string &what) {
  if (!std::isfinite(range.min) || !std::isfinite(range.max))
    throw QuantError(what + ": the calibration range [" +
                     std::to_string(range.min) + ", " +
                     std::to_string(range.max) + "] is not finite");
  double lo = std::min(range.min, 0.0), hi = std::max(range.max, 0.0);
  float scale = static_cast<float>((hi - lo) / double(type.max - type.min));
  if (scale == 0)
    throw QuantError(what + ": the scale comes out zero (the range [" +
                     std::to_string(lo) + ", " + std::to_string(hi) +
                     "] is empty: the tensor was 0 on all calibration data)");
  if (!std::isnormal(scale))
    throw QuantError(what + ": the scale for the range [" +
                     std::to_string(lo) + ", " + std::to_string(hi) +
                     "] overflows or underflows float32");
  double zp = double(type.min) - std::nearbyint(lo / double(scale));
  AffineParams p;
  p.scale = scale;
  p.zeroPoint = static_cast<int64_t>(
      std::clamp(zp, double(type.min), double(type.max)));
  return p;
}

void Observer::observeExtremes(const float *values, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    float v = values[i];
    if (std::isnan(v))
      continue;
    if (!seen_) {
      min_ = max_ = v;
      seen_ = true;
    }
    min_ = std::min(min_, double(v));
    max_ = std::max(max_, double(v));
  }
  count_ += count;
}

Range Observer::extremes() const {
  return {std::min(min_, 0.0), std::max(max_, 0.0)};
}

void Observer::setHistogramRange() {
  binned_ = extremes();
  histogram_.assign(static_cast<size_t>(options_.bins), 0.0);
}

double Observer::edge(int64_t i) const {
  return binned_.min +
         (binned_.max - binned_.min) * double(i) / double(options_.bins);
}

void Observer::observeHistogram(const float *values, int64_t count) {
  double width = (binned_.max - binned_.min) / double(options_.bins);
  int64_t last = options_.bins - 1;
  for (int64_t i = 0; i < count; ++i) {
    float v = values[i];
    if (std::isnan(v))
      continue;
    int64_t bin = width > 0 ? static_cast<int64_t>(
                                  std::floor((double(v) - binned_.min) / width))
                            : 0;
    histogram_[static_cast<size_t>(std::clamp<int64_t>(bin, 0, last))] += 1;
  }
}

namespace {

Range withZero(Range r) { return {std::min(r.min, 0.0), std::max(r.max, 0.0)}; }

struct MinMaxObserver : Observer {
  using Observer::Observer;
  Range range() const override { return extremes(); }
};

struct PercentileObserver : Observer {
  using Observer::Observer;
  Range range() const override {
    double total = std::accumulate(histogram_.begin(), histogram_.end(), 0.0);
    double tail = total * (100.0 - options_.percentile) / 100.0 / 2.0;
    int64_t bins = options_.bins, lo = 0, hi = bins - 1;
    for (double below = 0; lo < bins; ++lo)
      if ((below += histogram_[lo]) > tail)
        break;
    for (double above = 0; hi >= 0; --hi)
      if ((above += histogram_[hi]) > tail)
        break;
    if (lo > hi)
      return extremes();
    return withZero({edge(lo), edge(hi + 1)});
  }
};

/// The bins of `counts` whose centers lie in `clip`: [first, last].
std::pair<int64_t, int64_t> binsInside(const std::vector<double> &counts,
                                       const Range &binned, const Range &clip) {
  int64_t bins = static_cast<int64_t>(counts.size());
  double width = (binned.max - binned.min) / double(bins);
  int64_t first = static_cast<int64_t>(
      std::ceil((clip.min - binned.min) / width - 0.5));
  int64_t last = static_cast<int64_t>(
      std::floor((clip.max - binned.min) / width - 0.5));
  return {std::clamp<int64_t>(first, 0, bins - 1),
          std::clamp<int64_t>(last, 0, bins - 1)};
}

/// KL(P || Q): P is the clipped histogram with the values outside `clip`
/// piled onto its edge bins; Q spreads each quantization level's share of
/// the clipped histogram (outliers left out) evenly over the level's
/// nonzero bins. Clipping too little wastes levels; too much piles mass on
/// the edges.
double clippingDivergence(const std::vector<double> &counts,
                          const Range &binned, const Range &clip,
                          IntegerRange type) {
  auto [first, last] = binsInside(counts, binned, clip);
  int64_t n = last - first + 1;
  std::vector<double> p(counts.begin() + first, counts.begin() + last + 1);
  std::vector<double> sliced = p;
  for (int64_t i = 0; i < first; ++i)
    p.front() += counts[i];
  for (size_t i = static_cast<size_t>(last) + 1; i < counts.size(); ++i)
    p.back() += counts[i];

  AffineParams params = affineParams(clip, type, "histogram");
  double width = (binned.max - binned.min) / double(counts.size());
  std::vector<int64_t> level(n);
  for (int64_t i = 0; i < n; ++i) {
    double center = binned.min + (double(first + i) + 0.5) * width;
    level[i] = std::clamp<int64_t>(
        static_cast<int64_t>(std::nearbyint(center / params.scale)) +
            params.zeroPoint,
        type.min, type.max);
  }
  std::vector<double> mass(type.max - type.min + 1, 0.0), nonzero(mass.size(), 0.0);
  for (int64_t i = 0; i < n; ++i)
    if (sliced[i] > 0) {
      mass[level[i] - type.min] += sliced[i];
      nonzero[level[i] - type.min] += 1;
    }
  std::vector<double> q(n, 0.0);
  for (int64_t i = 0; i < n; ++i)
    if (sliced[i] > 0)
      q[i] = mass[level[i] - type.min] / nonzero[level[i] - type.min];

  double pTotal = std::accumulate(p.begin(), p.end(), 0.0);
  double qTotal = std::accumulate(q.begin(), q.end(), 0.0);
  if (pTotal == 0 || qTotal == 0)
    return std::numeric_limits<double>::infinity();
  constexpr double kFloor = 1e-12; // Q's mass where P has outliers only
  double kl = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (p[i] == 0)
      continue;
    double pi = p[i] / pTotal, qi = std::max(q[i] / qTotal, kFloor);
    kl += pi * std::log(pi / qi);
  }
  return kl;
}

/// The candidate clip minimizing `cost` (the widest among equals).
template <class Cost>
Range bestClip(const Range &binned, Cost cost) {
  Range best = binned;
  double bestCost = std::numeric_limits<double>::infinity();
  std::vector<Range> candidates = clippingCandidates(binned);
  for (auto it = candidates.rbegin(); it != candidates.rend(); ++it) {
    double c = cost(*it);
    if (c < bestCost) {
      bestCost = c;
      best = *it;
    }
  }
  return best;
}

struct EntropyObserver : Observer {
  using Observer::Observer;
  Range range() const override {
    if (binned_.max - binned_.min == 0)
      return binned_;
    return bestClip(binned_, [&](const Range &clip) {
      return clippingDivergence(histogram_, binned_, clip, options_.type);
    });
  }
};

struct MseObserver : Observer {
  using Observer::Observer;
  Range range() const override {
    if (binned_.max - binned_.min == 0)
      return binned_;
    return bestClip(binned_, [&](const Range &clip) {
      return histogramQuantizationError(histogram_, binned_, clip,
                                        options_.type);
    });
  }
};

} // namespace

std::vector<Range> clippingCandidates(const Range &extremes, int steps) {
  std::vector<Range> out;
  for (int i = steps / 8; i <= steps; ++i) {
    double f = double(i) / double(steps);
    out.push_back({extremes.min * f, extremes.max * f});
  }
  return out;
}

double histogramQuantizationError(const std::vector<double> &counts,
                                  const Range &binned, const Range &clip,
                                  IntegerRange type) {
  AffineParams params = affineParams(clip, type, "histogram");
  double width = (binned.max - binned.min) / double(counts.size());
  double error = 0, total = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0)
      continue;
    double center = binned.min + (double(i) + 0.5) * width;
    double q = std::clamp<double>(std::nearbyint(center / params.scale) +
                                      double(params.zeroPoint),
                                  double(type.min), double(type.max));
    double back = (q - double(params.zeroPoint)) * params.scale;
    error += counts[i] * (center - back) * (center - back);
    total += counts[i];
  }
  return total > 0 ? error / total : 0;
}

std::unique_ptr<Observer> makeObserver(const ObserverOptions &options) {
  if (!(options.percentile > 0 && options.percentile <= 100))
    throw QuantError("the percentile must be in (0, 100], not " +
                     std::to_string(options.percentile));
  if (options.bins < 256)
    throw QuantError("histogram observers need at least 256 bins");
  switch (options.kind) {
  case ObserverKind::MinMax:
    return std::make_unique<MinMaxObserver>(options);
  case ObserverKind::Percentile:
    return std::make_unique<PercentileObserver>(options);
  case ObserverKind::Entropy:
    return std::make_unique<EntropyObserver>(options);
  case ObserverKind::Mse:
    return std::make_unique<MseObserver>(options);
  }
  return nullptr;
}

} // namespace quant
} // namespace tcc
