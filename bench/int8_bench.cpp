//===- int8_bench.cpp - tcc's int8 GEMM variants against its fp32 GEMM ----===//
//
// For the GEMMs of ResNet-18's convolutions (batch 1, NHWC im2col: m =
// output pixels, n = output channels, k = kernel area x input channels)
// and of the MLP 784-4096-4096-10 at batch 64, times tcc_sgemm (packed B)
// and tcc_qgemm on every int8 variant this CPU runs (packed B, u8 output
// with bias, per-channel scales and ReLU), alternating them in one process
// on the calling thread, and prints GOP/s (2 ops per multiply-add), the
// ratio to fp32 and the fraction of the machine's int8 VNNI peak (measured
// here with independent vpdpbusd chains). Usage (docs/performance.md):
//   tcc-int8-bench [--reps N] [--cpu-time] [--only resnet|mlp|conv]
// The last table times ResNet-18's convolutions whole: tcc_conv2d (fp32,
// NHWC, packed weights) against tcc_qconv2d on the active int8 variant.
// --cpu-time times the thread's CPU time instead of wall time: on a shared,
// loaded machine it still shows what a quiet core would do.
//
//===----------------------------------------------------------------------===//

#include "Alternate.h"
#include "tcc/runtime/CpuFeatures.h"
#include "tcc/runtime/kernels.h"
#include "tcc/runtime/kernels_int8.h"

#include <time.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
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

void check(tcc_kernel_status status) {
  if (status != TCC_KERNEL_OK) {
    std::fprintf(stderr, "kernel failed: %s\n", tcc_kernels_last_error());
    std::exit(1);
  }
}

struct Aligned {
  void *data;
  explicit Aligned(size_t bytes)
      : data(std::aligned_alloc(64, (bytes + 63) / 64 * 64)) {}
  ~Aligned() { std::free(data); }
};

#if defined(__x86_64__)
// One core's int8 peak: 12 independent vpdpbusd chains on zmm registers
// (64 multiply-adds each), in CPU time.
__attribute__((target("avx512f,avx512vnni"))) double measure_vnni_peak() {
  __m512i acc[12];
  const __m512i x = _mm512_set1_epi8(3), y = _mm512_set1_epi8(-2);
  for (int i = 0; i < 12; ++i)
    acc[i] = _mm512_set1_epi32(i);
  const long iterations = 20000000;
  timespec t0, t1;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  for (long it = 0; it < iterations; ++it) {
#pragma GCC unroll 12
    for (int i = 0; i < 12; ++i)
      acc[i] = _mm512_dpbusd_epi32(acc[i], x, y);
  }
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
  int32_t lanes[16], sink = 0;
  for (int i = 0; i < 12; ++i) {
    _mm512_storeu_si512(lanes, acc[i]);
    sink += lanes[0];
  }
  double dt =
      double(t1.tv_sec - t0.tv_sec) + 1e-9 * double(t1.tv_nsec - t0.tv_nsec);
  return iterations * 12.0 * 64.0 * 2.0 / dt * 1e-9 + 0.0 * sink;
}
#endif

struct Shape {
  std::string name;
  int64_t m, n, k;
  int count = 1; // times the layer occurs in its model
};

// Seconds per run of each candidate (fp32 first, then the int8 variants)
// and the ops of one run, summed over a model's layers times their count.
struct Totals {
  std::vector<double> seconds;
  double ops = 0;
  void add(const std::vector<double> &t, double layer_ops, int count) {
    seconds.resize(t.size());
    for (size_t i = 0; i < t.size(); ++i)
      seconds[i] += t[i] * count;
    ops += layer_ops * count;
  }
};

std::vector<Shape> resnet18_shapes() {
  // (layer, output size, output channels, kernel, input channels)
  return {{"conv1 7x7/2 3-64", 112 * 112, 64, 7 * 7 * 3, 1},
          {"layer1 3x3 64-64 (x4)", 56 * 56, 64, 9 * 64, 4},
          {"layer2.0 3x3/2 64-128", 28 * 28, 128, 9 * 64, 1},
          {"layer2 3x3 128-128 (x3)", 28 * 28, 128, 9 * 128, 3},
          {"layer2 down 1x1/2 64-128", 28 * 28, 128, 64, 1},
          {"layer3.0 3x3/2 128-256", 14 * 14, 256, 9 * 128, 1},
          {"layer3 3x3 256-256 (x3)", 14 * 14, 256, 9 * 256, 3},
          {"layer3 down 1x1/2 128-256", 14 * 14, 256, 128, 1},
          {"layer4.0 3x3/2 256-512", 7 * 7, 512, 9 * 256, 1},
          {"layer4 3x3 512-512 (x3)", 7 * 7, 512, 9 * 512, 3},
          {"layer4 down 1x1/2 256-512", 7 * 7, 512, 256, 1}};
}

