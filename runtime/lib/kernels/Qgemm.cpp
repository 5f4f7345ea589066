//===- Qgemm.cpp - int8 GEMM driver: checks, packing, tiles, threads ------===//
//
// C is cut into one rectangle per task (as in Sgemm.cpp). A task packs
// blocks of mc rows of A over the whole reduction into its thread's
// scratch, then for each 32-column panel of pre-packed B and each
// micro-panel of A runs the variant's microkernel over all of K into an
// int32 tile, and the variant's epilogue over the tile's rows. Integer sums
// do not depend on the order they are taken in, so any K blocking, task
// grid or variant gives the same bits.
//
// Zero points: the microkernel sums A' * B where A' is A in the variant's
// domain (a, or a - 128); the epilogue adds (a_offset - a_zero_point) *
// colsum(B) (column sums stored with the packed weights) and the bias.
//
//===----------------------------------------------------------------------===//

#include "Qgemm.h"
#include "PackedQB.h"
#include "Sgemm.h"
#include "Status.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

namespace tcc {
namespace runtime {
namespace kernels {

bool packed_qb_layout(int64_t k, int64_t n, PackedQBLayout &l) {
  if (k < 0 || n < 0 || k > TCC_INT8_MAX_K || n > INT64_MAX / 2)
    return false;
  l.panels = ceil_div(n, kQPanelWidth);
  l.groups = ceil_div(k, kQKGroup);
  l.panel_bytes = l.groups * kQKGroup * kQPanelWidth;
  l.sums_offset = int64_t(sizeof(PackedQBHeader));
  int64_t sums_bytes, panels_bytes;
  if (__builtin_mul_overflow(l.panels, int64_t(kQPanelWidth * 4),
                             &sums_bytes) ||
      __builtin_mul_overflow(l.panels, l.panel_bytes, &panels_bytes) ||
      __builtin_add_overflow(l.sums_offset, sums_bytes, &l.panels_offset) ||
      __builtin_add_overflow(l.panels_offset, panels_bytes, &l.total_bytes))
    return false;
  return true;
}

namespace {

const char *output_name(int output) {
  switch (output) {
  case TCC_QOUTPUT_INT32:
    return "INT32";
  case TCC_QOUTPUT_U8:
    return "U8";
  case TCC_QOUTPUT_S8:
    return "S8";
  case TCC_QOUTPUT_F32:
    return "F32";
  }
  return "?";
}

bool is_quantized(int output) {
  return output == TCC_QOUTPUT_U8 || output == TCC_QOUTPUT_S8;
}

// The range of a U8 or S8 value.
int32_t type_min(int output) { return output == TCC_QOUTPUT_U8 ? 0 : -128; }
int32_t type_max(int output) { return output == TCC_QOUTPUT_U8 ? 255 : 127; }

bool finite_positive(float x) { return std::isfinite(x) && x > 0.0f; }

size_t element_size(int output) {
  return output == TCC_QOUTPUT_INT32 || output == TCC_QOUTPUT_F32 ? 4 : 1;
}

// (rows - 1) * ld + cols elements of `size` bytes are addressable.
bool fits(int64_t rows, int64_t ld, int64_t cols, size_t size) {
  int64_t span;
  return !__builtin_mul_overflow(rows - 1, ld, &span) &&
         !__builtin_add_overflow(span, cols, &span) &&
         span <= INT64_MAX / int64_t(size);
}

} // namespace

tcc_kernel_status check_qepilogue(const char *op, const tcc_qepilogue *e,
                                  int64_t n, bool check_residual_ld) {
  if (!e)
    return TCC_KERNEL_OK;
  const int out = e->output;
  if (out < TCC_QOUTPUT_INT32 || out > TCC_QOUTPUT_F32)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "%s: unknown output kind %d", op,
                out);
  if (out == TCC_QOUTPUT_INT32 && (e->relu || e->residual))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "%s: INT32 output takes no relu or residual", op);
  if (out == TCC_QOUTPUT_F32 && e->residual)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "%s: a residual needs a U8 or S8 output, not F32", op);
  if (out != TCC_QOUTPUT_INT32) {
    if (!e->scale)
      return fail(TCC_KERNEL_INVALID_ARGUMENT, "%s: %s output needs a scale",
                  op, output_name(out));
    for (int64_t j = 0, count = e->scale_per_column ? n : 1; j < count; ++j)
      if (!finite_positive(e->scale[j]))
        return fail(TCC_KERNEL_INVALID_ARGUMENT,
                    "%s: scale[%lld] (%g) must be finite and positive", op,
                    (long long)j, double(e->scale[j]));
  }
  if (!is_quantized(out))
    return TCC_KERNEL_OK;
  if (e->output_zero_point < type_min(out) ||
      e->output_zero_point > type_max(out))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "%s: output_zero_point (%d) is outside the %s range [%d, %d]",
                op, e->output_zero_point, output_name(out), type_min(out),
                type_max(out));
  if (!e->residual)
    return TCC_KERNEL_OK;
  if (e->residual_zero_point < type_min(out) ||
      e->residual_zero_point > type_max(out))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "%s: residual_zero_point (%d) is outside the %s range [%d, "
                "%d]",
                op, e->residual_zero_point, output_name(out), type_min(out),
                type_max(out));
  if (!finite_positive(e->residual_scale))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "%s: residual_scale (%g) must be finite and positive", op,
                double(e->residual_scale));
  if (e->residual_qdq) {
    if (e->product_zero_point < type_min(out) ||
        e->product_zero_point > type_max(out))
      return fail(TCC_KERNEL_INVALID_ARGUMENT,
                  "%s: product_zero_point (%d) is outside the %s range [%d, "
                  "%d]",
                  op, e->product_zero_point, output_name(out), type_min(out),
                  type_max(out));
    if (!finite_positive(e->product_scale) ||
        !finite_positive(e->output_scale))
      return fail(TCC_KERNEL_INVALID_ARGUMENT,
                  "%s: product_scale (%g) and output_scale (%g) must be "
                  "finite and positive",
                  op, double(e->product_scale), double(e->output_scale));
  }
  if (check_residual_ld && e->ld_residual < std::max<int64_t>(1, n))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "%s: ld_residual (%lld) must be >= n (%lld)", op,
                (long long)e->ld_residual, (long long)n);
  return TCC_KERNEL_OK;
}

