//===- Sgemm.cpp - fp32 GEMM driver: checks, blocking, packing, threads ---===//
//
// Goto/BLIS blocking around the ISA microkernel. C is cut into one
// rectangle per task; each task loops over NC-column blocks of B, KC-deep
// blocks of K and MC-row blocks of A, packs what it reads into its own
// scratch, and runs the microkernel over mr x nr tiles. Tasks share nothing
// writable, so one parallel_for suffices and there is no barrier.
//
// Every element of C sees the same sequence of FMAs whatever the task grid
// (K blocking depends only on k and the ISA), so results are bitwise
// identical for any thread count.
//
// Scratch: each thread lazily allocates, once, a thread-local buffer for its
// packed A and B blocks (no allocation per call). Should that allocation
// fail, the task falls back to small blocks in a bounded stack buffer.
//
//===----------------------------------------------------------------------===//

#include "Sgemm.h"
#include "MicroKernel.h"
#include "PackedB.h"
#include "Status.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>

namespace tcc {
namespace runtime {
namespace kernels {

int64_t packed_b_floats(int64_t k, int64_t n) {
  if (k < 0 || n < 0 || n > INT64_MAX - kPanelWidth)
    return -1;
  int64_t panels = (n + kPanelWidth - 1) / kPanelWidth, floats;
  if (__builtin_mul_overflow(panels, k, &floats) ||
      __builtin_mul_overflow(floats, int64_t(kPanelWidth), &floats) ||
      floats > (INT64_MAX - 64) / 4)
    return -1;
  return floats;
}

void write_packed_b_header(int64_t k, int64_t n, void *packed) {
  PackedBHeader header;
  std::memset(&header, 0, sizeof header);
  std::memcpy(header.magic, kPackedBMagic, sizeof header.magic);
  header.version = TCC_PACKED_B_VERSION;
  header.panel_width = kPanelWidth;
  header.k = k;
  header.n = n;
  std::memcpy(packed, &header, sizeof header);
}

namespace {

// Where B's panels come from. B is never read in place: the microkernel's
// strided loads down 32-column panels miss without the overlap that packing
// gets, even for a few rows of A (figures: docs/performance.md,
// "Measurements behind choices in the code").
enum class BSource {
  PrePacked, // tcc_sgemm_pack_b's panels
  OnTheFly,  // packed by each task, one kc x nc block (or panel) at a time
};

struct Gemm {
  const IsaKernels *isa;
  int64_t m, n, k;
  // A(i, kk) = a[i * a_row_stride + kk * a_col_stride]
  const float *a;
  int64_t a_row_stride, a_col_stride;
  bool direct_a; // the microkernel reads A in place (row-major): no pack_a
  // B(kk, j) = b[kk * b_k_stride + j * b_col_stride]
  const float *b;
  int64_t b_k_stride, b_col_stride;
  const float *panels;          // pre-packed panel data
  const BPanelSource *custom_b; // packs B's panels instead of isa.pack_b
  BSource source;
  float *c;
  int64_t ldc;
  float alpha, beta, clamp_min, clamp_max;
  const float *bias;
  bool bias_per_row;
  const float *residual;
  int64_t ld_residual;
  int activation;
  // K blocks of kc (the last may be shorter); one empty block when k == 0.
  int64_t kc, k_blocks;
  // The task grid: rectangles of task_rows x task_cols.
  int64_t task_rows, task_cols, m_tasks, n_tasks;
};

struct Scratch {
  float *a;   // mc x kc packed A
  float *b;   // kc x nc packed B
  int64_t mc; // multiple of mr
  int64_t nc; // multiple of kPanelWidth
};

// Grown once per thread to the largest blocking in use, freed at thread exit.
struct ThreadScratch {
  float *a = nullptr, *b = nullptr;
  size_t a_floats = 0, b_floats = 0;
  ~ThreadScratch() { release(); }
  void release() {
    ::operator delete(a, std::align_val_t(64));
    ::operator delete(b, std::align_val_t(64));
    a = b = nullptr;
    a_floats = b_floats = 0;
  }
  bool reserve(size_t want_a, size_t want_b) {
    if (want_a <= a_floats && want_b <= b_floats)
      return true;
    release();
    a = static_cast<float *>(::operator new(
        want_a * sizeof(float), std::align_val_t(64), std::nothrow));
    b = static_cast<float *>(::operator new(
        want_b * sizeof(float), std::align_val_t(64), std::nothrow));
    if (!a || !b) {
      release();
      return false;
    }
    a_floats = want_a;
    b_floats = want_b;
    return true;
  }
};
thread_local ThreadScratch tls_scratch;

// This thread's scratch for `isa`'s largest blocks: mc x K block of A, and
// a kc x nc block or one deep K block's panel of B.
bool reserve_scratch(const IsaKernels &isa) {
  return tls_scratch.reserve(
      size_t(isa.mc) * isa.few_rows_kc,
      std::max(size_t(isa.kc) * isa.nc, size_t(isa.few_rows_kc) * kPanelWidth));
}

TileStore tile_store(const Gemm &g, int64_t i, int64_t j, int64_t kb) {
  TileStore st;
  st.c = g.c + i * g.ldc + j;
  st.ldc = g.ldc;
  st.accumulate = kb > 0;
  st.alpha = g.alpha;
  st.bias = nullptr;
  st.bias_per_row = g.bias_per_row;
  if (kb == 0 && g.bias)
    st.bias = g.bias_per_row ? g.bias + i : g.bias + j;
  st.residual =
      kb == 0 && g.residual ? g.residual + i * g.ld_residual + j : nullptr;
  st.ld_residual = g.ld_residual;
  st.beta = g.beta;
  st.activation =
      kb == g.k_blocks - 1 ? g.activation : int(TCC_ACTIVATION_NONE);
  st.clamp_min = g.clamp_min;
  st.clamp_max = g.clamp_max;
  return st;
}

// C[r0:r1, c0:c1] of the task's rectangle.
void run_task(const Gemm &g, int64_t task, const Scratch &s) {
  const IsaKernels &isa = *g.isa;
  const int64_t r0 = task / g.n_tasks * g.task_rows;
  const int64_t r1 = std::min(g.m, r0 + g.task_rows);
  const int64_t c0 = task % g.n_tasks * g.task_cols;
  const int64_t c1 = std::min(g.n, c0 + g.task_cols);
  // With one block of rows, each B panel is used right after it is packed:
  // pack it into the same slot instead of a whole L2-sized block.
  const bool one_panel_at_a_time =
      g.source == BSource::OnTheFly && r1 - r0 <= s.mc;
  const int64_t nc_step = one_panel_at_a_time ? c1 - c0 : s.nc;

  for (int64_t jc = c0; jc < c1; jc += nc_step) {
    const int64_t nc = std::min(nc_step, c1 - jc);
    const int64_t panels = (nc + kPanelWidth - 1) / kPanelWidth;
    for (int64_t kb = 0; kb < g.k_blocks; ++kb) {
      const int64_t pc = kb * g.kc, kc = std::min(g.kc, g.k - pc);

      // Where panel q of this block starts.
      auto panel = [&](int64_t q) -> const float * {
        if (g.source == BSource::PrePacked)
          return g.panels + ((jc / kPanelWidth) + q) * g.k * kPanelWidth +
                 pc * kPanelWidth;
        return one_panel_at_a_time ? s.b : s.b + q * kc * kPanelWidth;
      };
      auto pack_panel = [&](int64_t q, float *dst) {
        int64_t j = jc + q * kPanelWidth;
        int cols = int(std::min<int64_t>(kPanelWidth, c1 - j));
        if (g.custom_b)
          g.custom_b->pack(g.custom_b->context, pc, kc, j, cols, dst);
        else
          isa.pack_b_panel(g.b + pc * g.b_k_stride + j * g.b_col_stride,
                           g.b_k_stride, g.b_col_stride, kc, cols, dst);
      };
      if (g.source == BSource::OnTheFly && !one_panel_at_a_time) {
        for (int64_t q = 0; q < panels; ++q)
          pack_panel(q, s.b + q * kc * kPanelWidth);
      }

      for (int64_t ic = r0; ic < r1; ic += s.mc) {
        const int64_t mc = std::min(s.mc, r1 - ic);
        if (!g.direct_a)
          isa.pack_a(g.a + ic * g.a_row_stride + pc * g.a_col_stride,
                     g.a_row_stride, g.a_col_stride, mc, kc, isa.mr, s.a);
        for (int64_t q = 0; q < panels; ++q) {
          if (one_panel_at_a_time)
            pack_panel(q, s.b);
          const float *bp = panel(q);
          const int64_t panel_end =
              std::min(c1, jc + (q + 1) * int64_t(kPanelWidth));
          for (int64_t j = jc + q * kPanelWidth; j < panel_end; j += isa.nr) {
            int cols = int(std::min<int64_t>(isa.nr, panel_end - j));
            const float *bj = bp + (j - jc - q * kPanelWidth);
            if (isa.narrow_microkernel && cols <= isa.narrow_cols) {
              // One vector wide, two packed micro-panels of rows at a time;
              // A read in place, one micro-panel's rows (24 rows in place
              // are too many streams: 64x10x4096 took 1.5x as long).
              const int64_t step = g.direct_a ? isa.mr : 2 * isa.mr;
              for (int64_t ir = 0; ir < mc; ir += step) {
                int rows = int(std::min<int64_t>(step, mc - ir));
                const float *ap =
                    g.direct_a ? g.a + (ic + ir) * g.a_row_stride + pc
                               : s.a + ir * kc;
                isa.narrow_microkernel(kc, ap, g.direct_a ? g.a_row_stride : 0,
                                       bj, kPanelWidth, rows, cols,
                                       tile_store(g, ic + ir, j, kb));
              }
              continue;
            }
            for (int64_t ir = 0; ir < mc; ir += isa.mr) {
              int rows = int(std::min<int64_t>(isa.mr, mc - ir));
              const float *ap =
                  g.direct_a ? g.a + (ic + ir) * g.a_row_stride + pc
                             : s.a + ir * kc;
              isa.microkernel(kc, ap, g.direct_a ? g.a_row_stride : 0, bj,
                              kPanelWidth, rows, cols,
                              tile_store(g, ic + ir, j, kb));
            }
          }
        }
      }
    }
  }
}

// The bounded-stack fallback when the thread's scratch cannot be allocated:
// one micro-panel of A and one panel of B at a time.
__attribute__((noinline)) void run_task_on_stack(const Gemm &g, int64_t task) {
  alignas(64) float a[kMaxMr * kMaxKc];
  alignas(64) float b[kMaxKc * kPanelWidth];
  run_task(g, task, Scratch{a, b, g.isa->mr, kPanelWidth});
}

void gemm_task(void *arg, int64_t task) {
  const Gemm &g = *static_cast<const Gemm *>(arg);
  const IsaKernels &isa = *g.isa;
  if (reserve_scratch(isa))
    run_task(g, task, Scratch{tls_scratch.a, tls_scratch.b, isa.mc, isa.nc});
  else
    run_task_on_stack(g, task);
}

// A GEMM of at most kSmallM rows split over columns, in this many chunks
// per thread, claimed as threads come: a worker woken from sleep starts late
// (a VM's halted vCPU), and with one chunk each the caller then waits for
// it; with many, the caller takes the late worker's share (figures:
// docs/performance.md, "Measurements behind choices in the code").
constexpr int64_t kSmallTasksPerThread = 8;

// Such a GEMM streams B at a multiply-add or four per float read, far
// slower per multiply-add than a blocked GEMM, so it gains from a second
// thread from fewer of them than kMinParallelWork (figures:
// docs/performance.md, "Measurements behind choices in the code").
constexpr int64_t kMinParallelSmallWork = int64_t(1) << 18;

// A GEMM of at most kSmallM rows split over columns.
struct SmallTasks {
  const IsaKernels *isa;
  SmallGemm g;
  SmallGemmFn fn;
  bool needs_acc; // small_rows keeps partial sums in scratch
  int64_t chunk;
};

void small_task(void *arg, int64_t task) {
  const SmallTasks &t = *static_cast<const SmallTasks *>(arg);
  const int64_t j0 = task * t.chunk, j1 = std::min(t.g.n, j0 + t.chunk);
  if (!t.needs_acc) {
    t.fn(t.g, j0, j1);
    return;
  }
  SmallGemm g = t.g;
  float stack_acc[kSmallM * 256]; // when thread scratch cannot be had
  int64_t width = 256;
  g.acc = stack_acc;
  const IsaKernels &isa = *t.isa;
  if (reserve_scratch(isa)) {
    g.acc = tls_scratch.b;
    width = int64_t(tls_scratch.b_floats) / kSmallM;
  }
  for (int64_t j = j0; j < j1; j += width)
    t.fn(g, j, std::min(j1, j + width));
}

void run_small(const Gemm &big, SmallGemmFn fn, bool needs_acc,
               const tcc_parallel *parallel) {
  SmallTasks t;
  t.isa = big.isa;
  SmallGemm &g = t.g;
  g.m = big.m;
  g.n = big.n;
  g.k = big.k;
  g.a = big.a;
  g.a_row_stride = big.a_row_stride;
  g.a_col_stride = big.a_col_stride;
  g.b = big.b;
  g.ldb = big.b_col_stride == 1 ? big.b_k_stride : big.b_col_stride;
  g.c = big.c;
  g.ldc = big.ldc;
  g.alpha = big.alpha;
  g.beta = big.beta;
  g.clamp_min = big.clamp_min;
  g.clamp_max = big.clamp_max;
  g.bias = big.bias;
  g.bias_per_row = big.bias_per_row;
  g.residual = big.residual;
  g.ld_residual = big.ld_residual;
  g.activation = big.activation;
  g.kc = big.kc;
  g.acc = nullptr;
  t.fn = fn;
  t.needs_acc = needs_acc;
  int threads = parallel ? parallel->num_threads : 1;
  int64_t tasks = 1;
  if (threads > 1 &&
      g.m * g.n * std::max<int64_t>(g.k, 1) >= kMinParallelSmallWork)
    tasks = std::min<int64_t>(kSmallTasksPerThread * threads,
                              ceil_div(g.n, 64));
  t.chunk = ceil_div(ceil_div(g.n, tasks), 64) * 64;
  tasks = ceil_div(g.n, t.chunk);
  if (tasks == 1)
    small_task(&t, 0);
  else
    parallel->parallel_for(parallel->pool, tasks, small_task, &t);
}

void plan_tasks(Gemm &g, int threads) {
  GemmTasks t = plan_gemm_tasks(g.m, g.n, g.k, g.isa->mr, kPanelWidth, threads);
  g.task_rows = t.rows;
  g.task_cols = t.cols;
  g.m_tasks = t.m_tasks;
  g.n_tasks = t.n_tasks;
}

bool fits(int64_t rows, int64_t ld, int64_t cols) {
  // (rows - 1) * ld + cols elements must be addressable.
  int64_t span;
  return !__builtin_mul_overflow(rows - 1, ld, &span) &&
         !__builtin_add_overflow(span, cols, &span) &&
         span <= INT64_MAX / int64_t(sizeof(float));
}

/// Whether `activation` is one of Activations.def.
bool is_known_activation(int32_t activation) {
  switch (activation) {
#define TCC_ACTIVATION(Name, NAME, value) case value:
#include "tcc/runtime/Activations.def"
#undef TCC_ACTIVATION
    return true;
  default:
    return false;
  }
}

} // namespace

tcc_kernel_status check_parallel(const tcc_parallel *parallel) {
  if (parallel && (!parallel->parallel_for || parallel->num_threads < 1))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "tcc_parallel needs a parallel_for function and num_threads "
                ">= 1 (got %d)",
                parallel->num_threads);
  return TCC_KERNEL_OK;
}

tcc_kernel_status check_epilogue(const tcc_epilogue *e, int64_t n,
                                 bool check_residual_ld) {
  if (!e)
    return TCC_KERNEL_OK;
  if (!is_known_activation(e->activation))
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "epilogue: unknown activation %d",
                e->activation);
  if (e->activation == TCC_ACTIVATION_CLAMP && !(e->clamp_min <= e->clamp_max))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "epilogue: clamp_min (%g) must not exceed clamp_max (%g)",
                double(e->clamp_min), double(e->clamp_max));
  if (check_residual_ld && e->residual && e->beta != 0.0f &&
      e->ld_residual < std::max<int64_t>(1, n))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "epilogue: ld_residual (%lld) must be >= n (%lld)",
                (long long)e->ld_residual, (long long)n);
  return TCC_KERNEL_OK;
}

