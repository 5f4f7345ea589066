//===- model_bench.cpp - Whole models: eager vs compiled -O0 vs -O2 -------===//
//
// For each model: tcc eager, and the same model through tcc::jit::compile at
// -O0 and -O2, at 1 and 2 intra-op threads. One rep runs each variant once,
// in turn (alternating, so load from other processes hits all alike);
// latencies are medians over reps, ratios are taken from those medians.
//
// Also reported, all measured in the same run:
// - copy bandwidth: memcpy of 256 MiB between pre-touched buffers (bytes read
//   + bytes written; 2 threads copy halves), the roof for streaming;
// - for the MLP 784-4096-4096-10, the weight-streaming rate (80 MB of
//   weights / latency) as a fraction of that copy bandwidth;
// - a fused elementwise chain x*sigmoid(x)+y on 16M floats compiled at -O2
//   (bytes: read x and y, write the result) against memcpy of the same
//   number of bytes moved;
// - kernel count and arena bytes of the -O0 and -O2 artifacts.
//
// With libtorch (Debian's libtorch-dev) found at configure time, the same
// models with the same weights also run in libtorch eager (torch_peer.cpp),
// alternating with the others. Run it with OMP_WAIT_POLICY=PASSIVE (else
// libtorch's OpenMP workers spin, which on a shared 2-core machine costs
// libtorch up to 20x at 2 threads), OPENBLAS_THREAD_TIMEOUT=18 (else
// OpenBLAS's workers spin after each call and slow down the tcc run after
// it, see Alternate.h) and OPENBLAS_CORETYPE=SkylakeX (else
// OpenBLAS 0.3.21 picks its SSE3 kernel on this CPU; docs/performance.md).
//
// Options: --reps N (default 9), --threads LIST (default 1,2), --only NAME
// (a substring of a model's name), --cpu-time (the calling thread's CPU time
// instead of wall time; implies --threads 1), --quick (tiny shapes, 1 rep: a
// smoke test of every path), --save-ir DIR (write each model's traced IR to
// DIR/<model>.mlir, to profile with tcc compile and tcc bench --profile).
//
//===----------------------------------------------------------------------===//

#include "../examples/digits_cnn/DigitsNet.h"
#include "Alternate.h"
#include "torch_peer.h"

#include <tcc/jit.h>
#include <tcc/runtime/CpuFeatures.h>
#include <tcc/runtime/tcc_runtime.h>
#include <tcc/nn.h>
#include <tcc/tcc.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace tcc;