QEpilogue resolve_qepilogue(const tcc_qepilogue *e, void *c, int64_t ldc) {
  QEpilogue q;
  q.output = e ? e->output : TCC_QOUTPUT_INT32;
  q.relu = e && e->relu;
  q.output_zero_point = 0;
  q.lo = q.hi = 0.0f;
  q.residual = nullptr;
  q.ld_residual = 0;
  q.residual_zero_point = 0;
  q.residual_scale = 0.0f;
  q.residual_qdq = false;
  q.plo = q.phi = 0.0f;
  q.product_zero_point = 0;
  q.product_scale = q.output_scale = 0.0f;
  if (e && is_quantized(e->output)) {
    const int32_t zo = e->output_zero_point;
    // ReLU clamps at the zero point: the real value 0.
    const int32_t qmin =
        q.relu ? std::max(zo, type_min(e->output)) : type_min(e->output);
    q.output_zero_point = zo;
    q.lo = float(qmin - zo);
    q.hi = float(type_max(e->output) - zo);
    q.residual = e->residual;
    q.ld_residual = e->ld_residual;
    q.residual_zero_point = e->residual_zero_point;
    q.residual_scale = e->residual_scale;
    if (e->residual && e->residual_qdq) {
      const int32_t zp = e->product_zero_point;
      q.residual_qdq = true;
      q.plo = float(type_min(e->output) - zp);
      q.phi = float(type_max(e->output) - zp);
      q.product_zero_point = zp;
      q.product_scale = e->product_scale;
      q.output_scale = e->output_scale;
    }
  }
  q.c = c;
  q.ldc = ldc;
  return q;
}

