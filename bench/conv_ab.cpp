//===- conv_ab.cpp - tcc_conv2d of two runtime builds, alternating --------===//
//
// Loads two or more builds of libtcc_runtime.so (e.g. main's and a
// branch's) into one process and times tcc_conv2d on NHWC shapes read from
// a file, alternating the libraries, on the calling thread in thread CPU
// time, with weights packed as at compile time. Per shape it prints each
// library's minimum over all calls, the ratio of the last to the first and
// the largest difference between their outputs (0: the same bits). On a
// loaded machine the minimum of thread CPU time still shows what a quiet
// core would do. See docs/performance.md (issue 19) for the commands.
//
//===----------------------------------------------------------------------===//

#include "tcc/runtime/kernels.h"

#include <dlfcn.h>
#include <time.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

const char *kUsage =
    "usage: tcc-conv-ab [--rounds R] [--reps N] [--cold] SHAPES LIB.so...\n"
    "\n"
    "Times tcc_conv2d (NHWC, batch 1, bias, packed weights) of each\n"
    "libtcc_runtime.so on the shapes of SHAPES, alternating the libraries\n"
    "R times (default 5), N calls each time (default 10), in thread CPU\n"
    "time; prints each library's minimum, last / first and the largest\n"
    "output difference. One shape per line:\n"
    "  C H W OUT_C KERNEL STRIDE PAD ACTIVATION RESIDUAL\n"
    "(square kernel, stride and padding; ACTIVATION as Activations.def:\n"
    "0 none, 1 relu, 2 clamp to [0, 6], 5 silu; RESIDUAL 0 or 1), one\n"
    "group.\n"
    "\n"
    "options:\n"
    "  --rounds R  alternations (default 5)\n"
    "  --reps N    calls per library per round (default 10)\n"
    "  --cold      flush the packed weights from the caches before each call\n"
    "              (x86-64 only), as when they stream from memory\n";

struct Library {
  decltype(&tcc_conv2d) conv;
  decltype(&tcc_conv2d_workspace_size) workspace_size;
  decltype(&tcc_conv2d_packed_weight_size) packed_size;
  decltype(&tcc_conv2d_pack_weight) pack;
};

double thread_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

void flush(const void *p, size_t bytes) {
#if defined(__x86_64__)
  for (size_t i = 0; i < bytes; i += 64)
    _mm_clflush(static_cast<const char *>(p) + i);
  _mm_mfence();
#else
  (void)p;
  (void)bytes;
#endif
}

struct Aligned {
  void *p = nullptr;
  explicit Aligned(size_t bytes)
      : p(bytes ? std::aligned_alloc(64, (bytes + 63) / 64 * 64) : nullptr) {}
  ~Aligned() { std::free(p); }
  Aligned(const Aligned &) = delete;
  Aligned &operator=(const Aligned &) = delete;
};

