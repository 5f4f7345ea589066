//===- LibraryCalls.cpp - CPU library calls: tcc_sgemm, tcc_conv2d --------===//

#include "LibraryCalls.h"
#include "QuantizedCalls.h"

#include "../../ArtifactTypes.h"

#include "tcc/IR/TccOps.h"
#include "tcc/runtime/ArtifactActivation.h"
#include "tcc/runtime/kernels.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tcc;
namespace artifact = ::tcc::artifact;

bool cpu::isLibraryCallAnchor(Operation *op) {
  // The int8 kernels' (QuantizedCalls.h): i32 sums.
  if (isQuantizedAnchor(op))
    return true;
  if (!isa<MatmulOp, LinearOp, Conv2dOp>(op) || op->getNumResults() != 1)
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return type && type.getElementType().isF32();
}

static artifact::Activation toArtifact(EpilogueActivation activation) {
  return ::tcc::runtime::toArtifactActivation(int(activation));
}

static std::unique_ptr<artifact::EpilogueT>
toArtifact(const artifact::EpilogueT &epilogue) {
  return std::make_unique<artifact::EpilogueT>(epilogue);
}

/// `size` bytes that `pack` writes at a 64-byte aligned address, as the
/// microkernels' packing functions require.
static std::optional<std::vector<uint8_t>>
packAligned(size_t size, function_ref<bool(void *)> pack) {
  std::vector<uint8_t> scratch(size + 64);
  void *aligned = reinterpret_cast<void *>(
      (reinterpret_cast<uintptr_t>(scratch.data()) + 63) & ~uintptr_t(63));
  if (!pack(aligned))
    return std::nullopt;
  const auto *bytes = static_cast<const uint8_t *>(aligned);
  return std::vector<uint8_t>(bytes, bytes + size);
}

/// The packed form (tcc_sgemm_pack_b) of a constant fp32 B: a linear
/// layer's weight [n, k] (transposed) or a matmul's right operand [k, n].
/// The two are packed differently from the same bytes, hence their keys
/// (convolutions key theirs by packed size, which exceeds both).
static std::optional<uint32_t> packedWeight(PlanBuilder &plan, Value weight,
                                            int64_t n, int64_t k,
                                            bool transposed) {
  return plan.derivedConstant(
      weight, /*key=*/transposed ? 0 : 1,
      [&](ArrayRef<uint8_t> raw) -> std::optional<std::vector<uint8_t>> {
        return packAligned(tcc_sgemm_packed_b_size(k, n), [&](void *dst) {
          return tcc_sgemm_pack_b(
                     k, n, reinterpret_cast<const float *>(raw.data()),
                     transposed ? k : n, transposed, dst) == TCC_KERNEL_OK;
        });
      });
}

/// The packed form of a constant convolution weight for `args`' shape,
/// when that shape takes packed weights (tcc_conv2d_packed_weight_size):
/// the form depends on the shape (Winograd's 16 matrices or im2col's one),
/// so each packed size is its own constant.
static std::optional<uint32_t> packedConvWeight(PlanBuilder &plan,
                                                Value weight,
                                                tcc_conv2d_args args) {
  size_t size = tcc_conv2d_packed_weight_size(&args);
  if (size == 0)
    return std::nullopt;
  return plan.derivedConstant(
      weight, /*key=*/size,
      [&](ArrayRef<uint8_t> raw) -> std::optional<std::vector<uint8_t>> {
        args.weight = reinterpret_cast<const float *>(raw.data());
        return packAligned(size, [&](void *dst) {
          return tcc_conv2d_pack_weight(&args, dst) == TCC_KERNEL_OK;
        });
      });
}

