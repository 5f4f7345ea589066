//===- ModelCompiler.cpp - A tcc module to a model artifact ---------------===//

#include "tcc/Codegen/ModelCompiler.h"
#include "tcc/Codegen/MemoryPlan.h"
#include "tcc/IR/TccOps.h"
#include "tcc/Passes/Epilogue.h"
#include "tcc/Passes/Passes.h"

#include "tcc/runtime/ArtifactActivation.h"
#include "tcc/runtime/ArtifactBuilder.h"
#include "tcc/runtime/kernels.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/Support/raw_ostream.h"

#include <variant>

using namespace mlir;
using namespace mlir::tcc;
namespace artifact = ::tcc::artifact;
using ::tcc::runtime::ArtifactBuilder;

//===----------------------------------------------------------------------===//
// Types and constant data
//===----------------------------------------------------------------------===//

static std::optional<artifact::DType> toDType(Type type) {
  if (type.isF32()) return artifact::DType::F32;
  if (type.isF64()) return artifact::DType::F64;
  if (type.isF16()) return artifact::DType::F16;
  if (type.isBF16()) return artifact::DType::BF16;
  if (type.isSignlessInteger(64)) return artifact::DType::I64;
  if (type.isSignlessInteger(32)) return artifact::DType::I32;
  if (type.isSignlessInteger(8)) return artifact::DType::I8;
  if (type.isUnsignedInteger(8)) return artifact::DType::U8;
  if (type.isSignlessInteger(1)) return artifact::DType::Bool;
  return std::nullopt;
}

/// Bytes per element in buffers; bool takes a byte.
static uint64_t elementBytes(Type type) {
  return std::max<uint64_t>(type.getIntOrFloatBitWidth() / 8, 1);
}

static uint64_t byteSize(ShapedType type) {
  return type.getNumElements() * elementBytes(type.getElementType());
}

/// The dense row-major bytes of a constant, bools one byte each.
static std::vector<uint8_t> constantBytes(ElementsAttr value) {
  auto type = cast<ShapedType>(value.getType());
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    ArrayRef<char> data = resource.getRawHandle().getBlob()->getData();
    return std::vector<uint8_t>(data.begin(), data.end());
  }
  auto dense = cast<DenseElementsAttr>(value);
  if (type.getElementType().isInteger(1)) {
    std::vector<uint8_t> bytes;
    for (bool b : dense.getValues<bool>())
      bytes.push_back(b ? 1 : 0);
    return bytes;
  }
  ArrayRef<char> raw = dense.getRawData();
  if (!dense.isSplat())
    return std::vector<uint8_t>(raw.begin(), raw.end());
  std::vector<uint8_t> bytes;
  bytes.reserve(byteSize(type));
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    bytes.insert(bytes.end(), raw.begin(), raw.end());
  return bytes;
}

static std::string describe(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName() << " ";
  op->getLoc().print(os);
  return text;
}

static std::string nameAttr(DictionaryAttr attrs, StringRef fallback) {
  if (attrs)
    if (auto name = attrs.getAs<StringAttr>("tcc.name"))
      return name.str();
  return fallback.str();
}

FailureOr<func::FuncOp> mlir::tcc::findEntryFunction(ModuleOp module) {
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    return main;
  func::FuncOp entry;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    if (entry)
      return module.emitError("the module has several public functions and "
                              "none is named 'main'");
    entry = func;
  }
  if (!entry)
    return module.emitError("the module has no function to compile");
  return entry;
}

//===----------------------------------------------------------------------===//
// Building the plan
//===----------------------------------------------------------------------===//

namespace {

/// value[i_0, ..., i_n] = root[offset + sum_d i_d * strides[d]] (elements).
struct StridedView {
  Value root;
  SmallVector<int64_t> shape, strides;
  int64_t offset = 0;
};

SmallVector<int64_t> contiguousStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

StridedView contiguousView(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  StridedView view{value, SmallVector<int64_t>(type.getShape()), {}};
  view.strides = contiguousStrides(view.shape);
  return view;
}

/// The strides of `view` reshaped to `shape`, when no copy is needed: each
/// run of old dimensions that merges or splits must be contiguous (as
/// torch's view()).
std::optional<SmallVector<int64_t>> reshapeStrides(const StridedView &view,
                                                   ArrayRef<int64_t> shape) {
  SmallVector<int64_t> oldShape, oldStrides; // size-1 dims carry no stride
  for (auto [size, stride] : llvm::zip(view.shape, view.strides))
    if (size != 1) {
      oldShape.push_back(size);
      oldStrides.push_back(stride);
    }
  SmallVector<int64_t> strides(shape.size(), 1);
  int64_t n = int64_t(shape.size()) - 1;
  // Walk the new dims from the innermost, consuming old dims in chunks.
  int64_t d = n;
  for (int64_t oi = int64_t(oldShape.size()) - 1; oi >= 0;) {
    // One contiguous chunk of old dims [lo, oi].
    int64_t lo = oi, chunk = oldShape[oi];
    while (lo > 0 && oldStrides[lo - 1] == oldStrides[lo] * oldShape[lo]) {
      --lo;
      chunk *= oldShape[lo];
    }
    // New dims covering exactly `chunk` elements, innermost stride first.
    int64_t stride = oldStrides[oi], covered = 1;
    while (covered < chunk) {
      if (d < 0)
        return std::nullopt;
      strides[d] = stride;
      stride *= shape[d];
      covered *= shape[d];
      --d;
    }
    if (covered != chunk)
      return std::nullopt; // a new dim straddles two chunks
    oi = lo - 1;
  }
  for (; d >= 0; --d) // leading size-1 dims
    if (shape[d] != 1)
      return std::nullopt;
  return strides;
}

/// A step whose kernel is compiled after the walk.
struct PendingKernel {
  std::string symbol;
  std::vector<uint32_t> bindings; // inputs then outputs; scratch added later
  std::vector<std::string> sourceOps;
};
using Step = std::variant<PendingKernel, artifact::OpUnion>;

class ModelLowering {
public:
  ModelLowering(func::FuncOp entry, const ModelCompileOptions &options)
      : entry(entry), options(options),
        kernels(ModuleOp::create(entry.getLoc())) {}