std::vector<Shape> mlp_shapes() {
  return {{"mlp fc1 784-4096 b64", 64, 4096, 784},
          {"mlp fc2 4096-4096 b64", 64, 4096, 4096},
          {"mlp fc3 4096-10 b64", 64, 10, 4096}};
}

void print_ratios(const std::string &name, const std::string &size,
                  const std::vector<double> &t, double ops, double peak) {
  const double fp32 = ops / t[0] * 1e-9;
  std::printf("| %s | %s | %.1f |", name.c_str(), size.c_str(), fp32);
  for (size_t i = 1; i < t.size(); ++i) {
    const double g = ops / t[i] * 1e-9;
    std::printf(" %.1f (%.2fx", g, g / fp32);
    if (peak > 0)
      std::printf(", %.0f%%", 100 * g / peak);
    std::printf(") |");
  }
  std::printf("\n");
  std::fflush(stdout);
}

void bench_shape(const Shape &s, const std::vector<std::string> &variants,
                 int reps, double peak, Totals &totals) {
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  std::uniform_int_distribution<int> byte(0, 255), weight(-127, 127);

  // fp32: A m x k, B as a linear layer's weight (n x k), packed.
  std::vector<float> af(size_t(s.m * s.k)), bf(size_t(s.n * s.k)),
      cf(size_t(s.m * s.n)), biasf(size_t(s.n));
  for (float &x : af)
    x = real(gen);
  for (float &x : bf)
    x = real(gen);
  for (float &x : biasf)
    x = real(gen);
  Aligned packed_f(tcc_sgemm_packed_b_size(s.k, s.n));
  check(tcc_sgemm_pack_b(s.k, s.n, bf.data(), s.k, 1, packed_f.data));
  tcc_epilogue ef{};
  ef.alpha = 1.0f;
  ef.bias = biasf.data();
  ef.activation = TCC_ACTIVATION_RELU;
  tcc_sgemm_args fargs{};
  fargs.m = s.m;
  fargs.n = s.n;
  fargs.k = s.k;
  fargs.a = af.data();
  fargs.lda = s.k;
  fargs.packed_b = packed_f.data;
  fargs.c = cf.data();
  fargs.ldc = s.n;
  fargs.epilogue = &ef;

  // int8: the same shapes, u8 activations, s8 weights, u8 output.
  std::vector<uint8_t> aq(size_t(s.m * s.k)), cq(size_t(s.m * s.n));
  std::vector<int8_t> bq(size_t(s.n * s.k));
  std::vector<int32_t> biasq(size_t(s.n));
  std::vector<float> scale(size_t(s.n));
  for (uint8_t &x : aq)
    x = uint8_t(byte(gen));
  for (int8_t &x : bq)
    x = int8_t(weight(gen));
  for (size_t j = 0; j < biasq.size(); ++j) {
    biasq[j] = weight(gen) * 100;
    scale[j] = 1e-4f * (1.0f + real(gen) * 0.5f);
  }
  Aligned packed_q(tcc_qgemm_packed_b_size(s.k, s.n));
  check(tcc_qgemm_pack_b(s.k, s.n, bq.data(), s.k, 1, packed_q.data));
  tcc_qepilogue eq{};
  eq.output = TCC_QOUTPUT_U8;
  eq.bias = biasq.data();
  eq.scale = scale.data();
  eq.scale_per_column = 1;
  eq.output_zero_point = 0;
  eq.relu = 1;
  tcc_qgemm_args qargs{};
  qargs.m = s.m;
  qargs.n = s.n;
  qargs.k = s.k;
  qargs.a = aq.data();
  qargs.lda = s.k;
  qargs.a_zero_point = 128;
  qargs.packed_b = packed_q.data;
  qargs.c = cq.data();
  qargs.ldc = s.n;
  qargs.epilogue = &eq;

  std::vector<std::function<void()>> candidates = {
      [&] { check(tcc_sgemm(&fargs, nullptr)); }};
  for (const std::string &v : variants)
    candidates.push_back(
        [&qargs, v] { check(tcc_qgemm_on(v.c_str(), &qargs, nullptr)); });
  std::vector<double> t = tcc::bench::alternate(candidates, reps, seconds_now);

  const double ops = 2.0 * double(s.m) * double(s.n) * double(s.k);
  print_ratios(s.name,
               std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                   std::to_string(s.k),
               t, ops, peak);
  totals.add(t, ops, s.count);
}