/// fp32 matmul as tcc_sgemm calls when each operand's batch is either the
/// result's or a single matrix shared by all (stride 0). Operands that are
/// transposes or reshapes of computed values (attention's heads) are read
/// in place through lda/ldb, trans_a/trans_b and batch strides, and a
/// result only transposed afterwards is written in place through ldc and
/// its batch stride: those transposes are never computed. A constant
/// right operand (a projection's weight, as exporters write x @ W) is
/// packed at compile time, as a linear layer's is, when one GEMM of more
/// than TCC_SGEMM_STREAMED_ROWS rows reads it.
static bool lowerMatmul(PlanBuilder &plan, MatmulOp op,
                        function_ref<Value(Value)> outside,
                        artifact::EpilogueT epilogue, Value result,
                        bool packWeights) {
  auto lhs = cast<RankedTensorType>(op.getLhs().getType());
  auto type = cast<RankedTensorType>(op.getType());
  if (lhs.getNumElements() == 0 || type.getNumElements() == 0 ||
      cast<RankedTensorType>(op.getRhs().getType()).getNumElements() == 0)
    return false;
  ArrayRef<int64_t> batch = type.getShape().drop_back(2);
  Value rhs = outside(op.getRhs());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  // Bound once it is known whether the packed form serves instead (a
  // constant is stored plain only when read plain).
  const bool packableRhs = packWeights && rhs.getDefiningOp<ConstantOp>() &&
                           rhsType.getRank() == 2;
  MatrixBinding a, b;
  if (!plan.bindMatrices(outside(op.getLhs()), batch, a))
    return false;
  if (packableRhs) {
    b.ld = rhsType.getDimSize(1);
  } else if (!plan.bindMatrices(rhs, batch, b)) {
    return false;
  }
  artifact::SgemmT gemm;
  gemm.a = a.buffer;
  gemm.lda = a.ld;
  gemm.trans_a = a.trans;
  gemm.a_batch_stride = a.batchStride;
  gemm.b = b.buffer;
  gemm.ldb = b.ld;
  gemm.trans_b = b.trans;
  gemm.b_batch_stride = b.batchStride;
  gemm.m = type.getDimSize(type.getRank() - 2);
  gemm.n = type.getDimSize(type.getRank() - 1);
  gemm.k = lhs.getDimSize(lhs.getRank() - 1);
  gemm.batch = ShapedType::getNumElements(batch);
  // f32 on the CPU; bf16 or f16 where the target computes those (cuda).
  gemm.dtype = *toDType(lhs.getElementType());
  gemm.c_dtype = *toDType(type.getElementType());
  // The residual is read with C's strides: C is then the result itself.
  MatrixBinding c;
  if (epilogue.residual == -1 && plan.bindResultThroughTranspose(result, c)) {
    gemm.c = c.buffer;
    gemm.ldc = c.ld;
    gemm.c_batch_stride = c.batchStride;
  } else {
    gemm.c = plan.resultBuffer(result);
    gemm.ldc = gemm.n;
    gemm.c_batch_stride = gemm.m * gemm.n;
  }
  gemm.epilogue = toArtifact(epilogue);
  // One B shared by every batch, with A's and C's rows evenly spaced across
  // batches (x[S, 1, K] @ W[K, N], as exporters write a projection): one
  // GEMM of batch * m rows rather than batch GEMMs of m rows each.
  if (gemm.batch > 1 && gemm.b_batch_stride == 0 && !gemm.trans_a &&
      gemm.a_batch_stride == gemm.m * gemm.lda &&
      gemm.c_batch_stride == gemm.m * gemm.ldc &&
      !(gemm.epilogue && gemm.epilogue->bias_per_row)) {
    gemm.m *= gemm.batch;
    gemm.batch = 1;
    gemm.a_batch_stride = gemm.m * gemm.lda;
    gemm.c_batch_stride = gemm.m * gemm.ldc;
  }
  if (packableRhs) {
    std::optional<uint32_t> packed;
    if (gemm.batch == 1 && gemm.m > TCC_SGEMM_STREAMED_ROWS)
      packed = packedWeight(plan, rhs, gemm.n, gemm.k, /*transposed=*/false);
    if (packed) {
      gemm.b = *packed;
      gemm.b_packed = true;
      gemm.b_batch_stride = 0;
    } else {
      if (!plan.bindMatrices(rhs, batch, b))
        return false;
      gemm.b = b.buffer;
      gemm.ldb = b.ld;
      gemm.trans_b = b.trans;
      gemm.b_batch_stride = b.batchStride;
    }
  }
  artifact::OpUnion step;
  step.Set(std::move(gemm));
  plan.addLibraryStep(std::move(step));
  return true;
}