namespace {

// --- Models -----------------------------------------------------------------

/// ResNet's BasicBlock: two 3x3 conv + BN, a projection shortcut when the
/// shape changes.
struct BasicBlockImpl : nn::Module {
  BasicBlockImpl(int64_t in, int64_t out, int64_t stride)
      : conv1(register_module(
            "conv1", nn::Conv2d(nn::Conv2dOptions(in, out, 3)
                                    .stride(stride)
                                    .padding(1)
                                    .bias(false)))),
        bn1(register_module("bn1", nn::BatchNorm2d(out))),
        conv2(register_module(
            "conv2",
            nn::Conv2d(nn::Conv2dOptions(out, out, 3).padding(1).bias(false)))),
        bn2(register_module("bn2", nn::BatchNorm2d(out))) {
    if (stride != 1 || in != out) {
      downConv = register_module(
          "downsample_conv",
          nn::Conv2d(nn::Conv2dOptions(in, out, 1).stride(stride).bias(false)));
      downBn = register_module("downsample_bn", nn::BatchNorm2d(out));
    }
  }
  Tensor forward(const Tensor &x) {
    Tensor h = bn1(conv1(x)).relu();
    h = bn2(conv2(h));
    Tensor shortcut = downConv ? downBn(downConv(x)) : x;
    return (h + shortcut).relu();
  }
  nn::Conv2d conv1;
  nn::BatchNorm2d bn1;
  nn::Conv2d conv2;
  nn::BatchNorm2d bn2;
  nn::Conv2d downConv{nullptr};
  nn::BatchNorm2d downBn{nullptr};
};
TCC_MODULE(BasicBlock);

/// ResNet-18 (torchvision's layout) with random weights; `width` 64 is the
/// real network.
struct ResNet18Impl : nn::Module {
  explicit ResNet18Impl(int64_t width = 64, int64_t classes = 1000)
      : conv1(register_module("conv1", nn::Conv2d(nn::Conv2dOptions(3, width, 7)
                                                      .stride(2)
                                                      .padding(3)
                                                      .bias(false)))),
        bn1(register_module("bn1", nn::BatchNorm2d(width))),
        fc(register_module("fc", nn::Linear(8 * width, classes))) {
    int64_t in = width;
    for (int64_t stage = 0; stage < 4; ++stage) {
      int64_t out = width << stage;
      for (int64_t b = 0; b < 2; ++b) {
        int64_t stride = stage > 0 && b == 0 ? 2 : 1;
        blocks.push_back(register_module(
            "layer" + std::to_string(stage + 1) + "_" + std::to_string(b),
            BasicBlock(in, out, stride)));
        in = out;
      }
    }
  }
  Tensor forward(const Tensor &x) {
    Tensor h = bn1(conv1(x)).relu();
    h = max_pool2d(h, {3, 3}, {2, 2}, {1, 1});
    for (BasicBlock &block : blocks)
      h = block(h);
    h = adaptive_avg_pool2d(h, {1, 1}).flatten(1);
    return fc(h);
  }
  nn::Conv2d conv1;
  nn::BatchNorm2d bn1;
  nn::Linear fc;
  std::vector<BasicBlock> blocks;
};
TCC_MODULE(ResNet18);

/// nn.TransformerEncoderLayer(d, heads, ff) in eval mode (post-norm, ReLU,
/// dropout off) on [seq, batch, d], written out with separate q, k and v
/// projections: the fused in-projection's chunk() starts with a slice from
/// 0 that the slice lowering of this commit cannot compile yet.
struct EncoderLayerImpl : nn::Module {
  EncoderLayerImpl(int64_t d, int64_t heads, int64_t ff)
      : heads(heads), q(register_module("q", nn::Linear(d, d))),
        k(register_module("k", nn::Linear(d, d))),
        v(register_module("v", nn::Linear(d, d))),
        out(register_module("out", nn::Linear(d, d))),
        linear1(register_module("linear1", nn::Linear(d, ff))),
        linear2(register_module("linear2", nn::Linear(ff, d))),
        norm1(register_module("norm1", nn::LayerNorm(nn::LayerNormOptions({d})))),
        norm2(register_module("norm2", nn::LayerNorm(nn::LayerNormOptions({d})))) {}
  Tensor forward(const Tensor &x) {
    int64_t s = x.size(0), n = x.size(1), d = x.size(2), dk = d / heads;
    auto split = [&](const Tensor &t) { // [n * heads, s, dk]
      return t.reshape({s, n * heads, dk}).transpose(0, 1);
    };
    Tensor scores = split(q(x)).matmul(split(k(x)).transpose(1, 2)) /
                    std::sqrt(double(dk));
    Tensor context = scores.softmax(-1).matmul(split(v(x)));
    context = context.transpose(0, 1).reshape({s, n, d});
    Tensor h = norm1(x + out(context));
    return norm2(h + linear2(linear1(h).relu()));
  }
  int64_t heads;
  nn::Linear q, k, v, out, linear1, linear2;
  nn::LayerNorm norm1, norm2;
};
TCC_MODULE(EncoderLayer);

/// Random running statistics, so batch norm is not the identity.
void randomizeBatchNorms(nn::Module &module) {
  NoGradGuard noGrad;
  for (auto &item : module.named_buffers()) {
    const Tensor &b = item.value();
    if (item.key().find("running_mean") != std::string::npos)
      b.copy_((rand(b.sizes()) - 0.5) * 0.2);
    else if (item.key().find("running_var") != std::string::npos)
      b.copy_(rand(b.sizes()) + 0.5);
  }
}

// --- Timing -----------------------------------------------------------------

bool gCpuTime = false;
std::string gSaveIrDir; // --save-ir

double now() {
  if (gCpuTime) {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
  }
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double timeOnce(const std::function<void()> &fn) {
  double t0 = now();
  fn();
  return now() - t0;
}

/// Round-robin medians (Alternate.h) with this bench's clock.
std::vector<double> alternate(const std::vector<std::function<void()>> &fns,
                              int reps) {
  return bench::alternate(fns, reps, now);
}

/// fn(begin, end) over [0, bytes) cut into `threads` cache-line-aligned
/// pieces, one thread each.
void splitOverThreads(size_t bytes, int threads,
                      const std::function<void(size_t, size_t)> &fn) {
  if (threads <= 1) {
    fn(0, bytes);
    return;
  }
  std::vector<std::thread> workers;
  size_t chunk = (bytes / threads + 63) / 64 * 64;
  for (int t = 0; t < threads; ++t) {
    size_t begin = std::min(bytes, chunk * t);
    size_t end = std::min(bytes, begin + chunk);
    workers.emplace_back([=, &fn] { fn(begin, end); });
  }
  for (auto &w : workers)
    w.join();
}

/// memcpy of `bytes` split over `threads` threads.
void parallelCopy(char *dst, const char *src, size_t bytes, int threads) {
  splitOverThreads(bytes, threads, [=](size_t begin, size_t end) {
    std::memcpy(dst + begin, src + begin, end - begin);
  });
}

/// The sum of n 64-byte blocks as 64-bit lanes, read the way the GEMV reads
/// W (runtime/lib/kernels/SmallGemm.inc): four streams side by side, each
/// prefetched 1 KiB ahead, with the widest loads the CPU has. A single
/// plain stream read 10.5 GB/s where this reads ~14 on one core.
#if defined(__x86_64__)
__attribute__((target("avx512f"))) uint64_t sumBlocksAvx512(const char *p,
                                                             size_t n) {
  const size_t quarter = n / 4;
  __m512i s[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(),
                  _mm512_setzero_si512(), _mm512_setzero_si512()};
  for (size_t i = 0; i < quarter; ++i)
    for (int q = 0; q < 4; ++q) {
      const char *block = p + 64 * (q * quarter + i);
      __builtin_prefetch(block + 1024);
      s[q] = _mm512_add_epi64(s[q], _mm512_loadu_si512(block));
    }
  for (size_t i = 4 * quarter; i < n; ++i)
    s[0] = _mm512_add_epi64(s[0], _mm512_loadu_si512(p + 64 * i));
  return _mm512_reduce_add_epi64(_mm512_add_epi64(
      _mm512_add_epi64(s[0], s[1]), _mm512_add_epi64(s[2], s[3])));
}
#endif

uint64_t sumBlocks(const char *p, size_t n) {
#if defined(__x86_64__)
  if (tcc::runtime::hostCpuFeature("avx512f") ==
      tcc::runtime::CpuFeatureState::Present)
    return sumBlocksAvx512(p, n);
#endif
  const uint64_t *q = reinterpret_cast<const uint64_t *>(p);
  uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (size_t i = 0; i < 8 * n; i += 4) {
    s0 += q[i];
    s1 += q[i + 1];
    s2 += q[i + 2];
    s3 += q[i + 3];
  }
  return s0 + s1 + s2 + s3;
}

volatile uint64_t gReadSink; // keeps parallelRead's sums alive

/// Reads `bytes` (a multiple of 64) of `src` split over `threads` threads:
/// a pure read stream, the roof of weight streaming, which only reads.
uint64_t parallelRead(const char *src, size_t bytes, int threads) {
  std::atomic<uint64_t> total{0};
  splitOverThreads(bytes, threads, [&](size_t begin, size_t end) {
    total += sumBlocks(src + begin, (end - begin) / 64);
  });
  return total;
}

/// `bytes` of memory from the runtime's allocator, which backs large
/// blocks with transparent huge pages as it does the compiled models'
/// weights (roofs measured on 4 KiB pages ran up to 2x slower on this VM).
struct Buffer {
  tcc_allocator_t allocator = tcc_allocator_system();
  char *data;
  size_t size;
  Buffer(size_t bytes, char fill)
      : data(static_cast<char *>(allocator.alloc(allocator.self, bytes, 64))),
        size(bytes) {
    if (!data) {
      std::fprintf(stderr, "tcc-model-bench: cannot allocate %zu bytes\n",
                   bytes);
      std::exit(1);
    }
    std::memset(data, fill, bytes);
  }
  ~Buffer() { allocator.free(allocator.self, data); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
};

/// A copy of `bytes` between pre-touched buffers.
struct Copier {
  Buffer a, b;
  explicit Copier(size_t bytes) : a(bytes, 1), b(bytes, 2) {}
  void operator()(int threads) {
    parallelCopy(b.data, a.data, a.size, threads);
  }
  uint64_t read(int threads) const {
    return parallelRead(a.data, a.size, threads);
  }
};

double maxRelDiff(const std::vector<Tensor> &a, const std::vector<Tensor> &b) {
  double worst = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    double scale = b[i].abs().max().item<double>();
    double diff = (a[i] - b[i]).abs().max().item<double>();
    worst = std::max(worst, diff / std::max(scale, 1e-30));
  }
  return worst;
}

// --- libtorch ---------------------------------------------------------------

using PeerMaker = std::function<std::unique_ptr<torchpeer::Model>()>;

#ifdef TCC_BENCH_HAVE_LIBTORCH
constexpr bool kHaveLibtorch = true;
#else
constexpr bool kHaveLibtorch = false;
#endif

/// A maker of the libtorch twin of `module` (same parameters and buffers).
template <class M>
PeerMaker peerOf(M module, torchpeer::Kind kind, const torchpeer::Config &config,
                 const Tensor &input) {
  if (!kHaveLibtorch)
    return nullptr;
  return [module, kind, config, input]() -> std::unique_ptr<torchpeer::Model> {
#ifdef TCC_BENCH_HAVE_LIBTORCH
    std::vector<Tensor> keep;
    std::vector<torchpeer::Named> weights;
    auto add = [&](const std::string &name, const Tensor &t) {
      keep.push_back(t.contiguous());
      weights.push_back({name, t.sizes().vec(), keep.back().data_ptr<float>()});
    };
    for (const auto &p : module->named_parameters())
      add(p.key(), p.value());
    for (const auto &b : module->named_buffers())
      if (b.key().find("num_batches_tracked") == std::string::npos)
        add(b.key(), b.value());
    Tensor x = input.contiguous();
    std::string error;
    auto peer = torchpeer::make(kind, config, weights, x.data_ptr<float>(),
                                x.sizes().vec(), &error);
    if (!peer)
      std::printf("  libtorch peer skipped: %s\n", error.c_str());
    return peer;
#else
    (void)module;
    (void)kind;
    (void)config;
    (void)input;
    return nullptr;
#endif
  };
}

// --- The table ----------------------------------------------------------------

struct Options {
  int reps = 9;
  std::vector<int> threads = {1, 2};
  std::string only;
  bool quick = false;
};

/// printf into a std::string.
template <class... A> std::string format(const char *f, A... args) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, f, args...);
  return buffer;
}