  FailureOr<std::vector<uint8_t>> run(ModelCompileStats *stats);

private:
  LogicalResult lowerOp(Operation *op);
  /// A microkernel call for an epilogue group; false when the shapes don't
  /// fit one (the caller compiles a kernel instead).
  bool lowerLibraryCall(const Epilogue &epilogue,
                        function_ref<Value(Value)> outside, Value result);
  bool lowerMatmul(MatmulOp op, function_ref<Value(Value)> outside,
                   artifact::EpilogueT epilogue, Value result);
  void lowerLinear(LinearOp op, function_ref<Value(Value)> outside,
                   artifact::EpilogueT epilogue, Value result);
  void lowerConv2d(Conv2dOp op, function_ref<Value(Value)> outside,
                   artifact::EpilogueT epilogue, Value result);
  void addKernel(Operation *op);
  void lowerReshape(ReshapeOp reshape);
  /// The buffer holding `value`, creating constants' buffers on first use
  /// and computing deferred transposes, slices and reshapes when first
  /// needed.
  uint32_t bufferOf(Value value);
  /// `value` as a strided view of a computed value, seeing through deferred
  /// transposes, slices and reshapes (appended to `through`); nullopt when
  /// a reshape has no strided form.
  std::optional<StridedView> viewOf(Value value,
                                    SmallVectorImpl<Operation *> &through);
  /// A sgemm operand (A or B) read in place from `view`: false when its
  /// strides don't fit.
  bool bindOperand(const StridedView &view, ArrayRef<int64_t> batch,
                   uint32_t &buffer, int64_t &ld, bool &trans,
                   int64_t &batchStride);
  /// A buffer starting `offset` elements into `value`'s buffer `root` (a
  /// slice read in place), or nullopt when the offset is outside it.
  std::optional<uint32_t> aliasAt(Value value, uint32_t root, int64_t offset);
  /// A new buffer over `root`'s bytes from `byteOffset` on, with `shape`: in
  /// the arena it shares the root's lifetime (the memory plan fixes both
  /// offsets); elsewhere its offset is final now.
  uint32_t viewBuffer(uint32_t root, std::vector<int64_t> shape,
                      uint64_t byteOffset);
  /// Points C at the output of the transpose that is the result's only use
  /// (not lowered yet), when that layout fits ldc and a batch stride.
  bool writeThroughTranspose(Value result, const artifact::EpilogueT &epilogue,
                             artifact::SgemmT &gemm);
  /// The packed form of a constant fp32 weight [n, k] (B transposed).
  std::optional<uint32_t> packedWeight(Value weight, int64_t n, int64_t k);
  /// The packed form of a constant convolution weight for `args`' shape,
  /// when that shape takes packed weights (tcc_conv2d_packed_weight_size).
  std::optional<uint32_t> packedConvWeight(Value weight,
                                           tcc_conv2d_args args);
  uint32_t arenaBuffer(Value value);
  uint32_t bufferFor(Value value);
  /// Extends the buffer's lifetime to `step` (by default the step about to
  /// be added).
  void use(uint32_t buffer, int64_t step);
  void use(uint32_t buffer) { use(buffer, currentStep()); }
  /// A buffer the library call being lowered reads: marked used at the
  /// call's step once it is added (computing a deferred operand may add
  /// steps before it).
  void reads(uint32_t buffer) { callReads.push_back(buffer); }
  void addStep(Step step) { steps.push_back(std::move(step)); }
  int64_t currentStep() const { return static_cast<int64_t>(steps.size()); }