tcc_kernel_status check_packed_b(const void *packed, int64_t k, int64_t n) {
  if (reinterpret_cast<uintptr_t>(packed) % 64 != 0)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "packed_b must be 64-byte aligned");
  PackedBHeader header;
  std::memcpy(&header, packed, sizeof header);
  if (std::memcmp(header.magic, kPackedBMagic, sizeof header.magic) != 0)
    return fail(TCC_KERNEL_BAD_PACKED_DATA,
                "packed_b does not start with a packed-B header");
  if (header.version != TCC_PACKED_B_VERSION ||
      header.panel_width != kPanelWidth)
    return fail(TCC_KERNEL_BAD_PACKED_DATA,
                "packed_b has format version %u (panel width %u); this "
                "runtime reads version %d (panel width %d)",
                header.version, header.panel_width, TCC_PACKED_B_VERSION,
                kPanelWidth);
  if (header.k != k || header.n != n)
    return fail(TCC_KERNEL_BAD_PACKED_DATA,
                "packed_b holds a %lld x %lld matrix, the call needs %lld x "
                "%lld (k x n)",
                (long long)header.k, (long long)header.n, (long long)k,
                (long long)n);
  return TCC_KERNEL_OK;
}

namespace {

tcc_kernel_status check_sgemm(const tcc_sgemm_args *p,
                              const tcc_parallel *parallel, bool custom_b) {
  if (!p)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "sgemm: args is NULL");
  if (tcc_kernel_status s = check_parallel(parallel))
    return s;
  if (p->m < 0 || p->n < 0 || p->k < 0)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "sgemm: negative size m=%lld n=%lld k=%lld", (long long)p->m,
                (long long)p->n, (long long)p->k);
  if (p->m == 0 || p->n == 0)
    return TCC_KERNEL_OK;
  if (!p->c)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "sgemm: c is NULL");
  if (p->ldc < p->n || !fits(p->m, p->ldc, p->n))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "sgemm: ldc (%lld) must be >= n (%lld)", (long long)p->ldc,
                (long long)p->n);
  if (tcc_kernel_status s = check_epilogue(p->epilogue, p->n, true))
    return s;
  if (p->packed_b)
    if (tcc_kernel_status s = check_packed_b(p->packed_b, p->k, p->n))
      return s;
  if (p->k == 0)
    return TCC_KERNEL_OK;
  int64_t a_rows = p->trans_a ? p->k : p->m, a_cols = p->trans_a ? p->m : p->k;
  if (!p->a)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "sgemm: a is NULL");
  if (p->lda < a_cols || !fits(a_rows, p->lda, a_cols))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "sgemm: lda (%lld) must be >= %lld (%s)", (long long)p->lda,
                (long long)a_cols, p->trans_a ? "m, as trans_a" : "k");
  if (p->packed_b || custom_b)
    return TCC_KERNEL_OK;
  int64_t b_rows = p->trans_b ? p->n : p->k, b_cols = p->trans_b ? p->k : p->n;
  if (!p->b)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "sgemm: b is NULL and no packed_b is given");
  if (p->ldb < b_cols || !fits(b_rows, p->ldb, b_cols))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "sgemm: ldb (%lld) must be >= %lld (%s)", (long long)p->ldb,
                (long long)b_cols, p->trans_b ? "k, as trans_b" : "n");
  return TCC_KERNEL_OK;
}

} // namespace