struct Bench {
  Options options;
  double copyGBs[3] = {0, 0, 0}; // by thread count (1, 2)
  double readGBs[3] = {0, 0, 0};
  // Rows of the tables printed at the end.
  std::vector<std::string> latencyRows, compileRows, streamingRows, chainRows;

  bool selected(const std::string &name) const {
    return options.only.empty() || name.find(options.only) != std::string::npos;
  }

  jit::CompiledModule compileAt(const std::function<jit::CompiledModule(
                                    const jit::CompileOptions &)> &compile,
                                int optLevel) {
    jit::CompileOptions o;
    o.opt_level = optLevel;
    o.num_threads = 1;
    o.fallback = false; // a benchmark of the eager fallback says nothing
    return compile(o);
  }

  /// Benchmarks `eager` against its compiled forms and the libtorch peer;
  /// `weightBytes` > 0 adds the weight-streaming rate.
  void model(const std::string &name,
             const std::function<std::vector<Tensor>(const std::vector<Tensor> &)>
                 &eager,
             const std::function<jit::CompiledModule(
                 const jit::CompileOptions &)> &compile,
             const std::vector<Tensor> &inputs, const PeerMaker &makePeer,
             double weightBytes = 0) {
    if (!selected(name))
      return;
    std::printf("%s ...\n", name.c_str());
    std::fflush(stdout);
    std::unique_ptr<torchpeer::Model> peer = makePeer ? makePeer() : nullptr;
    jit::CompiledModule o0 = compileAt(compile, 0);
    jit::CompiledModule o2 = compileAt(compile, 2);
    std::vector<Tensor> reference;
    {
      NoGradGuard noGrad;
      reference = eager(inputs);
    }
    std::string peerDiff = "n/a";
    if (peer) {
      peer->run();
      std::vector<float> out = peer->output();
      Tensor t = from_blob(out.data(), reference[0].sizes()).clone();
      peerDiff = format("%.1e", maxRelDiff({t}, reference));
    }
    auto steps = [](const jit::CompiledModule &m) {
      return m.stats().kernels + m.stats().library_calls + m.stats().copies;
    };
    compileRows.push_back(format(
        "| %s | %zu (%zu calls) | %zu (%zu calls) | %.3f | %.3f | %.3f | %.1f "
        "| %.1f | %.1e / %.1e / %s |",
        name.c_str(), steps(o0), o0.stats().library_calls, steps(o2),
        o2.stats().library_calls, o0.stats().arena_bytes / 1048576.0,
        o2.stats().arena_bytes / 1048576.0,
        o0.stats().intermediate_bytes / 1048576.0,
        o0.stats().compile_seconds, o2.stats().compile_seconds,
        maxRelDiff(o0(inputs), reference), maxRelDiff(o2(inputs), reference),
        peerDiff.c_str()));

    for (int t : options.threads) {
      set_num_threads(t);
#ifdef TCC_BENCH_HAVE_LIBTORCH
      torchpeer::setThreads(t);
#endif
      jit::CompiledModule c0 = o0.with_num_threads(t);
      jit::CompiledModule c2 = o2.with_num_threads(t);
      std::vector<std::function<void()>> variants = {
          [&] {
            NoGradGuard noGrad;
            eager(inputs);
          },
          [&] { c0(inputs); }, [&] { c2(inputs); }};
      if (peer)
        variants.push_back([&] { peer->run(); });
      std::vector<std::vector<double>> times =
          bench::alternateTimes(variants, options.reps, now);
      std::vector<double> ms;
      for (const std::vector<double> &v : times)
        ms.push_back(bench::medianOf(v) * 1e3);
      // Ratios round by round (each round runs every variant once): their
      // quartiles say how much the ratio of medians moves from rep to rep.
      auto quartiles = [&](size_t a, size_t b) {
        return format("%.2f-%.2f",
                      bench::pairedRatioQuantile(times[a], times[b], 0.25),
                      bench::pairedRatioQuantile(times[a], times[b], 0.75));
      };
      std::string torchMs = "n/a", torchRatio = "n/a", torchSpread = "n/a";
      if (peer) {
        torchMs = format("%.3f", ms[3]);
        torchRatio = format("%.2f", ms[3] / ms[2]);
        torchSpread = quartiles(3, 2);
      }
      latencyRows.push_back(format(
          "| %s | %d | %s | %.3f | %.3f | %.3f | %s | %.2f | %.2f | %s | %s |",
          name.c_str(), t, torchMs.c_str(), ms[0], ms[1], ms[2],
          torchRatio.c_str(), ms[0] / ms[2], ms[1] / ms[2],
          torchSpread.c_str(), quartiles(1, 2).c_str()));
      if (weightBytes > 0) {
        auto gbs = [&](double m) { return weightBytes / (m * 1e-3) / 1e9; };
        streamingRows.push_back(format(
            "| %s | %d | %.1f | %s | %.1f | %.1f | %.1f | %.1f | %.2f | %.1f "
            "| %.2f |",
            name.c_str(), t, weightBytes / 1e6,
            peer ? format("%.1f", gbs(ms[3])).c_str() : "n/a", gbs(ms[0]),
            gbs(ms[1]), gbs(ms[2]), copyGBs[t], gbs(ms[2]) / copyGBs[t],
            readGBs[t], gbs(ms[2]) / readGBs[t]));
      }
    }
    set_num_threads(1);
  }