  func::FuncOp entry;
  const ModelCompileOptions &options;
  OwningOpRef<ModuleOp> kernels;
  ArtifactBuilder builder;
  std::vector<Step> steps;
  DenseMap<Value, uint32_t> buffers;
  /// The source ops of library-call steps, by step index.
  std::map<size_t, std::vector<std::string>> stepSources;
  /// Constant [n, k] weights packed for tcc_sgemm (lookups only).
  DenseMap<Value, uint32_t> packedWeights;
  /// Constant convolution weights packed for tcc_conv2d, by weight and
  /// packed size (lookups only): the packed form depends on the shape too
  /// (Winograd's 16 matrices or im2col's one), and the two sizes differ.
  DenseMap<std::pair<Value, size_t>, uint32_t> packedConvWeights;
  /// Results returned once, computed straight into their output buffer.
  DenseMap<Value, uint32_t> directOutputs;
  /// Transposes, slices (and reshapes of their results) not computed yet: a
  /// matmul may read them (or write a transpose) in place through strides
  /// and offsets (bindOperand), which saves their copy; bufferOf computes
  /// those that anything else needs.
  DenseSet<Operation *> deferred;
  /// The deferred ops a library call absorbed, for its step's source ops.
  SmallVector<Operation *> absorbed;
  std::vector<uint32_t> callReads;

  /// Arena buffers: lifetimes by root, aliases (views) sharing a root.
  std::vector<BufferLifetime> lifetimes;
  std::map<uint32_t, size_t> lifetimeOfBuffer; // every arena buffer -> root
  std::vector<std::vector<uint32_t>> buffersOfLifetime;
  /// Slices read in place, by (root buffer, element offset).
  std::map<std::pair<uint32_t, int64_t>, uint32_t> aliases;
  /// Arena views that start past their root's start: the byte distance.
  std::map<uint32_t, uint64_t> viewByteOffsets;
};

} // namespace

void ModelLowering::use(uint32_t buffer, int64_t step) {
  auto it = lifetimeOfBuffer.find(buffer);
  if (it != lifetimeOfBuffer.end())
    lifetimes[it->second].lastStep =
        std::max(lifetimes[it->second].lastStep, step);
}

uint32_t ModelLowering::arenaBuffer(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  uint32_t buffer = builder.addBuffer(
      *toDType(type.getElementType()),
      std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
      artifact::Storage::Arena);
  lifetimeOfBuffer[buffer] = lifetimes.size();
  lifetimes.push_back({byteSize(type), currentStep(), currentStep()});
  buffersOfLifetime.push_back({buffer});
  return buffer;
}

/// The buffer a result is computed into.
uint32_t ModelLowering::bufferFor(Value value) {
  auto direct = directOutputs.find(value);
  uint32_t buffer =
      direct != directOutputs.end() ? direct->second : arenaBuffer(value);
  buffers[value] = buffer;
  return buffer;
}

uint32_t ModelLowering::bufferOf(Value value) {
  auto it = buffers.find(value);
  if (it != buffers.end())
    return it->second;
  if (Operation *producer = value.getDefiningOp();
      producer && deferred.erase(producer)) {
    if (auto reshape = dyn_cast<ReshapeOp>(producer))
      lowerReshape(reshape);
    else
      addKernel(producer);
    return buffers.at(value);
  }
  // Constants are written to the artifact when first needed in their plain
  // form: a weight only used packed is stored packed only.
  auto constant = value.getDefiningOp<ConstantOp>();
  assert(constant && "a value used before it has a buffer must be a constant");
  auto type = cast<RankedTensorType>(constant.getType());
  std::vector<uint8_t> bytes = constantBytes(constant.getValue());
  uint32_t buffer = builder.addConstantBuffer(
      *toDType(type.getElementType()),
      std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
      bytes.data());
  buffers[value] = buffer;
  return buffer;
}

std::optional<StridedView>
ModelLowering::viewOf(Value value, SmallVectorImpl<Operation *> &through) {
  auto type = cast<RankedTensorType>(value.getType());
  Operation *producer = value.getDefiningOp();
  if (!producer || !deferred.count(producer))
    return contiguousView(value);
  std::optional<StridedView> input = viewOf(producer->getOperand(0), through);
  if (!input)
    return std::nullopt;
  through.push_back(producer);
  StridedView view{input->root, SmallVector<int64_t>(type.getShape()), {},
                   input->offset};
  if (auto slice = dyn_cast<SliceOp>(producer)) {
    for (auto [d, start, step] :
         llvm::enumerate(slice.getStart(), slice.getStep())) {
      view.offset += start * input->strides[d];
      view.strides.push_back(input->strides[d] * step);
    }
    return view;
  }
  if (auto transpose = dyn_cast<TransposeOp>(producer)) {
    for (int64_t d : transpose.getPermutation())
      view.strides.push_back(input->strides[d]);
    return view;
  }
  std::optional<SmallVector<int64_t>> strides =
      reshapeStrides(*input, view.shape);
  if (!strides)
    return std::nullopt;
  view.strides = std::move(*strides);
  return view;
}

