//===- ModelCompiler.cpp - A tcc module to a model artifact ---------------===//

#include "tcc/Codegen/ModelCompiler.h"
#include "tcc/Codegen/MemoryPlan.h"
#include "tcc/IR/TccOps.h"
#include "tcc/Passes/Passes.h"

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
  LogicalResult lowerMatmul(MatmulOp op);
  void addKernel(Operation *op);
  uint32_t arenaBuffer(Value value);
  uint32_t bufferFor(Value value);
  void use(uint32_t buffer);
  void addStep(Step step) { steps.push_back(std::move(step)); }
  int64_t currentStep() const { return static_cast<int64_t>(steps.size()); }

  func::FuncOp entry;
  const ModelCompileOptions &options;
  OwningOpRef<ModuleOp> kernels;
  ArtifactBuilder builder;
  std::vector<Step> steps;
  DenseMap<Value, uint32_t> buffers;
  /// Results returned once, computed straight into their output buffer.
  DenseMap<Value, uint32_t> directOutputs;

  /// Arena buffers: lifetimes by root, aliases (views) sharing a root.
  std::vector<BufferLifetime> lifetimes;
  std::map<uint32_t, size_t> lifetimeOfBuffer; // every arena buffer -> root
  std::vector<std::vector<uint32_t>> buffersOfLifetime;
};

} // namespace

void ModelLowering::use(uint32_t buffer) {
  auto it = lifetimeOfBuffer.find(buffer);
  if (it != lifetimeOfBuffer.end())
    lifetimes[it->second].lastStep =
        std::max(lifetimes[it->second].lastStep, currentStep());
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

void ModelLowering::addKernel(Operation *op) {
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
  for (Value operand : op->getOperands()) {
    kernel.bindings.push_back(buffers.at(operand));
    use(buffers.at(operand));
  }
  for (Value result : op->getResults())
    kernel.bindings.push_back(bufferFor(result));
  addStep(std::move(kernel));
}

/// fp32 matmul as tcc_sgemm calls when each operand's batch is either the
/// result's or a single matrix shared by all (stride 0).
LogicalResult ModelLowering::lowerMatmul(MatmulOp op) {
  auto lhs = cast<RankedTensorType>(op.getLhs().getType());
  auto rhs = cast<RankedTensorType>(op.getRhs().getType());
  auto result = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> batch = result.getShape().drop_back(2);
  auto batchStride = [&](RankedTensorType type) -> std::optional<int64_t> {
    ArrayRef<int64_t> own = type.getShape().drop_back(2);
    int64_t matrix = type.getDimSize(type.getRank() - 2) *
                     type.getDimSize(type.getRank() - 1);
    if (ShapedType::getNumElements(own) == 1)
      return 0;
    if (own == batch)
      return matrix;
    return std::nullopt;
  };
  std::optional<int64_t> aStride = batchStride(lhs), bStride = batchStride(rhs);
  if (!options.useMicrokernels || !result.getElementType().isF32() ||
      !aStride || !bStride) {
    addKernel(op);
    return success();
  }
  artifact::SgemmT gemm;
  gemm.a = buffers.at(op.getLhs());
  gemm.b = buffers.at(op.getRhs());
  use(gemm.a);
  use(gemm.b);
  gemm.c = bufferFor(op.getResult());
  gemm.m = result.getDimSize(result.getRank() - 2);
  gemm.n = result.getDimSize(result.getRank() - 1);
  gemm.k = lhs.getDimSize(lhs.getRank() - 1);
  gemm.lda = gemm.k;
  gemm.ldb = gemm.n;
  gemm.ldc = gemm.n;
  gemm.batch = ShapedType::getNumElements(batch);
  gemm.a_batch_stride = *aStride;
  gemm.b_batch_stride = *bStride;
  gemm.c_batch_stride = gemm.m * gemm.n;
  artifact::OpUnion step;
  step.Set(std::move(gemm));
  addStep(std::move(step));
  return success();
}

LogicalResult ModelLowering::lowerOp(Operation *op) {
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    auto type = cast<RankedTensorType>(constant.getType());
    std::vector<uint8_t> bytes = constantBytes(constant.getValue());
    buffers[constant.getResult()] = builder.addConstantBuffer(
        *toDType(type.getElementType()),
        std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
        bytes.data());
    return success();
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    // A view: the same bytes under another shape.
    uint32_t source = buffers.at(reshape.getInput());
    const artifact::BufferT &from = *builder.model().buffers[source];
    auto type = reshape.getType();
    uint32_t view = builder.addBuffer(
        from.dtype,
        std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
        from.storage, from.offset, from.index);
    auto root = lifetimeOfBuffer.find(source);
    if (root != lifetimeOfBuffer.end()) {
      lifetimeOfBuffer[view] = root->second;
      buffersOfLifetime[root->second].push_back(view);
    }
    buffers[reshape.getResult()] = view;
    return success();
  }
  if (auto matmul = dyn_cast<MatmulOp>(op))
    return lowerMatmul(matmul);
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
  for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
    if (directOutputs.count(value))
      continue;
    artifact::CopyT copy;
    copy.src = buffers.at(value);
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
      builder.addStep(std::move(op));
    }
  }

  // Memory plan.
  ArenaPlan plan = planArena(lifetimes);
  for (size_t life = 0; life < lifetimes.size(); ++life)
    for (uint32_t buffer : buffersOfLifetime[life])
      builder.model().buffers[buffer]->offset = plan.offsets[life];
  builder.model().arena_bytes = plan.arenaBytes;

  builder.model().tcc_version = TCC_VERSION;
  builder.model().target_triple = options.target.triple;
  builder.model().cpu = options.target.cpu;
  builder.model().cpu_features = options.target.requiredFeatures();
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