  void copyBandwidth() {
    size_t bytes = options.quick ? (8u << 20) : (256u << 20);
    Copier copier(bytes);
    for (int t : options.threads) {
      copier(t);
      std::vector<double> v;
      for (int r = 0; r < std::max(options.reps, 5); ++r)
        v.push_back(timeOnce([&] { copier(t); }));
      copyGBs[t] = 2.0 * double(bytes) / bench::medianOf(v) / 1e9;
      v.clear();
      for (int r = 0; r < std::max(options.reps, 5); ++r)
        v.push_back(timeOnce([&] { gReadSink = copier.read(t); }));
      readGBs[t] = double(bytes) / bench::medianOf(v) / 1e9;
      std::printf("copy bandwidth, %d thread(s): %.1f GB/s (memcpy of %zu "
                  "MiB between pre-touched buffers, bytes read + written); "
                  "read bandwidth %.1f GB/s (summing the same %zu MiB)\n",
                  t, copyGBs[t], bytes >> 20, readGBs[t], bytes >> 20);
    }
  }

  void chain() {
    const std::string name = "x*sigmoid(x)+y";
    if (!selected("chain") && !selected(name))
      return;
    int64_t n = options.quick ? (1 << 16) : (16 << 20);
    std::printf("%s on %lld floats ...\n", name.c_str(),
                static_cast<long long>(n));
    Tensor x = randn({n}), y = randn({n});
    auto f = [](const Tensor &a, const Tensor &b) { return a * a.sigmoid() + b; };
    jit::CompileOptions o;
    o.num_threads = 1;
    o.fallback = false;
    jit::CompiledModule compiled = jit::compile(f, {x, y}, o);
    double diff = maxRelDiff(compiled({x, y}), {f(x, y)});
    // Same bytes moved: the chain reads 2n floats and writes n; the copy
    // reads and writes 1.5n floats.
    double moved = 3.0 * double(n) * sizeof(float);
    Copier copier(size_t(moved / 2));
    for (int t : options.threads) {
      set_num_threads(t);
      jit::CompiledModule c = compiled.with_num_threads(t);
      std::vector<double> s = alternate(
          {[&] { c({x, y}); }, [&] { copier(t); }, [&] { f(x, y); }},
          options.reps);
      chainRows.push_back(format(
          "| %s, %lld floats | %d | %zu | %.1f | %.1f | %.2f | %.1f | %.1e |",
          name.c_str(), static_cast<long long>(n), t,
          compiled.stats().kernels, moved / s[0] / 1e9, moved / s[1] / 1e9,
          s[1] / s[0], moved / s[2] / 1e9, diff));
    }
    set_num_threads(1);
  }

