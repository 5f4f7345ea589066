/*===- kernels_int8.h - C ABI of tcc's int8 (quantized) CPU kernels -------===*
 *
 * Quantized GEMM and depthwise convolution with int32 accumulation, in the
 * style of ONNX Runtime's MLAS QGEMM: u8 (or s8) activations with a
 * per-tensor zero point, symmetric s8 weights pre-packed once (at compile
 * time for constant weights), int32 bias, and an epilogue that returns the
 * int32 sums, dequantizes them to float, or requantizes them to u8/s8 (with
 * ReLU and a residual add of a quantized tensor). docs/int8-kernels.md
 * gives the exact semantics, which every ISA variant and the compiler's
 * reference interpreter share bit for bit.
 *
 * Like kernels.h (whose status codes, tcc_parallel and last-error message
 * these functions use): no allocation besides the per-thread packing
 * scratch, thread-safe, results bitwise identical for any thread count and
 * on every ISA variant.
 *===----------------------------------------------------------------------===*/

#ifndef TCC_RUNTIME_KERNELS_INT8_H
#define TCC_RUNTIME_KERNELS_INT8_H

#include "tcc/runtime/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The layout of tcc_qgemm_pack_b's output; a change bumps it. */
#define TCC_PACKED_QB_VERSION 1

/* The longest reduction the kernels accept: with |a - a_zero_point| <= 255
 * and |b| <= 128, every sum of up to this many products fits in int32. */
#define TCC_INT8_MAX_K 65793

typedef enum tcc_qoutput {
  TCC_QOUTPUT_INT32 = 0, /* c is int32_t: the sums plus bias */
  TCC_QOUTPUT_U8 = 1,    /* c is uint8_t: requantized */
  TCC_QOUTPUT_S8 = 2,    /* c is int8_t: requantized */
  TCC_QOUTPUT_F32 = 3,   /* c is float: dequantized (float(acc) * scale) */
} tcc_qoutput;

/* What happens to acc[m][n] = sum_k (A[m][k] - a_zero_point) * B[k][n] +
 * bias[n] (int32) before it is stored; docs/int8-kernels.md has the exact
 * arithmetic:
 * - INT32: c = acc.
 * - F32:   c = float(acc) * scale[n], then max(c, 0) with relu.
 * - U8/S8: v = float(acc) * scale[n] (plus float(residual - residual_zero_
 *          point) * residual_scale, one fused multiply-add, with a
 *          residual), c = saturate(round_half_even(v) + output_zero_point),
 *          saturating at the type's range and, with relu, below at
 *          output_zero_point.
 *          With residual_qdq, the residual add is ONNX's QDQ form instead,
 *          each step rounded as the reference interpreter rounds it:
 *            p = saturate(round_half_even(float(acc) * scale[n]) +
 *                         product_zero_point)
 *            v = float(p - product_zero_point) * product_scale +
 *                float(residual - residual_zero_point) * residual_scale
 *            c = saturate(round_half_even(v / output_scale) +
 *                         output_zero_point)
 *          (relu, if set, clamps c below at output_zero_point).
 * scale[n] is the requantization multiplier input_scale * weight_scale[n] /
 * output_scale (tcc_int8_requant_scale computes it as ONNX Runtime does),
 * or the dequantization multiplier input_scale * weight_scale[n] for F32;
 * scales must be finite and positive. */
typedef struct tcc_qepilogue {
  int32_t output; /* tcc_qoutput */
  const int32_t *bias; /* bias[n], or NULL */
  const float *scale;  /* scale[n] per column, or scale[0] for all */
  int32_t scale_per_column;
  int32_t output_zero_point; /* within the output type's range */
  int32_t relu;
  /* U8/S8 only, or NULL: a tensor of the output's type, laid out like C
   * (ld_residual elements apart); it may be C itself (same pointer and
   * stride) but must not overlap it otherwise. */
  const void *residual;
  int64_t ld_residual;
  int32_t residual_zero_point;
  float residual_scale;
  /* A residual add in QDQ form (above); the product's zero point is in
   * the output type's range, both scales finite and positive. */
  int32_t residual_qdq;
  int32_t product_zero_point;
  float product_scale;
  float output_scale;
} tcc_qepilogue;