struct ConvLayer {
  std::string name;
  int64_t channels, size, out_channels, kernel, stride;
  int count;
};

std::vector<ConvLayer> resnet18_convs() {
  return {{"conv1 7x7/2 3-64", 3, 224, 64, 7, 2, 1},
          {"layer1 3x3 64-64 (x4)", 64, 56, 64, 3, 1, 4},
          {"layer2.0 3x3/2 64-128", 64, 56, 128, 3, 2, 1},
          {"layer2 3x3 128-128 (x3)", 128, 28, 128, 3, 1, 3},
          {"layer2 down 1x1/2 64-128", 64, 56, 128, 1, 2, 1},
          {"layer3.0 3x3/2 128-256", 128, 28, 256, 3, 2, 1},
          {"layer3 3x3 256-256 (x3)", 256, 14, 256, 3, 1, 3},
          {"layer3 down 1x1/2 128-256", 128, 28, 256, 1, 2, 1},
          {"layer4.0 3x3/2 256-512", 256, 14, 512, 3, 2, 1},
          {"layer4 3x3 512-512 (x3)", 512, 7, 512, 3, 1, 3},
          {"layer4 down 1x1/2 256-512", 256, 14, 512, 1, 2, 1}};
}

// A whole convolution, batch 1, NHWC, padding kernel / 2: tcc_conv2d with
// packed weights (fp32; Winograd where it applies) against tcc_qconv2d
// (im2col rows gathered as they are packed) on the active int8 variant.
void bench_conv(const ConvLayer &l, int reps, Totals &totals) {
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  std::uniform_int_distribution<int> byte(0, 255), weight(-127, 127);
  const int64_t pad = l.kernel / 2;
  const int64_t out = (l.size + 2 * pad - l.kernel) / l.stride + 1;
  const int64_t k = l.kernel * l.kernel * l.channels;

  tcc_conv2d_args f{};
  f.batch = 1;
  f.in_channels = l.channels;
  f.in_height = f.in_width = l.size;
  f.out_channels = l.out_channels;
  f.kernel_height = f.kernel_width = l.kernel;
  f.stride_h = f.stride_w = l.stride;
  f.pad_h = f.pad_w = pad;
  f.dilation_h = f.dilation_w = 1;
  f.groups = 1;
  f.layout = TCC_LAYOUT_NHWC;
  std::vector<float> in(size_t(l.size * l.size * l.channels)),
      w(size_t(l.out_channels * k)), o(size_t(out * out * l.out_channels));
  for (float &x : in)
    x = real(gen);
  for (float &x : w)
    x = real(gen);
  f.input = in.data();
  f.weight = w.data();
  f.output = o.data();
  Aligned packed_f(tcc_conv2d_packed_weight_size(&f) + 64);
  check(tcc_conv2d_pack_weight(&f, packed_f.data));
  f.packed_weight = packed_f.data;
  f.weight = nullptr;
  Aligned workspace(tcc_conv2d_workspace_size(&f, nullptr) + 64);
  f.workspace = workspace.data;

  std::vector<uint8_t> qin(in.size()), qout(o.size());
  std::vector<int8_t> qw(w.size());
  for (uint8_t &x : qin)
    x = uint8_t(byte(gen));
  for (int8_t &x : qw)
    x = int8_t(weight(gen));
  std::vector<int32_t> bias(size_t(l.out_channels), 1000);
  std::vector<float> scale(size_t(l.out_channels), 1e-4f);
  Aligned packed_q(tcc_qgemm_packed_b_size(k, l.out_channels));
  check(tcc_qgemm_pack_b(k, l.out_channels, qw.data(), k, 1, packed_q.data));
  tcc_qepilogue e{};
  e.output = TCC_QOUTPUT_U8;
  e.bias = bias.data();
  e.scale = scale.data();
  e.scale_per_column = 1;
  e.relu = 1;
  tcc_qconv2d_args q{};
  q.batch = 1;
  q.in_channels = l.channels;
  q.in_height = q.in_width = l.size;
  q.out_channels = l.out_channels;
  q.kernel_height = q.kernel_width = l.kernel;
  q.stride_h = q.stride_w = l.stride;
  q.pad_h = q.pad_w = pad;
  q.dilation_h = q.dilation_w = 1;
  q.input = qin.data();
  q.input_zero_point = 128;
  q.packed_weight = packed_q.data;
  q.output = qout.data();
  q.epilogue = &e;

  std::vector<double> t = tcc::bench::alternate(
      {[&] { check(tcc_conv2d(&f, nullptr)); },
       [&] { check(tcc_qconv2d(&q, nullptr)); }},
      reps, seconds_now);
  const double ops = 2.0 * double(out * out) * double(l.out_channels) * k;
  print_ratios(l.name, std::to_string(l.size) + "x" + std::to_string(l.size),
               t, ops, 0);
  totals.add(t, ops, l.count);
}

} // namespace