namespace {

// Bytes of packed A a block of rows may take in the thread's scratch (L2
// sized); blocks have at least mr rows whatever K is.
constexpr int64_t kPackedABudget = int64_t(512) << 10;
constexpr int64_t kMaxMcRows = 96;
constexpr int kMaxQMr = 16;
// The bounded-stack fallback packs one micro-panel of this many K groups.
constexpr int64_t kStackGroups = 256;

struct QGemm {
  const QIsaKernels *isa;
  int64_t m, n, k, groups;
  const uint8_t *a;
  int64_t lda;
  const QRowSource *source; // A's rows, instead of a and lda
  bool direct;              // the microkernel reads A in place
  // With a source: the rows are gathered (mc at a time, rows_ld bytes
  // apart, K padded with zeros to whole groups) and read by the direct
  // kernel instead of being packed.
  bool direct_rows;
  int64_t rows_ld;
  uint8_t flip; // xor turning A's bytes into the variant's domain
  const int8_t *panels;
  int64_t panel_bytes;
  // Column j's offset: compensation * col_sums[j] + bias[j].
  int32_t compensation;
  const int32_t *col_sums, *bias;
  const float *scale; // or null (INT32 output)
  bool scale_per_column;
  QEpilogue epilogue;
  int64_t mc;        // rows of A packed at once, a multiple of mr
  int64_t row_bytes; // packed bytes of one row of A over all of K
  int64_t task_rows, task_cols, n_tasks, m_tasks;
};

struct QScratch {
  void *data = nullptr;
  size_t bytes = 0;
  ~QScratch() { ::operator delete(data, std::align_val_t(64)); }
  bool reserve(size_t want) {
    if (want <= bytes)
      return true;
    ::operator delete(data, std::align_val_t(64));
    data = ::operator new(want, std::align_val_t(64), std::nothrow);
    bytes = data ? want : 0;
    return data != nullptr;
  }
};
thread_local QScratch tls_qscratch; // packed A
thread_local QScratch tls_qrows;    // A's rows from a QRowSource

// The per-column constants of the epilogue for columns j.. (cols of them,
// at most kQPanelWidth): offsets (bias and compensation) and multipliers.
struct PanelConstants {
  alignas(64) int32_t offset[kQPanelWidth];
  alignas(64) float scale[kQPanelWidth];
};
void panel_constants(const QGemm &g, int64_t j, int cols, PanelConstants &k) {
  const uint32_t comp = uint32_t(g.compensation);
  for (int c = 0; c < cols; ++c) {
    k.offset[c] = int32_t(comp * uint32_t(g.col_sums[j + c]) +
                          uint32_t(g.bias ? g.bias[j + c] : 0));
    k.scale[c] = g.scale ? g.scale[g.scale_per_column ? j + c : 0] : 0.0f;
  }
}

// Rows [i, i + rows) (rows <= mr) by the panel at column j (cols <= 32),
// from a packed micro-panel of `groups` groups: the tile, then (when
// `last`) its rows' epilogue. The microkernel adds to acc when
// `accumulate`.
void run_tile(const QGemm &g, const void *a_panel, int64_t g0, int64_t groups,
              int64_t i, int rows, int64_t j, int cols, int32_t *acc,
              const PanelConstants &k, bool accumulate, bool last) {
  const QIsaKernels &isa = *g.isa;
  const int8_t *b = g.panels + (j / kQPanelWidth) * g.panel_bytes +
                    g0 * kQPanelWidth * kQKGroup;
  for (int jr = 0; jr < cols; jr += isa.nr)
    isa.microkernel(groups, a_panel, b + jr * kQKGroup, rows, acc + jr,
                    accumulate);
  if (last)
    isa.epilogue_tile(g.epilogue, acc, k.offset, k.scale, rows, cols, i, j);
}

// Rows [i, i + rows) (rows <= mr) by the panel at column j, with one
// micro-panel of A and kStackGroups of K at a time packed on the stack:
// bounded memory whatever K is.
__attribute__((noinline)) void run_on_stack(const QGemm &g, int64_t i,
                                            int rows, int64_t j, int cols,
                                            int32_t *acc, PanelConstants &k) {
  const QIsaKernels &isa = *g.isa;
  alignas(64) uint8_t packed[kMaxQMr * kStackGroups * kQKGroup * 2];
  alignas(64) uint8_t rows_buffer[kMaxQMr * kStackGroups * kQKGroup];
  panel_constants(g, j, cols, k);
  int64_t g0 = 0;
  do {
    const int64_t groups = std::min(kStackGroups, g.groups - g0);
    const int64_t k0 = g0 * kQKGroup;
    if (groups > 0 && g.source) {
      const int64_t count = std::min(groups * kQKGroup, g.k - k0);
      g.source->rows(g.source->context, i, rows, k0, count, rows_buffer,
                     count);
      isa.pack_a(rows_buffer, count, rows, 0, groups, count, isa.mr, g.flip,
                 packed);
    } else if (groups > 0) {
      isa.pack_a(g.a + i * g.lda, g.lda, rows, k0, groups, g.k, isa.mr,
                 g.flip, packed);
    }
    run_tile(g, packed, g0, groups, i, rows, j, cols, acc, k, g0 > 0,
             g0 + groups >= g.groups);
    g0 += groups;
  } while (g0 < g.groups);
}

// With scratch (mc rows of packed A and, with a row source, of A), A is
// packed once per block of rows; without, on the stack.
void run_task(const QGemm &g, int64_t task, bool use_scratch,
              uint8_t *scratch, uint8_t *rows_scratch) {
  const QIsaKernels &isa = *g.isa;
  const int64_t r0 = task / g.n_tasks * g.task_rows;
  const int64_t r1 = std::min(g.m, r0 + g.task_rows);
  const int64_t c0 = task % g.n_tasks * g.task_cols;
  const int64_t c1 = std::min(g.n, c0 + g.task_cols);
  alignas(64) int32_t acc[kMaxQMr * kQPanelWidth];
  PanelConstants k;
  const int64_t panel_a_bytes = g.row_bytes * isa.mr;

  if (g.direct) {
    for (int64_t j = c0; j < c1; j += kQPanelWidth) {
      const int cols = int(std::min<int64_t>(kQPanelWidth, c1 - j));
      const int8_t *b = g.panels + (j / kQPanelWidth) * g.panel_bytes;
      panel_constants(g, j, cols, k);
      for (int64_t i = r0; i < r1; i += isa.mr) {
        const int rows = int(std::min<int64_t>(isa.mr, r1 - i));
        if (rows < isa.mr) { // the direct kernel computes whole tiles
          run_on_stack(g, i, rows, j, cols, acc, k);
          continue;
        }
        for (int jr = 0; jr < cols; jr += isa.nr)
          isa.direct(g.groups, g.a + i * g.lda, g.lda, b + jr * kQKGroup,
                     acc + jr);
        isa.epilogue_tile(g.epilogue, acc, k.offset, k.scale, rows, cols, i,
                          j);
      }
    }
    return;
  }

  if (g.direct_rows && use_scratch) {
    // Gathered rows read in place: mc rows of the source, whole tiles
    // (rows past the last zeroed), then every panel of the task.
    const int64_t pad = g.rows_ld - g.k;
    for (int64_t ic = r0; ic < r1; ic += g.mc) {
      const int64_t mc = std::min(g.mc, r1 - ic);
      const int64_t tiles = ceil_div(mc, isa.mr) * isa.mr;
      g.source->rows(g.source->context, ic, mc, 0, g.k, rows_scratch,
                     g.rows_ld);
      for (int64_t r = 0; pad > 0 && r < mc; ++r)
        std::memset(rows_scratch + r * g.rows_ld + g.k, 0, size_t(pad));
      std::memset(rows_scratch + mc * g.rows_ld, 0,
                  size_t((tiles - mc) * g.rows_ld));
      for (int64_t j = c0; j < c1; j += kQPanelWidth) {
        const int cols = int(std::min<int64_t>(kQPanelWidth, c1 - j));
        const int8_t *b = g.panels + (j / kQPanelWidth) * g.panel_bytes;
        panel_constants(g, j, cols, k);
        for (int64_t ir = 0; ir < mc; ir += isa.mr) {
          for (int jr = 0; jr < cols; jr += isa.nr)
            isa.direct(g.groups, rows_scratch + ir * g.rows_ld, g.rows_ld,
                       b + jr * kQKGroup, acc + jr);
          isa.epilogue_tile(g.epilogue, acc, k.offset, k.scale,
                            int(std::min<int64_t>(isa.mr, mc - ir)), cols,
                            ic + ir, j);
        }
      }
    }
    return;
  }

  if (use_scratch) { // A over all of K, mc rows at a time
    uint8_t *packed = scratch;
    for (int64_t ic = r0; ic < r1; ic += g.mc) {
      const int64_t mc = std::min(g.mc, r1 - ic);
      if (g.groups > 0 && g.source) {
        g.source->rows(g.source->context, ic, mc, 0, g.k, rows_scratch, g.k);
        isa.pack_a(rows_scratch, g.k, mc, 0, g.groups, g.k, isa.mr, g.flip,
                   packed);
      } else if (g.groups > 0) {
        isa.pack_a(g.a + ic * g.lda, g.lda, mc, 0, g.groups, g.k, isa.mr,
                   g.flip, packed);
      }
      for (int64_t j = c0; j < c1; j += kQPanelWidth) {
        const int cols = int(std::min<int64_t>(kQPanelWidth, c1 - j));
        panel_constants(g, j, cols, k);
        for (int64_t ir = 0; ir < mc; ir += isa.mr)
          run_tile(g, packed + ir / isa.mr * panel_a_bytes, 0, g.groups,
                   ic + ir, int(std::min<int64_t>(isa.mr, mc - ir)), j, cols,
                   acc, k, false, true);
      }
    }
    return;
  }

  // Without scratch: on the stack.
  for (int64_t i = r0; i < r1; i += isa.mr)
    for (int64_t j = c0; j < c1; j += kQPanelWidth)
      run_on_stack(g, i, int(std::min<int64_t>(isa.mr, r1 - i)), j,
                   int(std::min<int64_t>(kQPanelWidth, c1 - j)), acc, k);
}

void qgemm_task(void *arg, int64_t task) {
  const QGemm &g = *static_cast<const QGemm *>(arg);
  // With k == 0 nothing is packed or read. A K so long that one
  // micro-panel exceeds the budget goes in bounded pieces, as when the
  // scratch cannot be had.
  const bool use_scratch =
      g.groups == 0 ||
      (g.row_bytes * g.isa->mr <= kPackedABudget &&
       (g.direct_rows
            ? tls_qrows.reserve(size_t(ceil_div(g.mc, g.isa->mr) *
                                       g.isa->mr * g.rows_ld))
            : tls_qscratch.reserve(size_t(g.mc) * size_t(g.row_bytes)) &&
                  (!g.source ||
                   tls_qrows.reserve(size_t(g.mc) * size_t(g.k)))));
  run_task(g, task, use_scratch, static_cast<uint8_t *>(tls_qscratch.data),
           static_cast<uint8_t *>(tls_qrows.data));
}

void plan_tasks(QGemm &g, int threads) {
  GemmTasks t = plan_gemm_tasks(g.m, g.n, g.k, g.isa->mr, kQPanelWidth, threads);
  g.task_rows = t.rows;
  g.task_cols = t.cols;
  g.m_tasks = t.m_tasks;
  g.n_tasks = t.n_tasks;
}

tcc_kernel_status check_packed_qb(const void *packed, int64_t k, int64_t n) {
  if (!packed)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "qgemm: packed_b is NULL");
  if (reinterpret_cast<uintptr_t>(packed) % 64 != 0)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qgemm: packed_b must be 64-byte aligned");
  PackedQBHeader h;
  std::memcpy(&h, packed, sizeof h);
  if (std::memcmp(h.magic, kPackedQBMagic, sizeof h.magic) != 0)
    return fail(TCC_KERNEL_BAD_PACKED_DATA,
                "qgemm: packed_b does not start with an int8 packed-B header");
  if (h.version != TCC_PACKED_QB_VERSION || h.panel_width != kQPanelWidth ||
      h.k_group != kQKGroup)
    return fail(TCC_KERNEL_BAD_PACKED_DATA,
                "qgemm: packed_b has format version %u (panels %u x %u); "
                "this runtime reads version %d (panels %d x %d)",
                h.version, h.panel_width, h.k_group, TCC_PACKED_QB_VERSION,
                kQPanelWidth, kQKGroup);
  if (h.k != k || h.n != n)
    return fail(TCC_KERNEL_BAD_PACKED_DATA,
                "qgemm: packed_b holds a %lld x %lld matrix, the call needs "
                "%lld x %lld (k x n)",
                (long long)h.k, (long long)h.n, (long long)k, (long long)n);
  return TCC_KERNEL_OK;
}