tcc_kernel_status sgemm_with(const IsaKernels &isa, const tcc_sgemm_args *p,
                             const tcc_parallel *parallel,
                             const BPanelSource *custom_b) {
  if (tcc_kernel_status s = check_sgemm(p, parallel, custom_b != nullptr))
    return s;
  if (p->m == 0 || p->n == 0)
    return TCC_KERNEL_OK;

  Gemm g;
  g.isa = &isa;
  g.m = p->m;
  g.n = p->n;
  g.k = p->k;
  g.a = p->a;
  g.a_row_stride = p->trans_a ? 1 : p->lda;
  g.a_col_stride = p->trans_a ? p->lda : 1;
  const bool row_major_a = !p->trans_a && p->k > 0 && p->lda > 0;
  g.b = p->b;
  g.b_k_stride = p->trans_b ? 1 : p->ldb;
  g.b_col_stride = p->trans_b ? p->ldb : 1;
  g.panels = nullptr;
  g.custom_b = custom_b;
  if (custom_b) {
    g.source = BSource::OnTheFly;
  } else if (p->packed_b) {
    g.source = BSource::PrePacked;
    // The panels are read without software prefetch: each kc-deep slice of
    // a panel is contiguous, which the hardware prefetchers follow, and
    // prefetching the next panel into the L1 or L2 measured slower on this
    // machine whether the weights came from memory or the L3 (figures:
    // docs/performance.md, "Measurements behind choices in the code").
    g.panels = reinterpret_cast<const float *>(
        static_cast<const char *>(p->packed_b) + sizeof(PackedBHeader));
  } else {
    g.source = BSource::OnTheFly;
  }
  g.c = p->c;
  g.ldc = p->ldc;
  const tcc_epilogue *e = p->epilogue;
  g.alpha = e ? e->alpha : 1.0f;
  g.bias = e ? e->bias : nullptr;
  g.bias_per_row = e && e->bias_per_row;
  // beta == 0 ignores the residual, NaNs included (as torch.addmm does).
  g.residual = e && e->residual && e->beta != 0.0f ? e->residual : nullptr;
  g.ld_residual = e ? e->ld_residual : 0;
  g.beta = e ? e->beta : 0.0f;
  g.activation = e ? e->activation : TCC_ACTIVATION_NONE;
  g.clamp_min = e ? e->clamp_min : 0.0f;
  g.clamp_max = e ? e->clamp_max : 0.0f;

  // The K blocks depend only on the shape (never on the task grid or
  // where B comes from), so every path gives the same bits.
  const int64_t kc_max = g.m <= isa.mc ? isa.few_rows_kc : isa.kc;
  g.k_blocks = std::max<int64_t>(1, ceil_div(g.k, kc_max));
  g.kc = ceil_div(g.k, g.k_blocks); // equal blocks: no short tail
  // A few rows of A: stream B as stored (or as pre-packed) instead of
  // packing it. With B transposed that takes dot products, which need A's
  // rows contiguous.
  if (g.m <= kSmallM && g.source == BSource::PrePacked) {
    g.b = g.panels;
    run_small(g, isa.small_panels, false, parallel);
    return TCC_KERNEL_OK;
  }
  if (g.m <= kSmallM && !custom_b) {
    if (!p->trans_b) {
      run_small(g, isa.small_rows, true, parallel);
      return TCC_KERNEL_OK;
    }
    if (!p->trans_a) {
      run_small(g, isa.small_dots, false, parallel);
      return TCC_KERNEL_OK;
    }
  }

  int threads = parallel ? parallel->num_threads : 1;
  plan_tasks(g, threads);
  // A task whose columns are a few panels uses each packed block of A only
  // that many times: there the microkernel reads row-major A in place
  // (packing would cost more than it saves), elsewhere A is packed (12 rows
  // read in place are 12 streams for the prefetcher instead of one).
  // Either way each element gets the same FMAs in the same order.
  g.direct_a = row_major_a && g.task_cols <= 4 * kPanelWidth;

  int64_t tasks = g.m_tasks * g.n_tasks;
  if (tasks == 1 || !parallel)
    for (int64_t t = 0; t < tasks; ++t)
      gemm_task(&g, t);
  else
    parallel->parallel_for(parallel->pool, tasks, gemm_task, &g);
  return TCC_KERNEL_OK;
}

} // namespace kernels
} // namespace runtime
} // namespace tcc