typedef struct tcc_qgemm_args {
  int64_t m, n, k;
  const void *a; /* m x k row-major, uint8_t (or int8_t with a_signed) */
  int64_t lda;
  int32_t a_signed;     /* A holds int8_t */
  int32_t a_zero_point; /* in A's type's range */
  const void *packed_b; /* tcc_qgemm_pack_b's k x n, 64-byte aligned */
  void *c;              /* m x n of the epilogue's output type */
  int64_t ldc;          /* in elements */
  const tcc_qepilogue *epilogue; /* NULL: INT32 output, no bias */
} tcc_qgemm_args;

/* C = epilogue(A * B). Every ISA variant gives the same bits. */
tcc_kernel_status tcc_qgemm(const tcc_qgemm_args *args,
                            const tcc_parallel *parallel);

/* B (k x n int8_t, row-major, or n x k with trans_b, i.e. the OIHW / [out,
 * in] weight layout) packed once for every ISA. The buffer (64-byte
 * aligned) holds a 64-byte header naming the format version, k and n, the
 * column sums of B (which the kernels use for the zero-point
 * compensation), then the panels: docs/int8-kernels.md. packed_b_size is 0
 * for negative or overflowing sizes and k > TCC_INT8_MAX_K. */
size_t tcc_qgemm_packed_b_size(int64_t k, int64_t n);
tcc_kernel_status tcc_qgemm_pack_b(int64_t k, int64_t n, const int8_t *b,
                                   int64_t ldb, int32_t trans_b, void *packed);

/* Whether `packed` (64-byte aligned; only its 64-byte header is read) is
 * tcc_qgemm_pack_b's output for a k x n B in this runtime's format
 * (TCC_PACKED_QB_VERSION): TCC_KERNEL_OK, else TCC_KERNEL_BAD_PACKED_DATA
 * with a message naming the version or shape it holds. For loaders that
 * check packed constants once, before any call. */
tcc_kernel_status tcc_qgemm_check_packed_b(const void *packed, int64_t k,
                                           int64_t n);

/* The requantization multiplier, in float32 as ONNX Runtime computes it:
 * (input_scale * weight_scale) / output_scale, each step rounded to float. */
float tcc_int8_requant_scale(float input_scale, float weight_scale,
                             float output_scale);

/*---------------------------------------------------------------------------
 * Conversions at the int8 region's edges, and one element of the epilogue
 *-------------------------------------------------------------------------*/

/* ONNX QuantizeLinear, per tensor: y[i] = saturate(round_half_even(x[i] /
 * scale) + zero_point) to U8 or S8 (`output`), the division in float32.
 * NaN gives the zero point, +-inf saturates. (PyTorch's FBGEMM multiplies
 * by 1 / scale instead, which can differ by one step.) */
tcc_kernel_status tcc_int8_quantize(const float *x, int64_t n, float scale,
                                    int32_t zero_point, int32_t output,
                                    void *y);

/* ONNX DequantizeLinear, per tensor: y[i] = float(x[i] - zero_point) *
 * scale, x of type `input` (U8 or S8). */
tcc_kernel_status tcc_int8_dequantize(const void *x, int64_t n, int32_t input,
                                      float scale, int32_t zero_point,
                                      float *y);

/* The value the kernels store for output column `column` whose int32 sum
 * (bias included) is `acc`, given `residual` (the residual tensor's element,
 * used when e->residual is not NULL): U8/S8 outputs as an int, INT32 acc
 * itself; F32 outputs are not ints (use float(acc) * scale). The same code
 * as the kernels' epilogue, for the reference interpreter and constant
 * folding. */
int32_t tcc_int8_epilogue_value(const tcc_qepilogue *e, int64_t column,
                                int32_t acc, int32_t residual);