tcc_kernel_status check_qgemm(const tcc_qgemm_args *p,
                              const tcc_parallel *parallel, bool has_source) {
  if (!p)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "qgemm: args is NULL");
  if (tcc_kernel_status s = check_parallel(parallel))
    return s;
  if (p->m < 0 || p->n < 0 || p->k < 0)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qgemm: negative size m=%lld n=%lld k=%lld", (long long)p->m,
                (long long)p->n, (long long)p->k);
  if (p->k > TCC_INT8_MAX_K)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qgemm: k (%lld) exceeds %d, beyond which int32 sums could "
                "overflow",
                (long long)p->k, TCC_INT8_MAX_K);
  const int32_t za_min = p->a_signed ? -128 : 0, za_max = za_min + 255;
  if (p->a_zero_point < za_min || p->a_zero_point > za_max)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qgemm: a_zero_point (%d) is outside the %s range [%d, %d]",
                p->a_zero_point, p->a_signed ? "int8" : "uint8", za_min,
                za_max);
  if (tcc_kernel_status s = check_packed_qb(p->packed_b, p->k, p->n))
    return s;
  if (tcc_kernel_status s = check_qepilogue("qgemm", p->epilogue, p->n, true))
    return s;
  if (p->m == 0 || p->n == 0)
    return TCC_KERNEL_OK;
  if (!p->c)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "qgemm: c is NULL");
  const size_t c_size =
      element_size(p->epilogue ? p->epilogue->output : TCC_QOUTPUT_INT32);
  if (p->ldc < p->n || !fits(p->m, p->ldc, p->n, c_size))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qgemm: ldc (%lld) must be >= n (%lld)", (long long)p->ldc,
                (long long)p->n);
  if (p->k == 0 || has_source)
    return TCC_KERNEL_OK;
  if (!p->a)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "qgemm: a is NULL");
  if (p->lda < p->k || !fits(p->m, p->lda, p->k, 1))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qgemm: lda (%lld) must be >= k (%lld)", (long long)p->lda,
                (long long)p->k);
  return TCC_KERNEL_OK;
}