using namespace tcc::runtime::kernels;

extern "C" tcc_kernel_status tcc_sgemm(const tcc_sgemm_args *args,
                                       const tcc_parallel *parallel) {
  return sgemm_with(active_kernels(), args, parallel);
}

extern "C" size_t tcc_sgemm_packed_b_size(int64_t k, int64_t n) {
  int64_t floats = packed_b_floats(k, n);
  if (floats < 0)
    return 0;
  return sizeof(PackedBHeader) + size_t(floats) * sizeof(float);
}

extern "C" tcc_kernel_status tcc_sgemm_pack_b(int64_t k, int64_t n,
                                              const float *b, int64_t ldb,
                                              int32_t trans_b, void *packed) {
  if (k < 0 || n < 0 || packed_b_floats(k, n) < 0)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "pack_b: invalid size k=%lld n=%lld", (long long)k,
                (long long)n);
  if (!packed)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "pack_b: packed is NULL");
  if (reinterpret_cast<uintptr_t>(packed) % 64 != 0)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "pack_b: packed must be 64-byte aligned");
  int64_t rows = trans_b ? n : k, cols = trans_b ? k : n;
  if (k > 0 && n > 0) {
    if (!b)
      return fail(TCC_KERNEL_INVALID_ARGUMENT, "pack_b: b is NULL");
    if (ldb < cols || !fits(rows, ldb, cols))
      return fail(TCC_KERNEL_INVALID_ARGUMENT,
                  "pack_b: ldb (%lld) must be >= %lld (%s)", (long long)ldb,
                  (long long)cols, trans_b ? "k, as trans_b" : "n");
  }
  write_packed_b_header(k, n, packed);
  float *panels = reinterpret_cast<float *>(static_cast<char *>(packed) +
                                            sizeof(PackedBHeader));
  const IsaKernels &isa = active_kernels();
  int64_t k_stride = trans_b ? 1 : ldb, col_stride = trans_b ? ldb : 1;
  for (int64_t j = 0; j < n; j += kPanelWidth)
    isa.pack_b_panel(b + j * col_stride, k_stride, col_stride, k,
                     int(std::min<int64_t>(kPanelWidth, n - j)),
                     panels + (j / kPanelWidth) * k * kPanelWidth);
  return TCC_KERNEL_OK;
}