/// How sgemm reads `view` as rows x cols matrices after one flattened batch
/// dim: leading dimension, transposed or not, batch stride (0: shared).
static bool fitsStrides(const StridedView &view, ArrayRef<int64_t> batch,
                        int64_t &ld, bool &trans, int64_t &batchStride) {
  size_t rank = view.shape.size();
  int64_t rows = view.shape[rank - 2], cols = view.shape[rank - 1];
  int64_t rowStride = view.strides[rank - 2], colStride = view.strides[rank - 1];
  if (rows == 1)
    rowStride = std::max<int64_t>(cols, 1) * colStride;
  if (cols == 1)
    colStride = 1;
  if (colStride == 1 && rowStride >= cols) {
    trans = false;
    ld = rowStride;
  } else if (rowStride == 1 && colStride >= rows) {
    trans = true;
    ld = colStride;
  } else {
    return false;
  }
  // The batch dims flatten to one stride, or are all 1 (shared: stride 0).
  ArrayRef<int64_t> own = ArrayRef<int64_t>(view.shape).drop_back(2);
  if (ShapedType::getNumElements(own) == 1) {
    batchStride = 0;
  } else if (own == batch) {
    std::optional<int64_t> inner;
    for (int64_t d = int64_t(own.size()) - 1; d >= 0; --d) {
      if (own[d] == 1)
        continue;
      if (!inner)
        batchStride = view.strides[d]; // the innermost batch dim's
      else if (view.strides[d] != *inner)
        return false;
      inner = view.strides[d] * own[d];
    }
  } else {
    return false;
  }
  return true;
}

bool ModelLowering::bindOperand(const StridedView &view,
                                ArrayRef<int64_t> batch, uint32_t &buffer,
                                int64_t &ld, bool &trans,
                                int64_t &batchStride) {
  if (!fitsStrides(view, batch, ld, trans, batchStride))
    return false;
  buffer = bufferOf(view.root);
  if (view.offset != 0) {
    std::optional<uint32_t> alias = aliasAt(view.root, buffer, view.offset);
    if (!alias)
      return false;
    buffer = *alias;
  }
  reads(buffer);
  return true;
}

std::optional<uint32_t> ModelLowering::aliasAt(Value value, uint32_t root,
                                               int64_t offset) {
  if (auto it = aliases.find({root, offset}); it != aliases.end())
    return it->second;
  auto type = cast<RankedTensorType>(value.getType());
  int64_t elements = type.getNumElements();
  if (offset < 0 || offset >= elements)
    return std::nullopt;
  uint32_t alias = viewBuffer(
      root, {elements - offset},
      static_cast<uint64_t>(offset) * elementBytes(type.getElementType()));
  aliases[{root, offset}] = alias;
  return alias;
}

uint32_t ModelLowering::viewBuffer(uint32_t root, std::vector<int64_t> shape,
                                   uint64_t byteOffset) {
  const artifact::BufferT &from = *builder.model().buffers[root];
  auto life = lifetimeOfBuffer.find(root);
  const bool arena = life != lifetimeOfBuffer.end();
  uint32_t view = builder.addBuffer(from.dtype, std::move(shape), from.storage,
                                    arena ? from.offset
                                          : from.offset + byteOffset,
                                    from.index);
  if (arena) {
    if (byteOffset)
      viewByteOffsets[view] = byteOffset;
    lifetimeOfBuffer[view] = life->second;
    buffersOfLifetime[life->second].push_back(view);
  }
  return view;
}

std::optional<uint32_t> ModelLowering::packedWeight(Value weight, int64_t n,
                                                    int64_t k) {
  auto constant = weight.getDefiningOp<ConstantOp>();
  if (!constant)
    return std::nullopt;
  if (auto it = packedWeights.find(weight); it != packedWeights.end())
    return it->second;
  std::vector<uint8_t> raw = constantBytes(constant.getValue());
  std::vector<uint8_t> packed(tcc_sgemm_packed_b_size(k, n) + 64);
  // The packed buffer must be 64-byte aligned while packing.
  void *aligned = reinterpret_cast<void *>(
      (reinterpret_cast<uintptr_t>(packed.data()) + 63) & ~uintptr_t(63));
  if (tcc_sgemm_pack_b(k, n, reinterpret_cast<const float *>(raw.data()), k,
                       /*trans_b=*/1, aligned) != TCC_KERNEL_OK)
    return std::nullopt;
  int64_t size = static_cast<int64_t>(tcc_sgemm_packed_b_size(k, n));
  uint32_t buffer = builder.addConstantBuffer(artifact::DType::U8, {size}, aligned);
  packedWeights[weight] = buffer;
  return buffer;
}