  void print() const {
    auto rows = [](const std::vector<std::string> &r) {
      for (const std::string &row : r)
        std::printf("%s\n", row.c_str());
    };
    std::printf("\nLatency (ms, medians; ratios > 1: -O2 is faster; the "
                "last two columns: quartiles of the ratio taken rep by rep)"
                "\n\n"
                "| model | threads | libtorch | tcc eager | -O0 | -O2 | "
                "libtorch / -O2 | eager / -O2 | -O0 / -O2 | libtorch / -O2 "
                "per rep | -O0 / -O2 per rep |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|\n");
    rows(latencyRows);
    std::printf("\nCompiled artifacts (plan steps: kernels + microkernel "
                "calls + copies)\n\n"
                "| model | steps -O0 | steps -O2 | arena MiB -O0 | arena MiB "
                "-O2 | intermediates MiB | compile s -O0 | compile s -O2 | "
                "max rel diff vs eager: -O0 / -O2 / libtorch |\n"
                "|---|---|---|---|---|---|---|---|---|\n");
    rows(compileRows);
    if (!streamingRows.empty()) {
      std::printf("\nWeight streaming (weight bytes / latency, GB/s)\n\n"
                  "| model | threads | weights MB | libtorch | tcc eager | "
                  "-O0 | -O2 | copy GB/s | -O2 / copy | read GB/s | -O2 / "
                  "read |\n"
                  "|---|---|---|---|---|---|---|---|---|---|---|\n");
      rows(streamingRows);
    }
    if (!chainRows.empty()) {
      std::printf("\nFused elementwise chain (GB/s: bytes read + written)\n\n"
                  "| chain | threads | kernels | compiled -O2 | memcpy, same "
                  "bytes | compiled / memcpy | tcc eager | max rel diff |\n"
                  "|---|---|---|---|---|---|---|---|\n");
      rows(chainRows);
    }
  }
};

