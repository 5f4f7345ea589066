//===- ObserversTest.cpp - Calibration observers, hand-computed -----------===//

#include "tcc/Quant/Observers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace tcc::quant;

namespace {

std::unique_ptr<Observer> observed(ObserverKind kind,
                                   const std::vector<float> &values,
                                   double percentile = 99.99) {
  ObserverOptions options;
  options.kind = kind;
  options.percentile = percentile;
  auto o = makeObserver(options);
  o->observeExtremes(values.data(), int64_t(values.size()));
  if (o->needsHistogram()) {
    o->setHistogramRange();
    o->observeHistogram(values.data(), int64_t(values.size()));
  }
  return o;
}

TEST(Observers, MinMaxIsTheExtremesOverBatchesWidenedToZero) {
  ObserverOptions options;
  auto o = makeObserver(options);
  std::vector<float> a = {0.5f, 2.0f}, b = {-1.0f, 3.0f, NAN};
  o->observeExtremes(a.data(), 2);
  o->observeExtremes(b.data(), 3);
  EXPECT_EQ(o->range().min, -1.0);
  EXPECT_EQ(o->range().max, 3.0);
  // Positive data still maps 0 exactly.
  auto positive = observed(ObserverKind::MinMax, {1.0f, 2.0f});
  EXPECT_EQ(positive->range().min, 0.0);
  EXPECT_EQ(positive->range().max, 2.0);
}

TEST(Observers, AffineParamsOfARange) {
  // [-1, 3] on u8: scale 4 / 255, zero point 0 - round(-1 / (4/255)) = 64
  // (63.75 rounds to 64).
  AffineParams u8 = affineParams({-1, 3}, IntegerRange::u8(), "t");
  EXPECT_EQ(u8.scale, 4.0f / 255.0f);
  EXPECT_EQ(u8.zeroPoint, 64);
  // [0, 2.55] on s8: scale 0.01, zero point -128.
  AffineParams s8 = affineParams({0, 2.55}, IntegerRange::s8(), "t");
  EXPECT_EQ(s8.scale, float(2.55 / 255));
  EXPECT_EQ(s8.zeroPoint, -128);
}

TEST(Observers, ZeroAndOverflowingScalesAreRefused) {
  EXPECT_THROW(
      {
        try {
          affineParams({0, 0}, IntegerRange::u8(), "layer x: output");
        } catch (const QuantError &e) {
          EXPECT_NE(std::string(e.what()).find("layer x: output: the scale "
                                               "comes out zero"),
                    std::string::npos)
              << e.what();
          throw;
        }
      },
      QuantError);
  EXPECT_THROW(affineParams({0, 1e300}, IntegerRange::u8(), "t"), QuantError);
  EXPECT_THROW(affineParams({0, 1e-44}, IntegerRange::u8(), "t"), QuantError);
  EXPECT_THROW(
      affineParams({0, std::numeric_limits<double>::infinity()},
                   IntegerRange::u8(), "t"),
      QuantError);
}

TEST(Observers, PercentileDropsTheTail) {
  // 999 values of 0.5 and one of 2048: the min/max range is [0, 2048], 2048
  // bins of width 1. Keeping 99.8% drops 0.1% (one value) from each tail:
  // the top bin holds just that value, so the range ends at bin 0's top, 1.
  std::vector<float> values(999, 0.5f);
  values.push_back(2048.0f);
  auto o = observed(ObserverKind::Percentile, values, 99.8);
  EXPECT_EQ(o->range().min, 0.0);
  EXPECT_EQ(o->range().max, 1.0);
  // Keeping everything is min/max.
  auto all = observed(ObserverKind::Percentile, values, 100);
  EXPECT_EQ(all->range().max, 2048.0);
}

TEST(Observers, PercentileDropsBothTails) {
  // One value at -1024, 998 at 0.5, one at 1024: extremes [-1024, 1024],
  // 2048 bins of width 1 (bin i covers [i - 1024, i - 1023)). Keeping 99.8%
  // drops one value from each tail: the range is bin 1024's [0, 1].
  std::vector<float> values(998, 0.5f);
  values.push_back(-1024.0f);
  values.push_back(1024.0f);
  auto o = observed(ObserverKind::Percentile, values, 99.8);
  EXPECT_EQ(o->range().min, 0.0);
  EXPECT_EQ(o->range().max, 1.0);
}

TEST(Observers, HistogramErrorOfAGridPoint) {
  // One bin per unit over [0, 4]; counts at centers 0.5 and 2.5. Clip
  // [0, 127.5] on u8 has scale 0.5: both centers lie on the grid, error 0.
  std::vector<double> counts = {1, 0, 1, 0};
  EXPECT_EQ(histogramQuantizationError(counts, {0, 4}, {0, 127.5},
                                       IntegerRange::u8()),
            0.0);
  // Clip [0, 255/256] (scale 1/256): 0.5 is exact, 2.5 saturates to
  // 255/256; the mean squared error is (2.5 - 255/256)^2 / 2.
  double top = 255.0 / 256.0;
  double e = histogramQuantizationError(counts, {0, 4}, {0, top},
                                        IntegerRange::u8());
  EXPECT_EQ(e, (2.5 - top) * (2.5 - top) / 2);
}

/// The mse observer picks the candidate of least error, measured here
/// directly on the raw values (which sit at bin centers).
TEST(Observers, MseMinimizesTheErrorOverTheCandidates) {
  // 2048 bins over [0, 2048]: values at centers. Most mass near 0, one far
  // outlier: clipping it trades one large error for a finer grid.
  std::vector<float> values;
  for (int i = 0; i < 4000; ++i)
    values.push_back(float(i % 40) + 0.5f);
  values.push_back(2047.5f);
  values.push_back(0.0f); // so the extremes are [0, 2048]
  values.push_back(2048.0f);
  auto o = observed(ObserverKind::Mse, values);
  Range chosen = o->range();

  auto rawError = [&](const Range &clip) {
    AffineParams p = affineParams(clip, IntegerRange::u8(), "t");
    double error = 0;
    for (float v : values) {
      // The histogram puts 0 and 2048 in the first and last bins (centers
      // 0.5 and 2047.5).
      double x = v == 0.0f ? 0.5 : v == 2048.0f ? 2047.5 : v;
      double q = std::min(255.0, std::max(0.0, std::nearbyint(x / p.scale) +
                                                   double(p.zeroPoint)));
      double back = (q - double(p.zeroPoint)) * p.scale;
      error += (x - back) * (x - back);
    }
    return error / double(values.size());
  };
  double best = std::numeric_limits<double>::infinity();
  for (const Range &c : clippingCandidates({0, 2048}))
    best = std::min(best, rawError(c));
  EXPECT_NEAR(rawError(chosen), best, 1e-9 * best);
  EXPECT_LT(chosen.max, 2048.0);
  EXPECT_LT(rawError(chosen), rawError({0, 2048}));
}

TEST(Observers, EntropyClipsALongTailButKeepsTheBulk) {
  // An exponential bulk (mean 10; 99.99% below 100) and a sparse tail to
  // 2048: a grid over all of [0, 2048] flattens the bulk's slope, so the
  // KL-optimal clip keeps the bulk and cuts into the tail.
  std::vector<float> values;
  for (int i = 0; i < 100000; ++i)
    values.push_back(float(-10.0 * std::log(1.0 - (i + 0.5) / 100000.0)));
  for (int i = 0; i < 10; ++i)
    values.push_back(2048.0f - float(i) * 100.0f);
  auto o = observed(ObserverKind::Entropy, values);
  EXPECT_GE(o->range().max, 100.0);
  EXPECT_LT(o->range().max, 2048.0);
  EXPECT_EQ(o->range().min, 0.0);
}

TEST(Observers, NamesParse) {
  ObserverKind k;
  ASSERT_TRUE(parseObserverKind("kl", &k));
  EXPECT_EQ(k, ObserverKind::Entropy);
  ASSERT_TRUE(parseObserverKind("entropy", &k));
  EXPECT_EQ(k, ObserverKind::Entropy);
  ASSERT_TRUE(parseObserverKind("mse", &k));
  EXPECT_EQ(k, ObserverKind::Mse);
  EXPECT_FALSE(parseObserverKind("max", &k));
  ObserverOptions bad;
  bad.percentile = 0;
  EXPECT_THROW(makeObserver(bad), QuantError);
}

} // namespace