/// y[m, n] = x[m, k] * W[n, k]^T (+ bias), with W packed at compile time
/// when it is a constant and m is above TCC_SGEMM_STREAMED_ROWS.
static void lowerLinear(PlanBuilder &plan, LinearOp op,
                        function_ref<Value(Value)> outside,
                        artifact::EpilogueT epilogue, Value result,
                        bool packWeights) {
  auto input = cast<RankedTensorType>(op.getInput().getType());
  auto weight = cast<RankedTensorType>(op.getWeight().getType());
  artifact::SgemmT gemm;
  gemm.dtype = *toDType(input.getElementType());
  gemm.c_dtype = *toDType(cast<ShapedType>(op.getType()).getElementType());
  gemm.k = input.getDimSize(input.getRank() - 1);
  gemm.n = weight.getDimSize(0);
  gemm.m = input.getNumElements() / gemm.k;
  gemm.a = plan.bufferOf(outside(op.getInput()));
  plan.reads(gemm.a);
  gemm.lda = gemm.k;
  Value w = outside(op.getWeight());
  // Up to TCC_SGEMM_STREAMED_ROWS rows (batch-1 layers) are bound by
  // reading W: tcc_sgemm then streams W as stored, which reads it faster
  // than pre-packed panels. So W is packed only for more rows.
  std::optional<uint32_t> packed;
  if (packWeights && gemm.m > TCC_SGEMM_STREAMED_ROWS)
    packed = packedWeight(plan, w, gemm.n, gemm.k, /*transposed=*/true);
  if (packed) {
    gemm.b = *packed;
    gemm.b_packed = true;
  } else {
    gemm.b = plan.bufferOf(w);
    plan.reads(gemm.b);
    gemm.trans_b = true;
  }
  gemm.ldb = gemm.k;
  gemm.ldc = gemm.n;
  if (op.getBias()) {
    epilogue.bias = static_cast<int32_t>(plan.bufferOf(outside(op.getBias())));
    plan.reads(epilogue.bias);
  }
  gemm.epilogue = toArtifact(epilogue);
  gemm.c = plan.resultBuffer(result);
  artifact::OpUnion step;
  step.Set(std::move(gemm));
  plan.addLibraryStep(std::move(step));
}