std::optional<uint32_t>
ModelLowering::packedConvWeight(Value weight, tcc_conv2d_args args) {
  auto constant = weight.getDefiningOp<ConstantOp>();
  size_t size = tcc_conv2d_packed_weight_size(&args);
  if (!constant || size == 0)
    return std::nullopt;
  if (auto it = packedConvWeights.find({weight, size});
      it != packedConvWeights.end())
    return it->second;
  std::vector<uint8_t> raw = constantBytes(constant.getValue());
  std::vector<uint8_t> packed(size + 64);
  void *aligned = reinterpret_cast<void *>(
      (reinterpret_cast<uintptr_t>(packed.data()) + 63) & ~uintptr_t(63));
  args.weight = reinterpret_cast<const float *>(raw.data());
  if (tcc_conv2d_pack_weight(&args, aligned) != TCC_KERNEL_OK)
    return std::nullopt;
  uint32_t buffer = builder.addConstantBuffer(
      artifact::DType::U8, {static_cast<int64_t>(size)}, aligned);
  packedConvWeights[{weight, size}] = buffer;
  return buffer;
}

void ModelLowering::addKernel(Operation *op) {
  // Operands first: computing a deferred one adds its own step (and names
  // its kernel after that step's index).
  std::vector<uint32_t> operandBuffers;
  for (Value operand : op->getOperands())
    operandBuffers.push_back(bufferOf(operand));
  // Outline the op into a kernel function of its own.
  std::string symbol = "k" + std::to_string(steps.size()) + "_" +
                       op->getName().stripDialect().str();
  if (auto fusion = dyn_cast<FusionOp>(op)) {
    // Name a group by its first few ops.
    int named = 0;
    for (Operation &inner : fusion.getBlock().without_terminator())
      if (!isa<ConstantOp>(inner) && named++ < 4)
        symbol += "_" + inner.getName().stripDialect().str();
  }
  OpBuilder b = OpBuilder::atBlockEnd(kernels->getBody());
  auto func = b.create<func::FuncOp>(
      op->getLoc(), symbol,
      b.getFunctionType(op->getOperandTypes(), op->getResultTypes()));
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);
  IRMapping mapping;
  if (auto fusion = dyn_cast<FusionOp>(op)) {
    // The group's body is the kernel's.
    mapping.map(fusion.getBlock().getArguments(), body->getArguments());
    for (Operation &inner : fusion.getBlock().without_terminator())
      b.clone(inner, mapping);
    SmallVector<Value> results;
    for (Value v : fusion.getYield().getValues())
      results.push_back(mapping.lookup(v));
    b.create<func::ReturnOp>(op->getLoc(), results);
  } else {
    mapping.map(op->getOperands(), body->getArguments());
    Operation *clone = b.clone(*op, mapping);
    b.create<func::ReturnOp>(op->getLoc(), clone->getResults());
  }

  PendingKernel kernel{symbol, {}, {}};
  if (auto fusion = dyn_cast<FusionOp>(op)) {
    for (Operation &inner : fusion.getBlock().without_terminator())
      if (!isa<ConstantOp>(inner))
        kernel.sourceOps.push_back(describe(&inner));
  } else {
    kernel.sourceOps.push_back(describe(op));
  }
  for (uint32_t buffer : operandBuffers) {
    kernel.bindings.push_back(buffer);
    use(buffer);
  }
  for (Value result : op->getResults())
    kernel.bindings.push_back(bufferFor(result));
  addStep(std::move(kernel));
}

static artifact::Activation toArtifact(EpilogueActivation activation) {
  return ::tcc::runtime::toArtifactActivation(int(activation));
}

static std::unique_ptr<artifact::EpilogueT>
toArtifact(const artifact::EpilogueT &epilogue) {
  return std::make_unique<artifact::EpilogueT>(epilogue);
}

static std::vector<std::string> describeAll(ArrayRef<Operation *> ops) {
  std::vector<std::string> names;
  for (Operation *op : ops)
    names.push_back(describe(op));
  return names;
}

/// fp32 matmul as tcc_sgemm calls when each operand's batch is either the
/// result's or a single matrix shared by all (stride 0). Operands that are
/// transposes or reshapes of computed values (attention's heads) are read
/// in place through lda/ldb, trans_a/trans_b and batch strides, and a
/// result only transposed afterwards is written in place through ldc and
/// its batch stride: those transposes are never computed.
bool ModelLowering::lowerMatmul(MatmulOp op, function_ref<Value(Value)> outside,
                                artifact::EpilogueT epilogue, Value result) {
  auto lhs = cast<RankedTensorType>(op.getLhs().getType());
  auto type = cast<RankedTensorType>(op.getType());
  if (lhs.getNumElements() == 0 || type.getNumElements() == 0 ||
      cast<RankedTensorType>(op.getRhs().getType()).getNumElements() == 0)
    return false;
  ArrayRef<int64_t> batch = type.getShape().drop_back(2);
  artifact::SgemmT gemm;
  // Each operand in place through its view, else as computed.
  auto bind = [&](Value operand, uint32_t &buffer, int64_t &ld, bool &trans,
                  int64_t &batchStride) {
    SmallVector<Operation *> through;
    std::optional<StridedView> view = viewOf(operand, through);
    if (view && bindOperand(*view, batch, buffer, ld, trans, batchStride)) {
      absorbed.append(through.begin(), through.end());
      return true;
    }
    return bindOperand(contiguousView(operand), batch, buffer, ld, trans,
                       batchStride);
  };
  bool transA = false, transB = false;
  if (!bind(outside(op.getLhs()), gemm.a, gemm.lda, transA,
            gemm.a_batch_stride) ||
      !bind(outside(op.getRhs()), gemm.b, gemm.ldb, transB,
            gemm.b_batch_stride))
    return false;
  gemm.trans_a = transA;
  gemm.trans_b = transB;
  gemm.m = type.getDimSize(type.getRank() - 2);
  gemm.n = type.getDimSize(type.getRank() - 1);
  gemm.k = lhs.getDimSize(lhs.getRank() - 1);
  gemm.batch = ShapedType::getNumElements(batch);
  gemm.ldc = gemm.n;
  gemm.c_batch_stride = gemm.m * gemm.n;
  if (!writeThroughTranspose(result, epilogue, gemm))
    gemm.c = bufferFor(result);
  gemm.epilogue = toArtifact(epilogue);
  artifact::OpUnion step;
  step.Set(std::move(gemm));
  addStep(std::move(step));
  return true;
}