template <class M>
std::function<std::vector<Tensor>(const std::vector<Tensor> &)>
eagerOf(M model) {
  return [model](const std::vector<Tensor> &in) mutable {
    return std::vector<Tensor>{model->forward(in[0])};
  };
}

template <class M>
std::function<jit::CompiledModule(const jit::CompileOptions &)>
compilerOf(M model, const std::vector<Tensor> &inputs, const std::string &file) {
  return [model, inputs, file](const jit::CompileOptions &o) mutable {
    // --save-ir: the traced model, for tcc compile / tcc bench --profile.
    if (!gSaveIrDir.empty() && o.opt_level == 0)
      jit::trace(model, inputs).save(gSaveIrDir + "/" + file + ".mlir");
    return jit::compile(model, inputs, o);
  };
}

[[noreturn]] void usage(const std::string &message) {
  std::fprintf(stderr,
               "tcc-model-bench: %s\nusage: tcc-model-bench [--reps N] "
               "[--threads 1,2] [--only NAME] [--cpu-time] [--quick] "
               "[--save-ir DIR]\n",
               message.c_str());
  std::exit(2);
}

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--reps") {
      o.reps = std::atoi(value().c_str());
      if (o.reps < 1)
        usage("--reps must be positive");
    } else if (a == "--threads") {
      o.threads.clear();
      std::string list = value();
      for (size_t p = 0; p < list.size();) {
        size_t q = list.find(',', p);
        int t = std::atoi(list.substr(p, q - p).c_str());
        if (t != 1 && t != 2)
          usage("--threads takes 1 and/or 2, not '" + list + "'");
        o.threads.push_back(t);
        p = q == std::string::npos ? list.size() : q + 1;
      }
    } else if (a == "--only") {
      o.only = value();
    } else if (a == "--cpu-time") {
      gCpuTime = true;
    } else if (a == "--save-ir") {
      gSaveIrDir = value();
    } else if (a == "--quick") {
      o.quick = true;
    } else if (a == "--help" || a == "-h") {
      usage("benchmarks tcc eager against compiled -O0 and -O2");
    } else {
      usage("unknown option '" + a + "'");
    }
  }
  if (gCpuTime)
    o.threads = {1}; // thread CPU time says nothing about a second thread
  if (o.quick)
    o.reps = 1;
  return o;
}

} // namespace