int main(int argc, char **argv) {
  int reps = 9;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--reps" && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (arg == "--cpu-time") {
      use_cpu_time = true;
    } else if (arg == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else if (arg == "--help" || arg == "-h") {
      std::printf(
          "usage: tcc-int8-bench [--reps N] [--cpu-time] [--only resnet|mlp|conv]\n"
          "Times tcc_sgemm (fp32, packed B) and tcc_qgemm on each int8\n"
          "variant this CPU runs, one thread, on ResNet-18's convolution\n"
          "GEMMs and the MLP 784-4096-4096-10 at batch 64; prints GOP/s,\n"
          "the ratio to fp32 and the share of the measured VNNI peak; then\n"
          "ResNet-18's convolutions whole: tcc_conv2d (fp32, NHWC, packed)\n"
          "against tcc_qconv2d on the active int8 variant.\n"
          "--cpu-time   time the thread's CPU time (for loaded machines)\n");
      return 0;
    } else {
      std::fprintf(stderr, "tcc-int8-bench: unknown argument '%s' (--help)\n",
                   arg.c_str());
      return 2;
    }
  }
  if (reps < 1) {
    std::fprintf(stderr, "tcc-int8-bench: --reps must be >= 1\n");
    return 2;
  }

  std::vector<std::string> variants;
  int32_t runs = 0;
  for (int32_t i = 0; const char *name = tcc_int8_variant(i, &runs); ++i)
    if (runs)
      variants.push_back(name);
  double peak = 0;
#if defined(__x86_64__)
  if (tcc::runtime::hostCpuHasAll("avx512f,avx512vnni"))
    peak = measure_vnni_peak();
#endif
  std::printf("fp32 ISA %s; int8 variants:", tcc_kernels_isa());
  for (const std::string &v : variants)
    std::printf(" %s", v.c_str());
  std::printf("; %s, 1 thread, median of %d\n",
              use_cpu_time ? "thread CPU time" : "wall time", reps);
  if (peak > 0)
    std::printf("int8 VNNI peak (12 vpdpbusd zmm chains): %.0f GOP/s\n", peak);
  std::printf("\n| GEMM | m x n x k | fp32 GFLOP/s |");
  for (const std::string &v : variants)
    std::printf(" %s GOP/s (x fp32%s) |", v.c_str(),
                peak > 0 ? ", % of peak" : "");
  std::printf("\n|---|---|---|");
  for (size_t i = 0; i < variants.size(); ++i)
    std::printf("---|");
  std::printf("\n");

  const std::pair<const char *, std::vector<Shape>> models[] = {
      {"resnet", resnet18_shapes()}, {"mlp", mlp_shapes()}};
  for (const auto &[model, shapes] : models) {
    if (!only.empty() && only != model)
      continue;
    Totals totals;
    for (const Shape &s : shapes)
      bench_shape(s, variants, reps, peak, totals);
    print_ratios(std::string("**") + model + " total**", "(layers x count)",
                 totals.seconds, totals.ops, peak);
  }
  if (only.empty() || only == "conv") {
    std::printf("\nWhole convolutions, batch 1, NHWC: tcc_conv2d (fp32, "
                "Winograd where it applies, counted as direct) against "
                "tcc_qconv2d on the active int8 variant (%s):\n\n"
                "| layer | input | fp32 GFLOP/s | int8 GOP/s (x fp32) |\n"
                "|---|---|---|---|\n",
                tcc_int8_isa());
    Totals totals;
    for (const ConvLayer &l : resnet18_convs())
      bench_conv(l, reps, totals);
    print_ratios("**ResNet-18 convolutions total**", "(layers x count)",
                 totals.seconds, totals.ops, 0);
  }
  return 0;
}
