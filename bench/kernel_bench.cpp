//===- kernel_bench.cpp - tcc's CPU kernels against OpenBLAS --------------===//
//
// Measures tcc_sgemm (and tcc_conv2d) against OpenBLAS in the same process,
// alternating the two, and prints medians, the ratio and the fraction of the
// machine's fp32 peak. Usage (see docs/performance.md for the command that
// unsets the environment's OpenBLAS pinning):
//   tcc-kernel-bench [--reps N] [--peak GFLOPS_PER_CORE] [--only gemm|conv]
//                    [--cpu-time]
// --cpu-time times the calling thread's CPU time instead of wall time and
// runs on one thread only: on a shared, loaded machine it still shows what
// a quiet core would do (both libraries then compute on the calling thread).
//
//===----------------------------------------------------------------------===//

#include "Alternate.h"
#include "tcc/runtime/CpuFeatures.h"
#include "tcc/runtime/ThreadPool.h"
#include "tcc/runtime/kernels.h"

#include <cblas.h>

#include <time.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

bool use_cpu_time = false;

double seconds_now() {
  if (use_cpu_time) {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
  }
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

std::vector<float> random_floats(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

struct AlignedFloats {
  float *data;
  explicit AlignedFloats(size_t bytes)
      : data(static_cast<float *>(
            std::aligned_alloc(64, (bytes + 63) / 64 * 64))) {}
  ~AlignedFloats() { std::free(data); }
};

#if defined(__x86_64__)
// One core's fp32 FMA peak: 12 independent zmm FMA chains (what
// docs/performance.md calls peak), in CPU time so that other processes on a
// shared machine do not lower it.
__attribute__((target("avx512f"))) double measure_peak_gflops() {
  __m512 acc[12];
  const __m512 x = _mm512_set1_ps(0.999f), y = _mm512_set1_ps(1e-3f);
  for (int i = 0; i < 12; ++i)
    acc[i] = _mm512_set1_ps(float(i));
  const long iterations = 20000000;
  timespec t0, t1;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  for (long it = 0; it < iterations; ++it) {
#pragma GCC unroll 12
    for (int i = 0; i < 12; ++i)
      acc[i] = _mm512_fmadd_ps(acc[i], x, y);
  }
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
  float lanes[16], sink = 0;
  for (int i = 0; i < 12; ++i) {
    _mm512_storeu_ps(lanes, acc[i]);
    sink += lanes[0];
  }
  double dt =
      double(t1.tv_sec - t0.tv_sec) + 1e-9 * double(t1.tv_nsec - t0.tv_nsec);
  return iterations * 12.0 * 32.0 / dt * 1e-9 + 0.0 * sink;
}
#endif

void check(tcc_kernel_status status) {
  if (status != TCC_KERNEL_OK) {
    std::fprintf(stderr, "kernel failed: %s\n", tcc_kernels_last_error());
    std::exit(1);
  }
}

double max_relative_difference(const std::vector<float> &x,
                               const std::vector<float> &y) {
  double worst = 0, scale = 1e-30;
  for (size_t i = 0; i < x.size(); ++i) {
    worst = std::max(worst, double(std::abs(x[i] - y[i])));
    scale = std::max(scale, double(std::abs(y[i])));
  }
  return worst / scale;
}

// C = A B, or A B^T with trans_b (a linear layer: x @ W^T, W stored n x k).
void bench_gemm(int64_t m, int64_t n, int64_t k, bool trans_b, int threads,
                int reps, double peak_per_core) {
  std::vector<float> a = random_floats(size_t(m * k), 1);
  std::vector<float> b = random_floats(size_t(k * n), 2);
  std::vector<float> c_tcc(size_t(m * n)), c_packed(size_t(m * n)),
      c_blas(size_t(m * n));
  const int64_t ldb = trans_b ? k : n;
  AlignedFloats packed(tcc_sgemm_packed_b_size(k, n));
  check(tcc_sgemm_pack_b(k, n, b.data(), ldb, trans_b, packed.data));

  tcc::runtime::ThreadPool pool(threads);
  tcc_parallel parallel = pool.c_parallel();
  openblas_set_num_threads(threads);

  tcc_sgemm_args args{};
  args.m = m;
  args.n = n;
  args.k = k;
  args.a = a.data();
  args.lda = k;
  args.b = b.data();
  args.ldb = ldb;
  args.trans_b = trans_b;
  args.c = c_tcc.data();
  args.ldc = n;
  tcc_sgemm_args packed_args = args;
  packed_args.b = nullptr;
  packed_args.packed_b = packed.data;
  packed_args.c = c_packed.data();

  std::vector<double> t =
      tcc::bench::alternate({[&] { check(tcc_sgemm(&args, &parallel)); },
                             [&] { check(tcc_sgemm(&packed_args, &parallel)); },
                             [&] {
                               cblas_sgemm(CblasRowMajor, CblasNoTrans,
                                           trans_b ? CblasTrans : CblasNoTrans,
                                           int(m), int(n), int(k), 1.0f,
                                           a.data(), int(k), b.data(), int(ldb),
                                           0.0f, c_blas.data(), int(n));
                             }},
                            reps, seconds_now);
  double flops = 2.0 * double(m) * double(n) * double(k);
  double g_tcc = flops / t[0] * 1e-9, g_packed = flops / t[1] * 1e-9,
         g_blas = flops / t[2] * 1e-9, peak = peak_per_core * threads;
  std::printf("| sgemm %lldx%lldx%lld%s | %d | %.1f | %.1f | %.1f | %.2f | "
              "%.2f | %.0f%% | %.0f%% | %.1e |\n",
              (long long)m, (long long)n, (long long)k, trans_b ? " B^T" : "",
              threads, g_tcc, g_packed, g_blas, g_tcc / g_blas,
              g_packed / g_blas, 100 * g_tcc / peak, 100 * g_blas / peak,
              max_relative_difference(c_tcc, c_blas));
  std::fflush(stdout);
}

struct ConvLayer {
  const char *name;
  int64_t channels, size, out_channels, kernel, stride;
};

// The peer: Caffe-style im2col (one image, NCHW) then OpenBLAS's sgemm.
void openblas_conv_nchw(const ConvLayer &l, int64_t out_size, const float *in,
                        const float *w, float *col, float *out) {
  const int64_t pad = l.kernel / 2, pixels = out_size * out_size;
  const int64_t k = l.channels * l.kernel * l.kernel;
  const float *b = in;
  if (l.kernel != 1 || l.stride != 1) {
    for (int64_t c = 0; c < l.channels; ++c)
      for (int64_t ky = 0; ky < l.kernel; ++ky)
        for (int64_t kx = 0; kx < l.kernel; ++kx) {
          float *row = col + ((c * l.kernel + ky) * l.kernel + kx) * pixels;
          for (int64_t oy = 0; oy < out_size; ++oy) {
            int64_t iy = oy * l.stride - pad + ky;
            for (int64_t ox = 0; ox < out_size; ++ox) {
              int64_t ix = ox * l.stride - pad + kx;
              row[oy * out_size + ox] =
                  iy >= 0 && iy < l.size && ix >= 0 && ix < l.size
                      ? in[(c * l.size + iy) * l.size + ix]
                      : 0.0f;
            }
          }
        }
    b = col;
  }
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(l.out_channels),
              int(pixels), int(k), 1.0f, w, int(k), b, int(pixels), 0.0f, out,
              int(pixels));
}

void bench_conv(const ConvLayer &l, int threads, int reps, double peak) {
  const int64_t pad = l.kernel / 2;
  const int64_t out_size = (l.size + 2 * pad - l.kernel) / l.stride + 1;
  const int64_t pixels = out_size * out_size;
  const int64_t k = l.channels * l.kernel * l.kernel;
  std::vector<float> in =
      random_floats(size_t(l.channels * l.size * l.size), 3);
  std::vector<float> w = random_floats(size_t(l.out_channels * k), 4);
  std::vector<float> bias = random_floats(size_t(l.out_channels), 5);
  std::vector<float> col(size_t(k * pixels)),
      out_blas(size_t(l.out_channels * pixels));
  std::vector<float> out_nchw(out_blas.size()), out_nhwc(out_blas.size()),
      out_packed(out_blas.size());

  tcc::runtime::ThreadPool pool(threads);
  tcc_parallel parallel = pool.c_parallel();
  openblas_set_num_threads(threads);

  tcc_epilogue epilogue{};
  epilogue.alpha = 1.0f;
  tcc_conv2d_args a{};
  a.batch = 1;
  a.in_channels = l.channels;
  a.in_height = a.in_width = l.size;
  a.out_channels = l.out_channels;
  a.kernel_height = a.kernel_width = l.kernel;
  a.stride_h = a.stride_w = l.stride;
  a.pad_h = a.pad_w = pad;
  a.dilation_h = a.dilation_w = 1;
  a.groups = 1;
  a.input = in.data(); // the same numbers read as NHWC: fine for timing
  a.weight = w.data();
  a.epilogue = &epilogue;
  tcc_conv2d_args nchw = a, nhwc = a;
  nchw.layout = TCC_LAYOUT_NCHW;
  nchw.output = out_nchw.data();
  nhwc.layout = TCC_LAYOUT_NHWC;
  nhwc.output = out_nhwc.data();
  AlignedFloats ws_nchw(tcc_conv2d_workspace_size(&nchw, &parallel) + 64);
  AlignedFloats ws_nhwc(tcc_conv2d_workspace_size(&nhwc, &parallel) + 64);
  nchw.workspace = ws_nchw.data;
  nhwc.workspace = ws_nhwc.data;
  // NHWC with the weights packed beforehand, as compiled models run it.
  tcc_conv2d_args packed = nhwc;
  packed.output = out_packed.data();
  AlignedFloats packed_weight(tcc_conv2d_packed_weight_size(&nhwc) + 64);
  check(tcc_conv2d_pack_weight(&nhwc, packed_weight.data));
  packed.packed_weight = packed_weight.data;
  packed.weight = nullptr;
  AlignedFloats ws_packed(tcc_conv2d_workspace_size(&packed, &parallel) + 64);
  packed.workspace = ws_packed.data;

  std::vector<double> t =
      tcc::bench::alternate({[&] { check(tcc_conv2d(&nchw, &parallel)); },
                             [&] { check(tcc_conv2d(&nhwc, &parallel)); },
                             [&] { check(tcc_conv2d(&packed, &parallel)); },
                             [&] {
                               openblas_conv_nchw(l, out_size, in.data(),
                                                  w.data(), col.data(),
                                                  out_blas.data());
                             }},
                            reps, seconds_now);
  double flops = 2.0 * double(l.out_channels) * double(k) * double(pixels);
  // Direct-convolution FLOPs for every path (Winograd's are fewer).
  double g0 = flops / t[0] * 1e-9, g1 = flops / t[1] * 1e-9,
         g3 = flops / t[2] * 1e-9, g2 = flops / t[3] * 1e-9;
  std::printf("| %s | %d | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f | "
              "%.0f%% | %.1e |\n",
              l.name, threads, g0, g1, g3, g2, g0 / g2, g1 / g2, g3 / g2,
              100 * g0 / (peak * threads),
              max_relative_difference(out_nchw, out_blas));
  std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
  int reps = 15;
  double peak_per_core = 0; // measured below unless given
  std::string only;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--reps" && i + 1 < argc)
      reps = std::atoi(argv[++i]);
    else if (arg == "--peak" && i + 1 < argc)
      peak_per_core = std::atof(argv[++i]);
    else if (arg == "--only" && i + 1 < argc)
      only = argv[++i];
    else if (arg == "--cpu-time")
      use_cpu_time = true;
    else {
      std::fprintf(stderr,
                   "usage: %s [--reps N] [--peak GFLOPS_PER_CORE] "
                   "[--only gemm|conv] [--cpu-time]\n",
                   argv[0]);
      return 2;
    }
  }
  if (peak_per_core <= 0) {
#if defined(__x86_64__)
    if (tcc::runtime::hostCpuFeature("avx512f") ==
        tcc::runtime::CpuFeatureState::Present) {
      std::vector<double> peaks;
      for (int i = 0; i < 5; ++i)
        peaks.push_back(measure_peak_gflops());
      peak_per_core = *std::max_element(peaks.begin(), peaks.end());
    }
#endif
    if (peak_per_core <= 0)
      peak_per_core = 210.0; // docs: the development machine's figure
  }
  std::printf("%s", tcc::bench::spinningPeersNote());
  std::printf("tcc kernels: %s; OpenBLAS: %s (core %s); peak %.0f "
              "GFLOP/s per core; medians of %d alternating runs (%s)\n\n",
              tcc_kernels_isa(), openblas_get_config(), openblas_get_corename(),
              peak_per_core, reps,
              use_cpu_time ? "calling thread's CPU time" : "wall time");

  const std::vector<int> thread_counts =
      use_cpu_time ? std::vector<int>{1} : std::vector<int>{1, 2};
  if (only.empty() || only == "gemm") {
    std::printf("| shape | threads | tcc GFLOP/s | tcc packed-B GFLOP/s | "
                "OpenBLAS GFLOP/s | tcc / OpenBLAS | packed / OpenBLAS | tcc "
                "of peak | OpenBLAS of peak | max rel diff |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
    const int64_t sizes[] = {1024, 2048};
    for (int64_t s : sizes)
      for (int threads : thread_counts)
        bench_gemm(s, s, s, false, threads, reps, peak_per_core);
    // Linear layers of the MLP benchmark (784-4096-4096-10), batch 1 and 64.
    for (int64_t batch : {1, 64})
      for (int threads : thread_counts)
        bench_gemm(batch, 4096, 4096, true, threads, reps, peak_per_core);
    // The feed-forward layers of the encoder benchmark (seq 128, d 256, ff
    // 2048), where its time goes.
    for (int threads : thread_counts) {
      bench_gemm(128, 2048, 256, true, threads, reps, peak_per_core);
      bench_gemm(128, 256, 2048, true, threads, reps, peak_per_core);
    }
  }
  if (only.empty() || only == "conv") {
    std::printf(
        "\n| conv (batch 1, pad k/2) | threads | tcc NCHW GFLOP/s | tcc "
        "NHWC GFLOP/s | tcc NHWC packed GFLOP/s | OpenBLAS im2col+sgemm "
        "GFLOP/s | NCHW / OpenBLAS | NHWC / OpenBLAS | NHWC packed / "
        "OpenBLAS | NCHW of peak | max rel diff |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    const ConvLayer layers[] = {
        {"3x3 64->64, 56x56", 64, 56, 64, 3, 1},
        {"3x3 128->128, 28x28", 128, 28, 128, 3, 1},
        {"3x3 256->256, 14x14", 256, 14, 256, 3, 1},
        {"3x3 512->512, 7x7", 512, 7, 512, 3, 1},
        {"3x3 s2 64->128, 56x56", 64, 56, 128, 3, 2},
        {"1x1 256->64, 56x56", 256, 56, 64, 1, 1},
        {"1x1 64->256, 56x56", 64, 56, 256, 1, 1},
    };
    for (const ConvLayer &l : layers)
      for (int threads : thread_counts)
        bench_conv(l, threads, reps, peak_per_core);
  }
  return 0;
}
