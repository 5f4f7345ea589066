/*===- kernels.h - C ABI of tcc's CPU microkernels ------------------------===*
 *
 * The tuned kernels that both the eager frontend and compiled artifacts call.
 * Compiled code reaches them through an import table the runtime fills at
 * load time, so this ABI is versioned: a change to any struct or signature
 * bumps TCC_KERNELS_ABI_VERSION, a change to the packed-weight layout bumps
 * TCC_PACKED_B_VERSION.
 *
 * Kernels never allocate per call. Scratch memory comes from the caller
 * (workspace arguments) or from a per-thread buffer for packed GEMM blocks
 * (about 1.7 MiB with AVX-512) that each thread allocates on its first GEMM
 * and frees at exit; if that allocation fails the GEMM runs with small
 * blocks in a bounded stack buffer (~66 KiB) instead. NHWC im2col
 * convolutions of many output pixels (RGB stems) likewise keep one block of
 * columns per thread (up to about 256 KiB; 108 rows of K floats past K =
 * 675), or use their workspace if it cannot be had. Kernels are
 * thread-safe and keep no other state. Parallelism comes from the caller's
 * thread pool through `tcc_parallel`; a NULL `tcc_parallel *` runs on the
 * calling thread. Results are bitwise identical for any num_threads.
 *===----------------------------------------------------------------------===*/

#ifndef TCC_RUNTIME_KERNELS_H
#define TCC_RUNTIME_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCC_KERNELS_ABI_VERSION 2
#define TCC_PACKED_B_VERSION 1

/* GEMMs of at most this many rows (matrix-vector products, batch-1 layers)
 * skip packing and stream B as stored, at the memory's full bandwidth; a
 * compiler packs constant weights only for GEMMs of more rows. */
#define TCC_SGEMM_STREAMED_ROWS 4

/* Status codes returned by kernels. */
typedef enum tcc_kernel_status {
  TCC_KERNEL_OK = 0,
  TCC_KERNEL_INVALID_ARGUMENT = 1, /* a size, stride or pointer is invalid */
  TCC_KERNEL_BAD_PACKED_DATA = 2,  /* packed weights of another version/shape */
} tcc_kernel_status;

/*---------------------------------------------------------------------------
 * Parallelism
 *-------------------------------------------------------------------------*/

/* One unit of work; `index` runs over [0, count). */
typedef void (*tcc_task_fn)(void *arg, int64_t index);

/* The caller's thread pool: `parallel_for(pool, count, task, arg)` runs
 * task(arg, i) for every i in [0, count) and returns when all are done. */
typedef struct tcc_parallel {
  void (*parallel_for)(void *pool, int64_t count, tcc_task_fn task, void *arg);
  void *pool;
  int32_t num_threads; /* how many tasks may run at once, >= 1 */
} tcc_parallel;

/*---------------------------------------------------------------------------
 * Epilogues fused into GEMM and convolution
 *-------------------------------------------------------------------------*/

/* TCC_ACTIVATION_NONE, _RELU, _CLAMP, _GELU, _GELU_TANH, _SILU, _SIGMOID,
 * _TANH: the list and its values are in Activations.def. */
typedef enum tcc_activation {
#define TCC_ACTIVATION(Name, NAME, value) TCC_ACTIVATION_##NAME = value,
#include "tcc/runtime/Activations.def"
#undef TCC_ACTIVATION
} tcc_activation;

/* out[m][n] = activation(alpha * acc[m][n] + bias + beta * residual[m][n]),
 * where bias is bias[n] (per column) or bias[m] (per row, bias_per_row != 0).
 * Any of bias and residual may be NULL. A NULL epilogue means alpha = 1 and
 * nothing else. beta == 0 ignores the residual (NaNs in it included). The
 * residual may be the output itself (same pointer and row stride, for
 * C += A*B) but must not overlap it otherwise. */
typedef struct tcc_epilogue {
  float alpha;
  const float *bias;
  int32_t bias_per_row;
  const float *residual;
  int64_t ld_residual; /* row stride of residual, in elements */
  float beta;
  int32_t activation; /* tcc_activation */
  float clamp_min, clamp_max;
} tcc_epilogue;

/*---------------------------------------------------------------------------
 * fp32 GEMM: C = epilogue(op(A) * op(B)), row-major
 *-------------------------------------------------------------------------*/

typedef struct tcc_sgemm_args {
  int64_t m, n, k;
  const float *a; /* m x k, or k x m when trans_a */
  int64_t lda;
  int32_t trans_a;
  const float *b; /* k x n, or n x k when trans_b; unused with packed_b */
  int64_t ldb;
  int32_t trans_b;
  const void *packed_b; /* from tcc_sgemm_pack_b, or NULL */
  float *c;             /* m x n */
  int64_t ldc;
  const tcc_epilogue *epilogue; /* or NULL */
} tcc_sgemm_args;

