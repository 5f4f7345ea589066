//===- Winograd.cpp - F(2x2, 3x3) convolution, NHWC -----------------------===//
//
// Y = A^T [ (G g G^T) .* (B^T d B) ] A over 2x2 output tiles (Lavin & Gray,
// "Fast Algorithms for Convolutional Neural Networks", 2015): 16 multiplies
// per tile and channel pair instead of 36. With channels the products
// become 16 independent GEMMs, one per position xi of the 4x4 transformed
// tile: M[xi] (tiles x oc) = V[xi] (tiles x ic) x U[xi] (ic x oc).
//
// Tiles of all images are numbered together and run a chunk at a time, so
// that the chunk's V and M stay in cache between the transforms and the
// GEMMs. Each step is split over tiles (transforms) or over xi (GEMMs);
// no sum is ever split, so the bits do not depend on the thread count.
//
//===----------------------------------------------------------------------===//

#include "Winograd.h"
#include "MicroKernel.h"
#include "PackedB.h"
#include "Sgemm.h"
#include "Status.h"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace tcc {
namespace runtime {
namespace kernels {
namespace {

constexpr int kPositions = 16; // 4x4 transformed tile

int64_t tiles_h(const WinogradShape &s) { return (s.out_h + 1) / 2; }
int64_t tiles_w(const WinogradShape &s) { return (s.out_w + 1) / 2; }
int64_t tiles_per_image(const WinogradShape &s) {
  return tiles_h(s) * tiles_w(s);
}

// Tiles per chunk: V and M of a chunk take ~2 MiB, so that they stay in L2
// between the transforms and the GEMMs, but at least 16 tiles (GEMM rows).
int64_t chunk_tiles(const WinogradShape &s) {
  const int64_t budget = int64_t(1) << 19; // floats
  const int64_t per_tile = kPositions * (s.channels + s.out_channels);
  const int64_t total = s.batch * tiles_per_image(s);
  return std::max<int64_t>(
      1, std::min(total, std::max<int64_t>(16, budget / per_tile)));
}

// Floats from one xi's plane of V or M (rows x channels) to the next. The
// 16 planes are read and written together, so a power-of-two distance
// (64 KiB for 256 tiles of 64 channels) would put all 16 streams into the
// same L1 set and evict each other; a cache line of padding spreads them.
int64_t plane_stride(int64_t rows, int64_t channels) {
  return round_up(rows * channels, 16) + 16;
}

int64_t matrix_bytes(const WinogradShape &s) {
  return int64_t(tcc_sgemm_packed_b_size(s.channels, s.out_channels));
}

// --- weights -----------------------------------------------------------------

struct WeightJob {
  const WinogradShape *s;
  const float *weight; // OHWI
  char *packed;
  int64_t tasks;
};

// U = G g G^T in float64 (it runs once, at compile time when the weights
// are constant), written straight into the packed panels: element (ic, oc)
// of panel oc / 32. A task takes whole panels and walks each along ic, so
// that the 16 matrices are written in order (going along oc instead makes
// every store a cache miss; figures: docs/performance.md).
void weight_task(void *arg, int64_t task) {
  const WeightJob &job = *static_cast<const WeightJob *>(arg);
  const int64_t ic_count = job.s->channels, oc_count = job.s->out_channels;
  const int64_t stride = matrix_bytes(*job.s);
  const int64_t panels = (oc_count + kPanelWidth - 1) / kPanelWidth;
  const int64_t per = (panels + job.tasks - 1) / job.tasks;
  const int64_t end = std::min(panels, (task + 1) * per);
  float *planes[kPositions];
  for (int xi = 0; xi < kPositions; ++xi)
    planes[xi] = reinterpret_cast<float *>(job.packed + xi * stride +
                                           sizeof(PackedBHeader));
  for (int64_t panel = task * per; panel < end; ++panel) {
    const int64_t oc0 = panel * kPanelWidth;
    const int64_t width = std::min<int64_t>(kPanelWidth, oc_count - oc0);
    for (int64_t ic = 0; ic < ic_count; ++ic) {
      const int64_t at = (panel * ic_count + ic) * kPanelWidth;
      for (int64_t o = 0; o < width; ++o) {
        const float *w = job.weight + (oc0 + o) * 9 * ic_count + ic;
        double g[3][3], t[4][3];
        for (int ky = 0; ky < 3; ++ky)
          for (int kx = 0; kx < 3; ++kx)
            g[ky][kx] = w[(ky * 3 + kx) * ic_count];
        for (int j = 0; j < 3; ++j) { // G g
          t[0][j] = g[0][j];
          t[1][j] = 0.5 * (g[0][j] + g[1][j] + g[2][j]);
          t[2][j] = 0.5 * (g[0][j] - g[1][j] + g[2][j]);
          t[3][j] = g[2][j];
        }
        for (int i = 0; i < 4; ++i) { // (G g) G^T
          planes[i * 4 + 0][at + o] = float(t[i][0]);
          planes[i * 4 + 1][at + o] =
              float(0.5 * (t[i][0] + t[i][1] + t[i][2]));
          planes[i * 4 + 2][at + o] =
              float(0.5 * (t[i][0] - t[i][1] + t[i][2]));
          planes[i * 4 + 3][at + o] = float(t[i][2]);
        }
      }
    }
  }
}

// --- per-tile transforms ----------------------------------------------------

// Channels per block of the output transform (a 4 x block tile in L1).
constexpr int64_t kOutBlock = 64;

// The transforms of one tile, for each ISA variant.
namespace portable_tiles {
#define TCC_TILE_TARGET
#include "WinogradTiles.inc"
#undef TCC_TILE_TARGET
} // namespace portable_tiles
#if defined(__x86_64__)
namespace avx2_tiles {
#define TCC_TILE_TARGET __attribute__((target("avx2")))
#include "WinogradTiles.inc"
#undef TCC_TILE_TARGET
} // namespace avx2_tiles
namespace avx512_tiles {
#define TCC_TILE_TARGET                                                        \
  __attribute__((target("avx512f,avx2,prefer-vector-width=512")))
#include "WinogradTiles.inc"
#undef TCC_TILE_TARGET
} // namespace avx512_tiles
#endif

struct TileTransforms {
  void (*input)(const float *const *p, float *v, int64_t xi_stride,
                int64_t channels);
  void (*output)(const float *m, int64_t xi_stride, int64_t n,
                 float (*y)[kOutBlock]);
  void (*epilogue)(float *y, int64_t n, float alpha, const float *bias,
                   float beta, const float *residual);
};

TileTransforms tile_transforms(Isa isa) {
#if defined(__x86_64__)
  if (isa == Isa::Avx512)
    return {avx512_tiles::input_tile, avx512_tiles::output_tile,
            avx512_tiles::output_epilogue};
  if (isa == Isa::Avx2)
    return {avx2_tiles::input_tile, avx2_tiles::output_tile,
            avx2_tiles::output_epilogue};
#endif
  (void)isa;
  return {portable_tiles::input_tile, portable_tiles::output_tile,
          portable_tiles::output_epilogue};
}

// --- input transform ---------------------------------------------------------

struct InputJob {
  const WinogradShape *s;
  TileTransforms tiles;
  const float *input, *zeros; // zeros: `channels` zero floats for padding
  float *v;                   // V[xi][tile][ic], planes plane_stride apart
  int64_t first, rows, tasks; // tiles [first, first + rows) of the batch
};

void input_task(void *arg, int64_t task) {
  const InputJob &job = *static_cast<const InputJob *>(arg);
  const WinogradShape &s = *job.s;
  const int64_t per = (job.rows + job.tasks - 1) / job.tasks;
  const int64_t end = std::min(job.rows, (task + 1) * per);
  const int64_t per_image = tiles_per_image(s), tw = tiles_w(s);
  for (int64_t row = task * per; row < end; ++row) {
    const int64_t tile = job.first + row;
    const int64_t image = tile / per_image, ty = tile % per_image / tw,
                  tx = tile % per_image % tw;
    const float *in = job.input + image * s.height * s.width * s.channels;
    const float *p[kPositions];
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        const int64_t iy = 2 * ty - s.pad_h + i, ix = 2 * tx - s.pad_w + j;
        p[i * 4 + j] = iy >= 0 && iy < s.height && ix >= 0 && ix < s.width
                           ? in + (iy * s.width + ix) * s.channels
                           : job.zeros;
      }
    job.tiles.input(p, job.v + row * s.channels,
                    plane_stride(job.rows, s.channels), s.channels);
  }
}

// --- the 16 GEMMs ------------------------------------------------------------

struct GemmJob {
  const IsaKernels *isa;
  const WinogradShape *s;
  const float *v;
  const char *u; // the 16 packed matrices
  float *m;      // M[xi][tile][oc]
  int64_t rows;
  std::atomic<tcc_kernel_status> status{TCC_KERNEL_OK};
};

tcc_kernel_status position_gemm(const GemmJob &job, int64_t xi,
                                const tcc_parallel *parallel) {
  const WinogradShape &s = *job.s;
  tcc_sgemm_args g{};
  g.m = job.rows;
  g.n = s.out_channels;
  g.k = s.channels;
  g.a = job.v + xi * plane_stride(job.rows, s.channels);
  g.lda = s.channels;
  g.packed_b = job.u + xi * matrix_bytes(s);
  g.c = job.m + xi * plane_stride(job.rows, s.out_channels);
  g.ldc = s.out_channels;
  return sgemm_with(*job.isa, &g, parallel);
}

void gemm_task(void *arg, int64_t xi) {
  GemmJob &job = *static_cast<GemmJob *>(arg);
  if (tcc_kernel_status st = position_gemm(job, xi, nullptr))
    job.status.store(st);
}

// --- output transform and epilogue -------------------------------------------

struct OutputJob {
  const WinogradShape *s;
  TileTransforms tiles;
  const IsaKernels *isa;
  const tcc_epilogue *epilogue; // or null
  const float *m;
  float *output;
  int64_t first, rows, tasks;
};

void output_task(void *arg, int64_t task) {
  const OutputJob &job = *static_cast<const OutputJob *>(arg);
  const WinogradShape &s = *job.s;
  const tcc_epilogue *e = job.epilogue;
  const float alpha = e ? e->alpha : 1.0f;
  const float *bias = e ? e->bias : nullptr;
  // beta == 0 ignores the residual (NaNs included), as the GEMM does.
  const float *residual = e && e->beta != 0.0f ? e->residual : nullptr;
  const int activation = e ? e->activation : TCC_ACTIVATION_NONE;
  const int64_t oc_count = s.out_channels;
  const int64_t per = (job.rows + job.tasks - 1) / job.tasks;
  const int64_t end = std::min(job.rows, (task + 1) * per);
  const int64_t per_image = tiles_per_image(s), tw = tiles_w(s);
  alignas(64) float y[4][kOutBlock];
  for (int64_t row = task * per; row < end; ++row) {
    const int64_t tile = job.first + row;
    const int64_t image = tile / per_image, ty = tile % per_image / tw,
                  tx = tile % per_image % tw;
    for (int64_t c0 = 0; c0 < oc_count; c0 += kOutBlock) {
      const int64_t n = std::min(kOutBlock, oc_count - c0);
      job.tiles.output(job.m + row * oc_count + c0,
                       plane_stride(job.rows, oc_count), n, y);
      for (int q = 0; q < 4; ++q) {
        const int64_t oy = 2 * ty + q / 2, ox = 2 * tx + q % 2;
        if (oy >= s.out_h || ox >= s.out_w) // a partial tile at the border
          continue;
        const int64_t offset =
            ((image * s.out_h + oy) * s.out_w + ox) * oc_count + c0;
        if (e)
          job.tiles.epilogue(y[q], n, alpha, bias ? bias + c0 : nullptr,
                             e->beta, residual ? residual + offset : nullptr);
        float *out = job.output + offset;
        std::memcpy(out, y[q], sizeof(float) * n);
        if (activation != TCC_ACTIVATION_NONE)
          job.isa->activate(out, n, activation, e->clamp_min, e->clamp_max);
      }
    }
  }
}

} // namespace

int64_t winograd_packed_weight_bytes(const WinogradShape &s) {
  const int64_t one = matrix_bytes(s);
  return one <= 0 ? -1 : checked_product({kPositions, one});
}

int64_t winograd_workspace_bytes(const WinogradShape &s, bool weight_packed) {
  const int64_t weights = weight_packed ? 0 : winograd_packed_weight_bytes(s);
  const int64_t zeros = checked_product({s.channels, 4});
  const int64_t chunk = chunk_tiles(s);
  const int64_t v_plane = checked_product({chunk, s.channels});
  const int64_t m_plane = checked_product({chunk, s.out_channels});
  const int64_t v = v_plane < 0 || v_plane > INT64_MAX / 128
                        ? -1
                        : kPositions * 4 * plane_stride(chunk, s.channels);
  const int64_t m = m_plane < 0 || m_plane > INT64_MAX / 128
                        ? -1
                        : kPositions * 4 * plane_stride(chunk, s.out_channels);
  const int64_t limit = INT64_MAX / 8;
  if (weights < 0 || zeros < 0 || v < 0 || m < 0 || weights > limit ||
      zeros > limit || v > limit || m > limit)
    return -1;
  return weights + round_up(zeros, 64) + round_up(v, 64) + round_up(m, 64);
}

tcc_kernel_status winograd_pack_weight(const WinogradShape &s,
                                       const float *weight, void *packed,
                                       const tcc_parallel *parallel) {
  const int64_t stride = matrix_bytes(s);
  char *out = static_cast<char *>(packed);
  for (int xi = 0; xi < kPositions; ++xi) {
    write_packed_b_header(s.channels, s.out_channels, out + xi * stride);
    // Zero the columns past out_channels in the last panel (and the rest).
    std::memset(out + xi * stride + sizeof(PackedBHeader), 0,
                size_t(stride) - sizeof(PackedBHeader));
  }
  WeightJob job{
      &s, weight, out,
      task_count(parallel, (s.out_channels + kPanelWidth - 1) / kPanelWidth,
                 s.out_channels * s.channels * kPositions)};
  parallel_run(parallel, job.tasks, weight_task, &job);
  return TCC_KERNEL_OK;
}

tcc_kernel_status winograd_check_packed_weight(const WinogradShape &s,
                                               const void *packed) {
  const int64_t stride = matrix_bytes(s);
  for (int xi = 0; xi < kPositions; ++xi)
    if (tcc_kernel_status st =
            check_packed_b(static_cast<const char *>(packed) + xi * stride,
                           s.channels, s.out_channels))
      return st;
  return TCC_KERNEL_OK;
}

tcc_kernel_status winograd_conv(const WinogradShape &s,
                                const tcc_conv2d_args &a,
                                const tcc_parallel *parallel) {
  const IsaKernels &isa = active_kernels();
  char *workspace = static_cast<char *>(a.workspace);
  const char *u = static_cast<const char *>(a.packed_weight);
  if (!u) { // transform and pack once per call
    if (tcc_kernel_status st =
            winograd_pack_weight(s, a.weight, workspace, parallel))
      return st;
    u = workspace;
    workspace += winograd_packed_weight_bytes(s);
  }
  float *zeros = reinterpret_cast<float *>(workspace);
  std::memset(zeros, 0, sizeof(float) * s.channels);
  workspace += round_up(s.channels * 4, 64);
  const int64_t chunk = chunk_tiles(s);
  float *v = reinterpret_cast<float *>(workspace);
  float *m = reinterpret_cast<float *>(
      workspace + kPositions * 4 * plane_stride(chunk, s.channels));

  const int64_t total = s.batch * tiles_per_image(s);
  const bool threaded = parallel && parallel->num_threads > 1;
  for (int64_t first = 0; first < total; first += chunk) {
    const int64_t rows = std::min(chunk, total - first);
    const int64_t tasks =
        task_count(parallel, rows, rows * kPositions * s.channels);
    InputJob in{&s,   tile_transforms(isa.isa), a.input, zeros, v, first, rows,
                tasks};
    parallel_run(parallel, tasks, input_task, &in);

    GemmJob gemms{&isa, &s, v, u, m, rows};
    if (threaded) { // one GEMM per thread: each is small
      parallel_run(parallel, kPositions, gemm_task, &gemms);
      if (tcc_kernel_status st = gemms.status.load())
        return st;
    } else {
      for (int xi = 0; xi < kPositions; ++xi)
        if (tcc_kernel_status st = position_gemm(gemms, xi, nullptr))
          return st;
    }

    OutputJob out{&s,    tile_transforms(isa.isa),
                  &isa,  a.epilogue,
                  m,     a.output,
                  first, rows,
                  tasks};
    parallel_run(parallel, tasks, output_task, &out);
  }
  return TCC_KERNEL_OK;
}

} // namespace kernels
} // namespace runtime
} // namespace tcc