bool load(const char *path, Library *lib) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    std::fprintf(stderr, "tcc-conv-ab: %s\n", dlerror());
    return false;
  }
  lib->conv = reinterpret_cast<decltype(lib->conv)>(dlsym(h, "tcc_conv2d"));
  lib->workspace_size = reinterpret_cast<decltype(lib->workspace_size)>(
      dlsym(h, "tcc_conv2d_workspace_size"));
  lib->packed_size = reinterpret_cast<decltype(lib->packed_size)>(
      dlsym(h, "tcc_conv2d_packed_weight_size"));
  lib->pack = reinterpret_cast<decltype(lib->pack)>(
      dlsym(h, "tcc_conv2d_pack_weight"));
  if (!lib->conv || !lib->workspace_size || !lib->packed_size || !lib->pack) {
    std::fprintf(stderr, "tcc-conv-ab: %s lacks the tcc_conv2d functions\n",
                 path);
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  int rounds = 5, reps = 10;
  bool cold = false;
  std::vector<const char *> positional;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if ((a == "--rounds" || a == "--reps") && i + 1 < argc) {
      int v = std::atoi(argv[++i]);
      if (v < 1) {
        std::fprintf(stderr, "tcc-conv-ab: %s needs a positive count\n",
                     a.c_str());
        return 2;
      }
      (a == "--rounds" ? rounds : reps) = v;
    } else if (a == "--cold") {
      cold = true;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "tcc-conv-ab: unknown option %s\n%s", a.c_str(),
                   kUsage);
      return 2;
    } else {
      positional.push_back(argv[i]);
    }
  }
  if (positional.size() < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  std::vector<Library> libs(positional.size() - 1);
  for (size_t l = 0; l < libs.size(); ++l)
    if (!load(positional[l + 1], &libs[l]))
      return 1;
  FILE *shapes = std::fopen(positional[0], "r");
  if (!shapes) {
    std::fprintf(stderr, "tcc-conv-ab: cannot read %s\n", positional[0]);
    return 1;
  }

  std::vector<double> total(libs.size(), 0.0);
  long long c, h, w, oc, k, stride, pad, activation, residual;
  int line = 0;
  while (std::fscanf(shapes, "%lld %lld %lld %lld %lld %lld %lld %lld %lld", &c,
                     &h, &w, &oc, &k, &stride, &pad, &activation,
                     &residual) == 9) {
    ++line;
    if (c < 1 || h < 1 || w < 1 || oc < 1 || k < 1 || stride < 1 || pad < 0 ||
        h + 2 * pad < k || w + 2 * pad < k) {
      std::fprintf(stderr, "tcc-conv-ab: %s: shape %d is invalid\n",
                   positional[0], line);
      return 1;
    }
    const long long oh = (h + 2 * pad - k) / stride + 1;
    const long long ow = (w + 2 * pad - k) / stride + 1;
    std::mt19937 gen{unsigned(line)};
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> input(static_cast<size_t>(h * w * c));
    std::vector<float> weight(static_cast<size_t>(oc * k * k * c));
    std::vector<float> bias(static_cast<size_t>(oc));
    std::vector<float> res(static_cast<size_t>(oh * ow * oc));
    for (std::vector<float> *v : {&input, &weight, &bias, &res})
      for (float &x : *v)
        x = dist(gen);
    tcc_epilogue e{};
    e.alpha = 1.0f;
    e.bias = bias.data();
    e.activation = int32_t(activation);
    e.clamp_min = 0.0f;
    e.clamp_max = 6.0f;
    if (residual) {
      e.residual = res.data();
      e.beta = 1.0f;
      e.ld_residual = oc;
    }
    std::vector<std::vector<float>> outputs(libs.size(),
                                            std::vector<float>(res.size()));
    std::vector<tcc_conv2d_args> args(libs.size());
    std::vector<std::unique_ptr<Aligned>> packed, workspace;
    std::vector<size_t> packed_bytes(libs.size());
    for (size_t l = 0; l < libs.size(); ++l) {
      tcc_conv2d_args a{};
      a.batch = 1;
      a.in_channels = c;
      a.in_height = h;
      a.in_width = w;
      a.out_channels = oc;
      a.kernel_height = a.kernel_width = k;
      a.stride_h = a.stride_w = stride;
      a.pad_h = a.pad_w = pad;
      a.dilation_h = a.dilation_w = 1;
      a.groups = 1;
      a.layout = TCC_LAYOUT_NHWC;
      a.input = input.data();
      a.weight = weight.data();
      a.output = outputs[l].data();
      a.epilogue = &e;
      packed_bytes[l] = libs[l].packed_size(&a);
      packed.push_back(std::make_unique<Aligned>(packed_bytes[l]));
      if (packed_bytes[l]) {
        if (libs[l].pack(&a, packed.back()->p) != TCC_KERNEL_OK) {
          std::fprintf(stderr, "tcc-conv-ab: packing shape %d failed\n", line);
          return 1;
        }
        a.packed_weight = packed.back()->p;
      }
      workspace.push_back(
          std::make_unique<Aligned>(libs[l].workspace_size(&a, nullptr)));
      a.workspace = workspace.back()->p;
      args[l] = a;
    }
    std::vector<double> best(libs.size(), 1e30);
    for (int r = 0; r < rounds; ++r)
      for (size_t i = 0; i < libs.size(); ++i) {
        const size_t l = r % 2 ? libs.size() - 1 - i : i; // alternate order
        for (int rep = 0; rep < reps; ++rep) {
          if (cold && packed_bytes[l])
            flush(packed[l]->p, packed_bytes[l]);
          const double t0 = thread_seconds();
          if (libs[l].conv(&args[l], nullptr) != TCC_KERNEL_OK) {
            std::fprintf(stderr, "tcc-conv-ab: tcc_conv2d failed on shape %d\n",
                         line);
            return 1;
          }
          best[l] = std::min(best[l], thread_seconds() - t0);
        }
      }
    double max_diff = 0.0;
    for (size_t l = 1; l < libs.size(); ++l)
      for (size_t i = 0; i < res.size(); ++i)
        max_diff = std::max(
            max_diff, double(std::fabs(outputs[0][i] - outputs[l][i])));
    const double flops = 2.0 * double(oh * ow * oc * c * k * k);
    std::printf("%5lld %4lldx%-4lld -> %5lld k%lld s%lld act %lld res %lld |", c,
                h, w, oc, k, stride, activation, residual);
    for (size_t l = 0; l < libs.size(); ++l) {
      total[l] += best[l];
      std::printf(" %9.1f us %4.0f GFLOP/s", best[l] * 1e6,
                  flops / best[l] * 1e-9);
    }
    std::printf(" | %.3f, max diff %.2g\n", best.back() / best[0], max_diff);
  }
  std::fclose(shapes);
  std::printf("sum of minima:");
  for (double t : total)
    std::printf(" %9.1f us", t * 1e6);
  std::printf(" | %.3f\n", total.back() / total[0]);
  return 0;
}