/*---------------------------------------------------------------------------
 * 2-D convolution, NHWC, one group: a GEMM over the input's patches
 *-------------------------------------------------------------------------*/

/* output[b][oy][ox][o] = epilogue(sum over ky, kx, c of
 *   (input[b][iy][ix][c] - input_zero_point) * weight[o][ky][kx][c])
 * with iy = oy * stride_h - pad_h + ky * dilation_h (likewise x); padding
 * reads as the zero point. This is tcc_qgemm with m = batch * out_height *
 * out_width, k = kernel_height * kernel_width * in_channels and n =
 * out_channels, A's rows gathered from the input as they are packed (1x1
 * kernels of stride 1 without padding read the input in place), so the
 * weights are packed by tcc_qgemm_pack_b(k, n, weight, k, 1, packed) from
 * the OHWI weight. The epilogue's residual is laid out like the output
 * (ld_residual is ignored). Output sizes follow PyTorch. */
typedef struct tcc_qconv2d_args {
  int64_t batch, in_channels, in_height, in_width;
  int64_t out_channels, kernel_height, kernel_width;
  int64_t stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w;
  const void *input; /* NHWC, uint8_t (or int8_t with input_signed) */
  int32_t input_signed;
  int32_t input_zero_point;
  const void *packed_weight; /* tcc_qgemm_pack_b's, 64-byte aligned */
  void *output;              /* NHWC, the epilogue's output type */
  const tcc_qepilogue *epilogue;
} tcc_qconv2d_args;

tcc_kernel_status tcc_qconv2d(const tcc_qconv2d_args *args,
                              const tcc_parallel *parallel);

/*---------------------------------------------------------------------------
 * Depthwise 2-D convolution, NHWC (channel multiplier 1)
 *-------------------------------------------------------------------------*/

/* output[b][oy][ox][c] = epilogue(sum over ky, kx of
 *   (input[b][iy][ix][c] - input_zero_point) * weight[ky][kx][c])
 * with iy = oy * stride_h - pad_h + ky * dilation_h (likewise x); padding
 * contributes nothing (it reads as the zero point). Output sizes follow
 * PyTorch: (in + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1. The
 * epilogue is tcc_qgemm's with n = channels; a residual is laid out like
 * the output (ld_residual is ignored). */
typedef struct tcc_qdepthwise_args {
  int64_t batch, channels, in_height, in_width;
  int64_t kernel_height, kernel_width;
  int64_t stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w;
  const void *input; /* NHWC, uint8_t (or int8_t with input_signed) */
  int32_t input_signed;
  int32_t input_zero_point;
  const int8_t *weight; /* [kernel_height][kernel_width][channels] */
  void *output;         /* NHWC, the epilogue's output type */
  const tcc_qepilogue *epilogue;
} tcc_qdepthwise_args;

tcc_kernel_status tcc_qdepthwise_conv2d(const tcc_qdepthwise_args *args,
                                        const tcc_parallel *parallel);

/*---------------------------------------------------------------------------
 * Introspection, for tests and benchmarks
 *-------------------------------------------------------------------------*/

/* The int8 variant tcc_qgemm runs: the best whose CPU features the host has
 * and whose family is at most tcc_kernels_isa()'s (TCC_ISA lowers it):
 * "avx512vnni", "avxvnni", "avx2", "neon-i8mm", "neon-dotprod", "neon" or
 * "portable". */
const char *tcc_int8_isa(void);

/* The i-th variant built in (0 = best, NULL past the last); *runs_here,
 * if not NULL, says whether this CPU has the variant's features. */
const char *tcc_int8_variant(int32_t i, int32_t *runs_here);

/* tcc_qgemm on the named variant (INVALID_ARGUMENT when it is not built in
 * or this CPU cannot run it). */
tcc_kernel_status tcc_qgemm_on(const char *variant, const tcc_qgemm_args *args,
                               const tcc_parallel *parallel);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TCC_RUNTIME_KERNELS_INT8_H */