bool runs_here(const QIsaKernels &isa) {
  return isaAtMost(isa.family, hostIsa()) && hostCpuHasAll(isa.features);
}

} // namespace

tcc_kernel_status qgemm_with(const QIsaKernels &isa, const tcc_qgemm_args *p,
                             const tcc_parallel *parallel,
                             const QRowSource *source) {
  if (tcc_kernel_status s = check_qgemm(p, parallel, source != nullptr))
    return s;
  if (p->m == 0 || p->n == 0)
    return TCC_KERNEL_OK;
  PackedQBLayout layout;
  packed_qb_layout(p->k, p->n, layout); // valid: the header matched
  const char *packed = static_cast<const char *>(p->packed_b);

  QGemm g;
  g.isa = &isa;
  g.m = p->m;
  g.n = p->n;
  g.k = p->k;
  g.groups = layout.groups;
  g.a = static_cast<const uint8_t *>(p->a);
  g.lda = p->lda;
  g.source = source;
  // Signed A becomes unsigned by adding 128 (flipping the top bit), with
  // its zero point; a variant working on a - 128 flips it back.
  const bool to_s8 = isa.a_offset == 128;
  g.flip = uint8_t((p->a_signed ? 0x80 : 0) ^ (to_s8 ? 0x80 : 0));
  const int32_t za_u8 = p->a_zero_point + (p->a_signed ? 128 : 0);
  g.panels = reinterpret_cast<const int8_t *>(packed + layout.panels_offset);
  g.panel_bytes = layout.panel_bytes;
  g.compensation = isa.a_offset - za_u8;
  g.col_sums = reinterpret_cast<const int32_t *>(packed + layout.sums_offset);
  g.bias = p->epilogue ? p->epilogue->bias : nullptr;
  g.scale = p->epilogue ? p->epilogue->scale : nullptr;
  g.scale_per_column = p->epilogue && p->epilogue->scale_per_column;
  g.epilogue = resolve_qepilogue(p->epilogue, p->c, p->ldc);
  g.row_bytes = g.groups * kQKGroup * isa.a_bytes;
  g.mc = isa.mr;
  if (g.row_bytes > 0)
    g.mc = std::max<int64_t>(
        isa.mr,
        std::min(kMaxMcRows, kPackedABudget / g.row_bytes) / isa.mr * isa.mr);
  plan_tasks(g, parallel ? parallel->num_threads : 1);
  // A task of a few panels uses each packed block of A that many times:
  // there the microkernel reads A in place (as Sgemm.cpp does), when the
  // variant can and the bytes need no change.
  g.direct = isa.direct && !source && g.flip == 0 && g.k > 0 &&
             g.k % kQKGroup == 0 && g.task_cols <= 4 * kQPanelWidth;
  // Gathered rows (convolution patches) likewise, padded to whole groups.
  g.direct_rows = isa.direct && source && g.flip == 0 && g.k > 0 &&
                  g.task_cols <= 4 * kQPanelWidth;
  g.rows_ld = g.groups * kQKGroup;
  // No more rows per block than a task has.
  g.mc = std::min(g.mc, g.task_rows);

  const int64_t tasks = g.m_tasks * g.n_tasks;
  if (tasks == 1 || !parallel)
    for (int64_t t = 0; t < tasks; ++t)
      qgemm_task(&g, t);
  else
    parallel->parallel_for(parallel->pool, tasks, qgemm_task, &g);
  return TCC_KERNEL_OK;
}

} // namespace kernels
} // namespace runtime
} // namespace tcc