int main(int argc, char **argv) {
  Bench bench;
  bench.options = parse(argc, argv);
  const bool quick = bench.options.quick;
  manual_seed(0);
  std::printf("tcc-model-bench: %s, median of %d alternating reps; %s\n",
              gCpuTime ? "CPU time of the calling thread (1 thread)"
                       : "wall time",
              bench.options.reps,
#ifdef TCC_BENCH_HAVE_LIBTORCH
              ("peer: " + torchpeer::describe()).c_str()
#else
              "no libtorch peer (libtorch-dev not found at configure time)"
#endif
  );
#ifdef TCC_BENCH_HAVE_LIBTORCH
  if (!std::getenv("OMP_WAIT_POLICY"))
    std::printf("note: OMP_WAIT_POLICY is unset: libtorch's OpenMP workers "
                "spin between ops, which on a loaded 2-core machine slows "
                "libtorch at 2 threads many times over (set "
                "OMP_WAIT_POLICY=PASSIVE)\n");
  std::printf("%s", bench::spinningPeersNote());
#endif
  try {
    bench.copyBandwidth();

    // MLP 784-4096-4096-10 (weights ~80 MB).
    int64_t hidden = quick ? 256 : 4096;
    int64_t image = quick ? 32 : 224, width = quick ? 8 : 64;
    int64_t seq = quick ? 16 : 128, dModel = quick ? 32 : 256;
    // nn.TransformerEncoderLayer(d, 4)'s shape: feed-forward 2048 wide (the
    // default).
    int64_t ff = quick ? 64 : 2048;
    torchpeer::Config peerConfig;
    peerConfig.hidden = hidden;
    peerConfig.width = width;
    peerConfig.classes = quick ? 10 : 1000;
    peerConfig.dModel = dModel;
    peerConfig.heads = 4;
    peerConfig.feedForward = ff;
    nn::Sequential mlp(nn::Linear(784, hidden), nn::ReLU(),
                       nn::Linear(hidden, hidden), nn::ReLU(),
                       nn::Linear(hidden, 10));
    mlp->eval();
    double mlpBytes = 0;
    for (const Tensor &p : mlp->parameters())
      mlpBytes += double(p.nbytes());
    for (int64_t batch : {1, 64}) {
      std::vector<Tensor> in = {randn({batch, 784})};
      bench.model("MLP 784-" + std::to_string(hidden) + "-" +
                      std::to_string(hidden) + "-10, batch " +
                      std::to_string(batch),
                  eagerOf(mlp), compilerOf(mlp, in, "mlp-batch" + std::to_string(batch)), in,
                  peerOf(mlp, torchpeer::Kind::Mlp, peerConfig, in[0]),
                  batch == 1 ? mlpBytes : 0);
    }

    DigitsNet digits;
    digits->eval();
    {
      std::vector<Tensor> in = {randn({1, 1, 8, 8})};
      bench.model("digits CNN, batch 1", eagerOf(digits),
                  compilerOf(digits, in, "digits-cnn"), in,
                  peerOf(digits, torchpeer::Kind::DigitsCnn, peerConfig, in[0]));
    }

    ResNet18 resnet(width, peerConfig.classes);
    randomizeBatchNorms(*resnet);
    resnet->eval();
    {
      std::vector<Tensor> in = {randn({1, 3, image, image})};
      bench.model("ResNet-18" + std::string(quick ? " (width 8)" : "") +
                      ", batch 1, " + std::to_string(image) + "x" +
                      std::to_string(image),
                  eagerOf(resnet), compilerOf(resnet, in, "resnet18"), in,
                  peerOf(resnet, torchpeer::Kind::ResNet18, peerConfig, in[0]));
    }

    EncoderLayer encoder(dModel, 4, ff);
    encoder->eval();
    {
      // libtorch 1.13's layout: [sequence, batch, d_model].
      std::vector<Tensor> in = {randn({seq, 1, dModel})};
      bench.model("transformer encoder layer, seq " + std::to_string(seq) +
                      ", d " + std::to_string(dModel) + ", 4 heads, ff " +
                      std::to_string(ff),
                  eagerOf(encoder), compilerOf(encoder, in, "encoder-layer"), in,
                  peerOf(encoder, torchpeer::Kind::EncoderLayer, peerConfig,
                         in[0]));
    }

    bench.chain();
    bench.print();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "tcc-model-bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