bool ModelLowering::writeThroughTranspose(Value result,
                                          const artifact::EpilogueT &epilogue,
                                          artifact::SgemmT &gemm) {
  // The residual is read with C's strides: only without one.
  if (!result.hasOneUse() || epilogue.residual != -1 ||
      directOutputs.count(result))
    return false;
  // The transpose comes later in program order; lowerOp then skips it.
  auto transpose = dyn_cast<TransposeOp>(*result.getUsers().begin());
  if (!transpose || transpose->getBlock() != &entry.getBody().front() ||
      buffers.count(transpose.getResult()))
    return false;
  ArrayRef<int64_t> perm = transpose.getPermutation();
  int64_t rank = static_cast<int64_t>(perm.size());
  auto type = cast<RankedTensorType>(result.getType());
  // Strides of the result's dims inside the transpose's (contiguous) output.
  SmallVector<int64_t> outStrides =
      contiguousStrides(transpose.getType().getShape()),
                       strides(rank);
  for (int64_t i = 0; i < rank; ++i)
    strides[perm[i]] = outStrides[i];
  StridedView view{result, SmallVector<int64_t>(type.getShape()), strides};
  if (view.strides[rank - 1] != 1 && view.shape[rank - 1] != 1)
    return false; // C's rows must stay contiguous
  // Same flattening as the operands; the view covers the output exactly
  // once (a permutation), so every element gets written.
  int64_t ldc = 0, batchStride = 0;
  bool trans = false;
  if (!fitsStrides(view, type.getShape().drop_back(2), ldc, trans,
                   batchStride) ||
      trans)
    return false;
  gemm.c = bufferFor(transpose.getResult());
  gemm.ldc = ldc;
  gemm.c_batch_stride = batchStride;
  absorbed.push_back(transpose);
  return true;
}

/// y[m, n] = x[m, k] * W[n, k]^T (+ bias), with W packed at compile time
/// when it is a constant and m > 4.
void ModelLowering::lowerLinear(LinearOp op, function_ref<Value(Value)> outside,
                                artifact::EpilogueT epilogue, Value result) {
  auto input = cast<RankedTensorType>(op.getInput().getType());
  auto weight = cast<RankedTensorType>(op.getWeight().getType());
  artifact::SgemmT gemm;
  gemm.k = input.getDimSize(input.getRank() - 1);
  gemm.n = weight.getDimSize(0);
  gemm.m = input.getNumElements() / gemm.k;
  gemm.a = bufferOf(outside(op.getInput()));
  reads(gemm.a);
  gemm.lda = gemm.k;
  Value w = outside(op.getWeight());
  // At most 4 rows (batch-1 layers) are bound by reading W: tcc_sgemm then
  // streams W as stored, taking dot products along its rows, which reads
  // it faster than pre-packed panels (figures: docs/performance.md,
  // "Measurements behind choices in the code"). So W is packed only for
  // more rows.
  constexpr int64_t kStreamedRows = 4;
  std::optional<uint32_t> packed;
  if (gemm.m > kStreamedRows)
    packed = packedWeight(w, gemm.n, gemm.k);
  if (packed) {
    gemm.b = *packed;
    gemm.b_packed = true;
  } else {
    gemm.b = bufferOf(w);
    reads(gemm.b);
    gemm.trans_b = true;
  }
  gemm.ldb = gemm.k;
  gemm.ldc = gemm.n;
  if (op.getBias()) {
    epilogue.bias = static_cast<int32_t>(bufferOf(outside(op.getBias())));
    reads(epilogue.bias);
  }
  gemm.epilogue = toArtifact(epilogue);
  gemm.c = bufferFor(result);
  artifact::OpUnion step;
  step.Set(std::move(gemm));
  addStep(std::move(step));
}