using namespace tcc::runtime::kernels;

extern "C" tcc_kernel_status tcc_qgemm(const tcc_qgemm_args *args,
                                       const tcc_parallel *parallel) {
  return qgemm_with(int8_active(), args, parallel);
}

extern "C" tcc_kernel_status tcc_qgemm_on(const char *variant,
                                          const tcc_qgemm_args *args,
                                          const tcc_parallel *parallel) {
  for (const QIsaKernels *const *v = int8_variants(); *v; ++v) {
    if (!variant || std::strcmp(variant, (*v)->name) != 0)
      continue;
    if (!runs_here(**v))
      return fail(TCC_KERNEL_INVALID_ARGUMENT,
                  "qgemm: this CPU cannot run the %s variant", variant);
    return qgemm_with(**v, args, parallel);
  }
  return fail(TCC_KERNEL_INVALID_ARGUMENT,
              "qgemm: no int8 variant named '%s' in this build",
              variant ? variant : "(null)");
}

extern "C" const char *tcc_int8_isa(void) { return int8_active().name; }

extern "C" const char *tcc_int8_variant(int32_t i, int32_t *runs) {
  if (i < 0)
    return nullptr;
  const QIsaKernels *const *v = int8_variants();
  for (int32_t j = 0; j <= i; ++j)
    if (!v[j])
      return nullptr;
  if (runs)
    *runs = runs_here(*v[i]);
  return v[i]->name;
}