/* a, b and packed_b must not overlap c. Any nonzero trans flag means
 * transposed. Leading dimensions are checked only for operands that are
 * read (k == 0 reads neither A nor B). */
tcc_kernel_status tcc_sgemm(const tcc_sgemm_args *args,
                            const tcc_parallel *parallel);

/* B pre-packed once (at compile time for constant weights). The packed
 * buffer starts with a 64-byte header naming its version, k and n, and must
 * be 64-byte aligned. Version 1 lays out ceil(n/32) panels of k x 32 floats
 * after the header (row-major inside a panel, zero past column n); the
 * layout is the same for every ISA. packed_b_size returns 0 for negative or
 * overflowing sizes. */
size_t tcc_sgemm_packed_b_size(int64_t k, int64_t n);
tcc_kernel_status tcc_sgemm_pack_b(int64_t k, int64_t n, const float *b,
                                   int64_t ldb, int32_t trans_b, void *packed);

/*---------------------------------------------------------------------------
 * fp32 2-D convolution (cross-correlation, as torch.nn.functional.conv2d)
 *-------------------------------------------------------------------------*/

typedef enum tcc_layout {
  TCC_LAYOUT_NCHW = 0, /* input/output NCHW, weight OIHW */
  TCC_LAYOUT_NHWC = 1, /* input/output NHWC, weight OHWI */
} tcc_layout;

typedef struct tcc_conv2d_args {
  int64_t batch, in_channels, in_height, in_width;
  int64_t out_channels, kernel_height, kernel_width;
  int64_t stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w, groups;
  int32_t layout; /* tcc_layout, for input, weight and output */
  const float *input;
  const float *weight;
  float *output;
  /* bias is per output channel (bias_per_row is ignored); residual, if
   * any, is laid out like the output (ld_residual is ignored). */
  const tcc_epilogue *epilogue;
  void *workspace; /* tcc_conv2d_workspace_size bytes, 64-byte aligned */
  /* Optional: the weights as tcc_conv2d_pack_weight wrote them (at compile
   * time for constant weights), 64-byte aligned; then `weight` is not read
   * and the workspace holds no copy of them. Only for shapes whose
   * tcc_conv2d_packed_weight_size is not 0. */
  const void *packed_weight;
} tcc_conv2d_args;

/* Output spatial sizes follow PyTorch:
 * (in + 2*pad - dilation*(kernel-1) - 1) / stride + 1. Every size must be
 * below 2^31. workspace_size returns 0 for invalid arguments and for shapes
 * that need no workspace (1x1 stride-1 unpadded, NCHW depthwise); then
 * workspace may be NULL. */
size_t tcc_conv2d_workspace_size(const tcc_conv2d_args *args,
                                 const tcc_parallel *parallel);

/* NHWC convolutions that run as GEMMs over the weights (all but depthwise)
 * can take their weights packed once: per group, tcc_sgemm_pack_b's form of
 * the group's OHWI weights as B^T (k = kernel_height * kernel_width *
 * in_channels / groups, n = out_channels / groups), one after another.
 * Exception: 3x3 kernels with stride 1, dilation 1, one group, at least 16
 * input and output channels and at least 32 output tiles (batch *
 * ceil(out_height / 2) * ceil(out_width / 2)) run as Winograd F(2x2, 3x3),
 * so pack with the arguments of the call the weights are for; their packed
 * weights are the 16 transformed matrices U[xi] = G g G^T (xi = 4 * row +
 * column of the 4x4 tile; k = in_channels, n = out_channels), each in
 * tcc_sgemm_pack_b's form, one after another.
 * packed_weight_size is 0 for other shapes (NCHW, depthwise) and invalid
 * arguments; pack_weight reads args->weight. */
size_t tcc_conv2d_packed_weight_size(const tcc_conv2d_args *args);
tcc_kernel_status tcc_conv2d_pack_weight(const tcc_conv2d_args *args,
                                         void *packed);
tcc_kernel_status tcc_conv2d(const tcc_conv2d_args *args,
                             const tcc_parallel *parallel);

/*---------------------------------------------------------------------------
 * Introspection
 *-------------------------------------------------------------------------*/

/* The ISA the kernels dispatch to on this CPU: "avx512", "avx2", "neon" or
 * "portable". TCC_ISA=avx2|neon|portable in the environment forces a
 * lower one of the same architecture (for testing). */
const char *tcc_kernels_isa(void);

/* A message naming what was wrong with the last call on this thread that
 * did not return TCC_KERNEL_OK (e.g. "sgemm: ldb (3) must be >= n (4)"). */
const char *tcc_kernels_last_error(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TCC_RUNTIME_KERNELS_H */