void ModelLowering::lowerConv2d(Conv2dOp op, function_ref<Value(Value)> outside,
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
  conv.input = bufferOf(outside(op.getInput()));
  // Constant NHWC weights are packed here, once, instead of on every call.
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
  if (std::optional<uint32_t> packed = packedConvWeight(weightValue, args)) {
    conv.weight = *packed;
    conv.weight_packed = true;
  } else {
    conv.weight = bufferOf(weightValue);
  }
  reads(conv.input);
  reads(conv.weight);
  if (op.getBias()) {
    epilogue.bias = static_cast<int32_t>(bufferOf(outside(op.getBias())));
    reads(epilogue.bias);
  }
  conv.epilogue = toArtifact(epilogue);
  conv.output = bufferFor(result);
  artifact::OpUnion step;
  step.Set(std::move(conv));
  addStep(std::move(step));
}

bool ModelLowering::lowerLibraryCall(const Epilogue &e,
                                     function_ref<Value(Value)> outside,
                                     Value result) {
  if (!options.useMicrokernels)
    return false;
  callReads.clear();
  artifact::EpilogueT epilogue;
  epilogue.activation = toArtifact(e.activation);
  epilogue.clamp_min = static_cast<float>(e.clampMin);
  epilogue.clamp_max = static_cast<float>(e.clampMax);
  if (e.bias) {
    epilogue.bias = static_cast<int32_t>(bufferOf(outside(e.bias)));
    reads(epilogue.bias);
  }
  if (e.residual) {
    epilogue.residual = static_cast<int32_t>(bufferOf(outside(e.residual)));
    reads(epilogue.residual);
  }
  absorbed.clear();
  if (auto matmul = dyn_cast<MatmulOp>(e.anchor)) {
    if (!lowerMatmul(matmul, outside, epilogue, result))
      return false;
  } else if (auto linear = dyn_cast<LinearOp>(e.anchor)) {
    lowerLinear(linear, outside, epilogue, result);
  } else {
    lowerConv2d(cast<Conv2dOp>(e.anchor), outside, epilogue, result);
  }
  // The call is the last step: deferred operands it computed come before.
  for (uint32_t buffer : callReads)
    use(buffer, currentStep() - 1);
  SmallVector<Operation *> sources(absorbed.begin(), absorbed.end());
  sources.append(e.ops.begin(), e.ops.end());
  stepSources[steps.size() - 1] = describeAll(sources);
  return true;
}

/// A view: the same bytes under another shape.
void ModelLowering::lowerReshape(ReshapeOp reshape) {
  ArrayRef<int64_t> shape = reshape.getType().getShape();
  buffers[reshape.getResult()] =
      viewBuffer(bufferOf(reshape.getInput()),
                 std::vector<int64_t>(shape.begin(), shape.end()), 0);
}

LogicalResult ModelLowering::lowerOp(Operation *op) {
  if (isa<ConstantOp>(op))
    return success(); // written when first used
  if (isa<TransposeOp>(op) && buffers.count(op->getResult(0)))
    return success(); // written in place by the matmul before it
  if (isa<TransposeOp, SliceOp>(op) ||
      (isa<ReshapeOp>(op) && op->getOperand(0).getDefiningOp() &&
       deferred.count(op->getOperand(0).getDefiningOp()))) {
    deferred.insert(op); // computed when first needed, if ever
    return success();
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    lowerReshape(reshape);
    return success();
  }
  auto identity = [](Value v) { return v; };
  if (isEpilogueAnchor(op)) {
    Epilogue single;
    single.anchor = op;
    single.ops.push_back(op);
    if (lowerLibraryCall(single, identity, op->getResult(0)))
      return success();
  }
  if (auto fusion = dyn_cast<FusionOp>(op)) {
    SmallVector<Operation *> inner;
    for (Operation &o : fusion.getBlock().without_terminator())
      inner.push_back(&o);
    // Values of the group as the plan sees them: block arguments are the
    // fusion's operands; constants copied inside stay constants.
    auto outside = [&](Value v) -> Value {
      if (auto arg = dyn_cast<BlockArgument>(v))
        if (arg.getOwner() == &fusion.getBlock())
          return fusion.getOperand(arg.getArgNumber());
      return v;
    };
    std::optional<Epilogue> epilogue = matchEpilogueGroup(inner);
    if (epilogue && fusion.getNumResults() == 1 &&
        lowerLibraryCall(*epilogue, outside, fusion.getResult(0)))
      return success();
  }
  if (isa<TccDialect>(op->getDialect())) {
    addKernel(op);
    return success();
  }
  return op->emitError("cannot compile '")
         << op->getName() << "': only tcc ops may appear in the entry function";
}