extern "C" tcc_kernel_status tcc_qgemm_check_packed_b(const void *packed,
                                                      int64_t k, int64_t n) {
  return check_packed_qb(packed, k, n);
}

extern "C" size_t tcc_qgemm_packed_b_size(int64_t k, int64_t n) {
  PackedQBLayout layout;
  if (!packed_qb_layout(k, n, layout))
    return 0;
  return size_t(layout.total_bytes);
}

extern "C" tcc_kernel_status tcc_qgemm_pack_b(int64_t k, int64_t n,
                                              const int8_t *b, int64_t ldb,
                                              int32_t trans_b, void *packed) {
  PackedQBLayout layout;
  if (!packed_qb_layout(k, n, layout))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qgemm_pack_b: invalid size k=%lld n=%lld (k at most %d)",
                (long long)k, (long long)n, TCC_INT8_MAX_K);
  if (!packed)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "qgemm_pack_b: packed is NULL");
  if (reinterpret_cast<uintptr_t>(packed) % 64 != 0)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qgemm_pack_b: packed must be 64-byte aligned");
  const int64_t rows = trans_b ? n : k, cols = trans_b ? k : n;
  if (k > 0 && n > 0) {
    if (!b)
      return fail(TCC_KERNEL_INVALID_ARGUMENT, "qgemm_pack_b: b is NULL");
    if (ldb < cols || !fits(rows, ldb, cols, 1))
      return fail(TCC_KERNEL_INVALID_ARGUMENT,
                  "qgemm_pack_b: ldb (%lld) must be >= %lld (%s)",
                  (long long)ldb, (long long)cols,
                  trans_b ? "k, as trans_b" : "n");
  }
  char *out = static_cast<char *>(packed);
  PackedQBHeader h;
  std::memset(&h, 0, sizeof h);
  std::memcpy(h.magic, kPackedQBMagic, sizeof h.magic);
  h.version = TCC_PACKED_QB_VERSION;
  h.panel_width = kQPanelWidth;
  h.k_group = kQKGroup;
  h.k = k;
  h.n = n;
  std::memcpy(out, &h, sizeof h);

  int32_t *sums = reinterpret_cast<int32_t *>(out + layout.sums_offset);
  int8_t *panels = reinterpret_cast<int8_t *>(out + layout.panels_offset);
  const int64_t k_stride = trans_b ? 1 : ldb, col_stride = trans_b ? ldb : 1;
  for (int64_t p = 0; p < layout.panels; ++p) {
    int8_t *panel = panels + p * layout.panel_bytes;
    for (int c = 0; c < kQPanelWidth; ++c) {
      const int64_t j = p * kQPanelWidth + c;
      int32_t sum = 0;
      for (int64_t kk = 0; kk < layout.groups * kQKGroup; ++kk) {
        const int8_t v =
            j < n && kk < k ? b[kk * k_stride + j * col_stride] : int8_t(0);
        panel[(kk / kQKGroup * kQPanelWidth + c) * kQKGroup +
              kk % kQKGroup] = v;
        sum += v;
      }
      sums[j] = sum;
    }
  }
  return TCC_KERNEL_OK;
}

extern "C" float tcc_int8_requant_scale(float input_scale, float weight_scale,
                                        float output_scale) {
  const float product = input_scale * weight_scale;
  return product / output_scale;
}