static void lowerConv2d(PlanBuilder &plan, Conv2dOp op,
                        function_ref<Value(Value)> outside,
                        artifact::EpilogueT epilogue, Value result) {
  auto input = cast<RankedTensorType>(op.getInput().getType());
  auto weight = cast<RankedTensorType>(op.getWeight().getType());
  auto output = cast<RankedTensorType>(op.getType());
  bool nhwc = op.getLayout() == Layout::NHWC;
  artifact::Conv2dT conv;
  conv.nhwc = nhwc;
  conv.batch = input.getDimSize(0);
  conv.in_channels = input.getDimSize(nhwc ? 3 : 1);
  conv.in_height = input.getDimSize(nhwc ? 1 : 2);
  conv.in_width = input.getDimSize(nhwc ? 2 : 3);
  conv.out_channels = output.getDimSize(nhwc ? 3 : 1);
  conv.kernel_height = weight.getDimSize(nhwc ? 1 : 2);
  conv.kernel_width = weight.getDimSize(nhwc ? 2 : 3);
  ArrayRef<int64_t> stride = op.getStride(), padding = op.getPadding(),
                    dilation = op.getDilation();
  conv.stride_h = stride[0];
  conv.stride_w = stride[1];
  conv.pad_h = padding[0];
  conv.pad_w = padding[1];
  conv.dilation_h = dilation[0];
  conv.dilation_w = dilation[1];
  conv.groups = op.getGroups();
  conv.input = plan.bufferOf(outside(op.getInput()));
  // Constant weights are packed here, once, instead of on every call.
  tcc_conv2d_args args{};
  args.batch = conv.batch;
  args.in_channels = conv.in_channels;
  args.in_height = conv.in_height;
  args.in_width = conv.in_width;
  args.out_channels = conv.out_channels;
  args.kernel_height = conv.kernel_height;
  args.kernel_width = conv.kernel_width;
  args.stride_h = conv.stride_h;
  args.stride_w = conv.stride_w;
  args.pad_h = conv.pad_h;
  args.pad_w = conv.pad_w;
  args.dilation_h = conv.dilation_h;
  args.dilation_w = conv.dilation_w;
  args.groups = conv.groups;
  args.layout = nhwc ? TCC_LAYOUT_NHWC : TCC_LAYOUT_NCHW;
  Value weightValue = outside(op.getWeight());
  if (std::optional<uint32_t> packed =
          packedConvWeight(plan, weightValue, args)) {
    conv.weight = *packed;
    conv.weight_packed = true;
  } else {
    conv.weight = plan.bufferOf(weightValue);
  }
  plan.reads(conv.input);
  plan.reads(conv.weight);
  if (op.getBias()) {
    epilogue.bias = static_cast<int32_t>(plan.bufferOf(outside(op.getBias())));
    plan.reads(epilogue.bias);
  }
  conv.epilogue = toArtifact(epilogue);
  conv.output = plan.resultBuffer(result);
  artifact::OpUnion step;
  step.Set(std::move(conv));
  plan.addLibraryStep(std::move(step));
}

artifact::EpilogueT cpu::lowerEpilogue(PlanBuilder &plan, const Epilogue &e,
                                       function_ref<Value(Value)> outside) {
  artifact::EpilogueT epilogue;
  epilogue.activation = toArtifact(e.activation);
  epilogue.clamp_min = static_cast<float>(e.clampMin);
  epilogue.clamp_max = static_cast<float>(e.clampMax);
  if (e.bias) {
    epilogue.bias = static_cast<int32_t>(plan.bufferOf(outside(e.bias)));
    plan.reads(epilogue.bias);
  }
  if (e.residual) {
    epilogue.residual =
        static_cast<int32_t>(plan.bufferOf(outside(e.residual)));
    plan.reads(epilogue.residual);
  }
  return epilogue;
}

bool cpu::lowerLibraryCall(PlanBuilder &plan, const Epilogue &e,
                           function_ref<Value(Value)> outside, Value result,
                           const TargetCapabilities &target,
                           LibraryCallOptions options) {
  if (isQuantizedAnchor(e.anchor))
    return options.quantized &&
           lowerQuantizedCall(plan, e, outside, result, target);
  if (isa<Conv2dOp>(e.anchor) && !options.convolutions)
    return false;
  artifact::EpilogueT epilogue = lowerEpilogue(plan, e, outside);
  if (auto matmul = dyn_cast<MatmulOp>(e.anchor))
    return lowerMatmul(plan, matmul, outside, epilogue, result,
                       options.packWeights);
  if (auto linear = dyn_cast<LinearOp>(e.anchor)) {
    lowerLinear(plan, linear, outside, epilogue, result,
                options.packWeights);
    return true;
  }
  if (auto conv = dyn_cast<Conv2dOp>(e.anchor)) {
    lowerConv2d(plan, conv, outside, epilogue, result);
    return true;
  }
  return false;
}
