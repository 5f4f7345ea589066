//===- ConvAsGemm.cpp - Convolutions as im2col and a cuBLASLt GEMM --------===//

#include "ConvAsGemm.h"
#include "GemmTypes.h"

#include "../../ArtifactTypes.h"
#include "../../LoweringUtils.h"
#include "../Cpu/LibraryCalls.h"

#include "tcc/IR/TccOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::lowering;
namespace artifact = ::tcc::artifact;

bool cuda::isGemmConvolution(Operation *op) {
  auto conv = dyn_cast<Conv2dOp>(op);
  if (!conv || conv.getLayout() != Layout::NHWC || conv.getGroups() != 1)
    return false;
  return cuda::hasGemmElementTypes(op) &&
         cast<RankedTensorType>(conv.getType()).getNumElements() > 0 &&
         cast<RankedTensorType>(conv.getInput().getType()).getNumElements() > 0;
}

namespace {

/// The sizes of an NHWC convolution (weight OHWI).
struct ConvShape {
  int64_t batch, height, width, channels;
  int64_t outHeight, outWidth, outChannels;
  int64_t kernel[2], stride[2], padding[2], dilation[2];

  explicit ConvShape(Conv2dOp op) {
    ArrayRef<int64_t> in =
        cast<RankedTensorType>(op.getInput().getType()).getShape();
    ArrayRef<int64_t> w =
        cast<RankedTensorType>(op.getWeight().getType()).getShape();
    ArrayRef<int64_t> out = cast<RankedTensorType>(op.getType()).getShape();
    batch = in[0];
    height = in[1];
    width = in[2];
    channels = in[3];
    outHeight = out[1];
    outWidth = out[2];
    outChannels = out[3];
    kernel[0] = w[1];
    kernel[1] = w[2];
    for (int i = 0; i < 2; ++i) {
      stride[i] = op.getStride()[i];
      padding[i] = op.getPadding()[i];
      dilation[i] = op.getDilation()[i];
    }
  }

  /// Whether the input is im2col's matrix already.
  bool readsInputAsIs() const {
    return kernel[0] == 1 && kernel[1] == 1 && stride[0] == 1 &&
           stride[1] == 1 && padding[0] == 0 && padding[1] == 0;
  }
  int64_t pixels() const { return batch * outHeight * outWidth; }
  int64_t patch() const { return kernel[0] * kernel[1] * channels; }
};

} // namespace

/// One parallel generic, channels innermost, so that consecutive threads
/// read and write consecutive elements (4 at a time when C is a multiple
/// of 4: VectorizeInnerDim). Read as a matrix it is [N*OH*OW, KH*KW*C].
Value cuda::buildIm2col(OpBuilder &b, Location loc, Value input,
                        Conv2dOp conv) {
  ConvShape s(conv);
  MLIRContext *ctx = b.getContext();
  Type element = cast<RankedTensorType>(input.getType()).getElementType();
  SmallVector<int64_t> shape = {s.batch,     s.outHeight, s.outWidth,
                                s.kernel[0], s.kernel[1], s.channels};
  Value init = emptyTensor(b, loc, shape, element);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(6, ctx);
  return buildGeneric(
      b, loc, ValueRange{}, init, {identity}, iteratorTypes(6),
      [&](OpBuilder &nb, Location l, ValueRange) -> SmallVector<Value> {
        auto index = [&](int64_t d) -> Value {
          return nb.create<linalg::IndexOp>(l, d);
        };
        auto constant = [&](int64_t v) { return indexConstant(nb, l, v); };
        SmallVector<Value> at = {index(0), Value(), Value(), index(5)};
        const int64_t size[2] = {s.height, s.width};
        Value inside;
        for (int i = 0; i < 2; ++i) {
          // o * stride + k * dilation - padding
          Value position = nb.create<arith::AddIOp>(
              l,
              nb.create<arith::MulIOp>(l, index(1 + i), constant(s.stride[i])),
              nb.create<arith::MulIOp>(l, index(3 + i),
                                       constant(s.dilation[i])));
          if (s.padding[i] == 0) {
            at[1 + i] = position; // within the input by OH's definition
            continue;
          }
          position =
              nb.create<arith::SubIOp>(l, position, constant(s.padding[i]));
          // Unsigned: a position left of the input wraps above its size.
          Value ok = nb.create<arith::CmpIOp>(l, arith::CmpIPredicate::ult,
                                              position, constant(size[i]));
          inside = inside ? nb.create<arith::AndIOp>(l, inside, ok) : ok;
          at[1 + i] = clampedIndex(nb, l, position, size[i]);
        }
        Value value = nb.create<tensor::ExtractOp>(l, input, at);
        if (inside)
          value = nb.create<arith::SelectOp>(
              l, inside, value, floatConstant(nb, l, element, 0.0));
        return {value};
      })[0];
}

void cuda::lowerConvAsGemm(PlanBuilder &plan, const Epilogue &group,
                           function_ref<Value(Value)> outside, Value result) {
  auto op = cast<Conv2dOp>(group.anchor);
  MLIRContext *ctx = op.getContext();
  ctx->getOrLoadDialect<linalg::LinalgDialect>();
  ctx->getOrLoadDialect<tensor::TensorDialect>();
  ctx->getOrLoadDialect<arith::ArithDialect>();
  ConvShape s(op);
  artifact::EpilogueT epilogue = cpu::lowerEpilogue(plan, group, outside);
  Value input = outside(op.getInput());
  // The workspace, A and B in the convolution's type (f32, bf16 or f16),
  // and so C: cuBLASLt accumulates in fp32 either way.
  Type element = cast<RankedTensorType>(op.getType()).getElementType();
  artifact::SgemmT gemm;
  gemm.dtype = *toDType(element);
  gemm.c_dtype = gemm.dtype;
  gemm.m = s.pixels();
  gemm.n = s.outChannels;
  gemm.k = s.patch();
  if (s.readsInputAsIs()) {
    gemm.a = plan.bufferOf(input);
    plan.reads(gemm.a);
  } else {
    auto type = RankedTensorType::get({s.batch, s.outHeight, s.outWidth,
                                       s.kernel[0], s.kernel[1], s.channels},
                                      element);
    gemm.a = plan.addWorkspaceKernel(
        "im2col", op, {input}, type,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return buildIm2col(b, loc, args[0], op);
        });
  }
  gemm.lda = gemm.k;
  // The OHWI weight is [OC, KH*KW*C] row-major: B transposed.
  gemm.b = plan.bufferOf(outside(op.getWeight()));
  plan.reads(gemm.b);
  gemm.trans_b = true;
  gemm.ldb = gemm.k;
  if (op.getBias()) {
    epilogue.bias = static_cast<int32_t>(plan.bufferOf(outside(op.getBias())));
    plan.reads(epilogue.bias);
  }
  gemm.epilogue = std::make_unique<artifact::EpilogueT>(epilogue);
  gemm.c = plan.resultBuffer(result);
  gemm.ldc = gemm.n;
  artifact::OpUnion step;
  step.Set(std::move(gemm));
  plan.addLibraryStep(std::move(step));
}