FailureOr<std::vector<uint8_t>> ModelLowering::run(ModelCompileStats *stats) {
  // Signatures.
  for (BlockArgument arg : entry.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.hasStaticShape() || !toDType(type.getElementType()))
      return entry.emitError("input ") << arg.getArgNumber()
             << " must be a statically shaped tensor of a tcc element type, got "
             << arg.getType();
    buffers[arg] = builder.addInput(
        nameAttr(entry.getArgAttrDict(arg.getArgNumber()),
                 "input" + std::to_string(arg.getArgNumber())),
        *toDType(type.getElementType()),
        std::vector<int64_t>(type.getShape().begin(), type.getShape().end()));
  }
  auto ret = cast<func::ReturnOp>(entry.getBody().front().getTerminator());
  std::vector<uint32_t> outputs;
  DenseMap<Value, int> timesReturned;
  for (Value v : ret.getOperands())
    ++timesReturned[v];
  for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !toDType(type.getElementType()))
      return entry.emitError("output ") << index << " has unsupported type "
                                        << value.getType();
    outputs.push_back(builder.addOutput(
        nameAttr(entry.getResultAttrDict(index), "output" + std::to_string(index)),
        *toDType(type.getElementType()),
        std::vector<int64_t>(type.getShape().begin(), type.getShape().end())));
    Operation *producer = value.getDefiningOp();
    bool computed = producer && !isa<ConstantOp, ReshapeOp>(producer);
    if (computed && timesReturned[value] == 1)
      directOutputs[value] = outputs.back();
  }

  // Steps, in program order.
  for (Operation &op : entry.getBody().front().without_terminator())
    if (failed(lowerOp(&op)))
      return failure();
  // Returned values still deferred are computed now (into their outputs
  // when returned once).
  for (Value value : ret.getOperands())
    bufferOf(value);
  for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
    if (directOutputs.count(value))
      continue;
    artifact::CopyT copy;
    copy.src = bufferOf(value);
    copy.dst = outputs[index];
    copy.bytes = byteSize(cast<ShapedType>(value.getType()));
    use(copy.src);
    artifact::OpUnion step;
    step.Set(std::move(copy));
    addStep(std::move(step));
  }

  // Kernels.
  FailureOr<KernelObject> object =
      compileKernels(*kernels, options.target, options.configurePassManager);
  if (failed(object))
    return failure();
  std::map<std::string, const CompiledKernel *> compiled;
  for (const CompiledKernel &kernel : object->kernels)
    compiled[kernel.symbol] = &kernel;

  // Scratch buffers live for their own step only.
  ModelCompileStats summary;
  for (size_t index = 0; index < steps.size(); ++index) {
    if (auto *pending = std::get_if<PendingKernel>(&steps[index])) {
      const CompiledKernel &kernel = *compiled.at(pending->symbol);
      for (int64_t bytes : kernel.scratchBytes) {
        uint32_t buffer = builder.addBuffer(artifact::DType::U8, {bytes},
                                            artifact::Storage::Arena);
        lifetimeOfBuffer[buffer] = lifetimes.size();
        lifetimes.push_back({static_cast<uint64_t>(bytes),
                             static_cast<int64_t>(index),
                             static_cast<int64_t>(index)});
        buffersOfLifetime.push_back({buffer});
        pending->bindings.push_back(buffer);
      }
      uint32_t id = builder.addKernel(kernel.symbol, kernel.numBindings(),
                                      pending->sourceOps);
      builder.addKernelCall(id, pending->bindings, kernel.tiles,
                            pending->sourceOps);
      ++summary.kernels;
    } else {
      auto &op = std::get<artifact::OpUnion>(steps[index]);
      if (op.type == artifact::Op::Copy)
        ++summary.copies;
      else
        ++summary.libraryCalls;
      auto sources = stepSources.find(index);
      builder.addStep(std::move(op), sources != stepSources.end()
                                         ? sources->second
                                         : std::vector<std::string>());
    }
  }

  // Memory plan.
  ArenaPlan plan = planArena(lifetimes);
  for (size_t life = 0; life < lifetimes.size(); ++life)
    for (uint32_t buffer : buffersOfLifetime[life]) {
      auto delta = viewByteOffsets.find(buffer);
      builder.model().buffers[buffer]->offset =
          plan.offsets[life] +
          (delta != viewByteOffsets.end() ? delta->second : 0);
    }
  builder.model().arena_bytes = plan.arenaBytes;

  builder.model().tcc_version = TCC_VERSION;
  builder.model().target_triple = options.target.triple;
  builder.model().cpu = options.target.cpu;
  builder.model().cpu_features = options.target.requiredFeatures();
  builder.model().imports = object->imports;
  builder.setCode(std::move(object->sharedObject));
  summary.arenaBytes = plan.arenaBytes;
  summary.intermediateBytes = plan.totalBytes;
  if (stats)
    *stats = summary;
  return builder.finish();
}

FailureOr<std::vector<uint8_t>>
mlir::tcc::compileModel(ModuleOp module, const ModelCompileOptions &options,
                  ModelCompileStats *stats) {
  PassManager graph(module.getContext());
  if (options.configurePassManager)
    options.configurePassManager(graph);
  buildGraphPipeline(graph, options.optLevel);
  if (failed(graph.run(module)))
    return failure();
  FailureOr<func::FuncOp> entry = findEntryFunction(module);
  if (failed(entry))
    return failure();
  ModelLowering lowering(*entry, options);
  return lowering.run(stats);
}
