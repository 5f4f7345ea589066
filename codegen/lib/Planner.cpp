//===- Planner.cpp - The target-neutral execution plan of a model ---------===//
//
// Walks the entry function in program order: each op becomes a step (a
// kernel the target compiles, a library call the target chooses, or nothing
// for views read in place), every intermediate value a buffer in one arena
// planned from lifetimes, every constant bytes in the constants segment.
// What is specific to a target comes from its Target (Target.h).
//
//===----------------------------------------------------------------------===//

#include "Planner.h"

#include "ArtifactDraft.h"
#include "ArtifactTypes.h"
#include "StridedView.h"

#include "tcc/Codegen/MemoryPlan.h"
#include "tcc/Codegen/PlanBuilder.h"
#include "tcc/Codegen/Target.h"
#include "tcc/IR/TccOps.h"
#include "tcc/Passes/Epilogue.h"

#include "tcc/runtime/ArtifactBuilder.h"

#include "mlir/IR/IRMapping.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <variant>

using namespace mlir;
using namespace mlir::tcc;
namespace artifact = ::tcc::artifact;
using ::tcc::runtime::ArtifactBuilder;

static std::string describe(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName() << " ";
  op->getLoc().print(os);
  return text;
}

/// An NCHW tensor type as NHWC.
static Type nhwcType(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  ArrayRef<int64_t> d = tensor.getShape();
  return RankedTensorType::get({d[0], d[2], d[3], d[1]},
                               tensor.getElementType());
}

static std::string nameAttr(DictionaryAttr attrs, StringRef fallback) {
  if (attrs)
    if (auto name = attrs.getAs<StringAttr>("tcc.name"))
      return name.str();
  return fallback.str();
}

namespace {

/// A step whose kernel is compiled after the walk.
struct PendingKernel {
  std::string symbol;
  std::vector<uint32_t> bindings; // inputs then outputs; scratch added later
  std::vector<std::string> sourceOps;
};
using Step = std::variant<PendingKernel, artifact::OpUnion>;

class ModelPlanner final : public PlanBuilder {
public:
  ModelPlanner(func::FuncOp entry, const Target &target,
               const ModelCompileOptions &options)
      : entry(entry), target(target), options(options),
        kernels(ModuleOp::create(entry.getLoc())) {}

  FailureOr<std::vector<uint8_t>> run(ModelCompileStats *stats);

  // PlanBuilder, for the target's library calls.
  uint32_t bufferOf(Value value) override;
  void reads(uint32_t buffer) override { callReads.push_back(buffer); }
  uint32_t resultBuffer(Value result) override { return bufferFor(result); }
  bool bindMatrices(Value operand, ArrayRef<int64_t> batch,
                    MatrixBinding &binding) override;
  bool bindResultThroughTranspose(Value result,
                                  MatrixBinding &binding) override;
  std::optional<uint32_t> derivedConstant(
      Value source, uint64_t key,
      function_ref<std::optional<std::vector<uint8_t>>(ArrayRef<uint8_t>)>
          derive) override;
  uint32_t addWorkspaceKernel(
      StringRef name, Operation *source, ArrayRef<Value> operands,
      RankedTensorType type,
      function_ref<Value(OpBuilder &, Location, ValueRange)> body) override;
  void addLibraryStep(artifact::OpUnion step) override {
    addStep(std::move(step));
  }

private:
  LogicalResult lowerOp(Operation *op);
  /// The target's library call for an epilogue group; false when it has
  /// none for these shapes (the caller compiles a kernel instead).
  bool lowerLibraryCall(const Epilogue &epilogue,
                        function_ref<Value(Value)> outside, Value result);
  void addKernel(Operation *op);
  void lowerReshape(ReshapeOp reshape);
  /// `value` as a strided view of a computed value, seeing through deferred
  /// transposes, slices and reshapes (appended to `through`); nullopt when
  /// a reshape has no strided form.
  std::optional<StridedView> viewOf(Value value,
                                    SmallVectorImpl<Operation *> &through);
  /// Matrices read in place from `view`: false when its strides don't fit.
  bool bindView(const StridedView &view, ArrayRef<int64_t> batch,
                MatrixBinding &binding);
  /// A buffer starting `offset` elements into `value`'s buffer `root` (a
  /// slice read in place), or nullopt when the offset is outside it.
  std::optional<uint32_t> aliasAt(Value value, uint32_t root, int64_t offset);
  /// A new buffer over `root`'s bytes from `byteOffset` on, with `shape`: in
  /// the arena it shares the root's lifetime (the memory plan fixes both
  /// offsets); elsewhere its offset is final now.
  uint32_t viewBuffer(uint32_t root, std::vector<int64_t> shape,
                      uint64_t byteOffset);
  uint32_t arenaBuffer(Value value) {
    return arenaBuffer(cast<RankedTensorType>(value.getType()));
  }
  uint32_t arenaBuffer(RankedTensorType type);
  uint32_t bufferFor(Value value);
  /// Extends the buffer's lifetime to `step` (by default the step about to
  /// be added).
  void use(uint32_t buffer, int64_t step);
  void use(uint32_t buffer) { use(buffer, currentStep()); }
  void addStep(Step step) { steps.push_back(std::move(step)); }
  int64_t currentStep() const { return static_cast<int64_t>(steps.size()); }

  func::FuncOp entry;
  const Target &target;
  const ModelCompileOptions &options;
  OwningOpRef<ModuleOp> kernels;
  ArtifactBuilder builder;
  std::vector<Step> steps;
  DenseMap<Value, uint32_t> buffers;
  /// The source ops of library-call steps, by step index.
  std::map<size_t, std::vector<std::string>> stepSources;
  /// Constants derived for the target (packed weights), by source and key
  /// (lookups only).
  DenseMap<std::pair<Value, uint64_t>, uint32_t> derivedConstants;
  /// Results returned once, computed straight into their output buffer.
  DenseMap<Value, uint32_t> directOutputs;
  /// Transposes, slices (and reshapes of their results) not computed yet: a
  /// matmul may read them (or write a transpose) in place through strides
  /// and offsets (bindMatrices), which saves their copy; bufferOf computes
  /// those that anything else needs.
  DenseSet<Operation *> deferred;
  /// The deferred ops a library call absorbed, for its step's source ops.
  SmallVector<Operation *> absorbed;
  /// The buffers the library call being lowered reads: marked used at the
  /// call's step once it is added (computing a deferred operand may add
  /// steps before it).
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

void ModelPlanner::use(uint32_t buffer, int64_t step) {
  auto it = lifetimeOfBuffer.find(buffer);
  if (it != lifetimeOfBuffer.end())
    lifetimes[it->second].lastStep =
        std::max(lifetimes[it->second].lastStep, step);
}

uint32_t ModelPlanner::arenaBuffer(RankedTensorType type) {
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
uint32_t ModelPlanner::bufferFor(Value value) {
  auto direct = directOutputs.find(value);
  uint32_t buffer =
      direct != directOutputs.end() ? direct->second : arenaBuffer(value);
  buffers[value] = buffer;
  return buffer;
}

uint32_t ModelPlanner::bufferOf(Value value) {
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
      bytes.data(), target.capabilities().bufferAlignment());
  buffers[value] = buffer;
  return buffer;
}

std::optional<StridedView>
ModelPlanner::viewOf(Value value, SmallVectorImpl<Operation *> &through) {
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

bool ModelPlanner::bindView(const StridedView &view, ArrayRef<int64_t> batch,
                            MatrixBinding &binding) {
  if (!fitsStrides(view, batch, binding.ld, binding.trans,
                   binding.batchStride))
    return false;
  binding.buffer = bufferOf(view.root);
  if (view.offset != 0) {
    std::optional<uint32_t> alias =
        aliasAt(view.root, binding.buffer, view.offset);
    if (!alias)
      return false;
    binding.buffer = *alias;
  }
  reads(binding.buffer);
  return true;
}

bool ModelPlanner::bindMatrices(Value operand, ArrayRef<int64_t> batch,
                                MatrixBinding &binding) {
  // In place through its view, else as computed.
  SmallVector<Operation *> through;
  std::optional<StridedView> view = viewOf(operand, through);
  if (view && bindView(*view, batch, binding)) {
    absorbed.append(through.begin(), through.end());
    return true;
  }
  return bindView(contiguousView(operand), batch, binding);
}

std::optional<uint32_t> ModelPlanner::aliasAt(Value value, uint32_t root,
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

uint32_t ModelPlanner::viewBuffer(uint32_t root, std::vector<int64_t> shape,
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

std::optional<uint32_t> ModelPlanner::derivedConstant(
    Value source, uint64_t key,
    function_ref<std::optional<std::vector<uint8_t>>(ArrayRef<uint8_t>)>
        derive) {
  auto constant = source.getDefiningOp<ConstantOp>();
  if (!constant)
    return std::nullopt;
  if (auto it = derivedConstants.find({source, key});
      it != derivedConstants.end())
    return it->second;
  std::optional<std::vector<uint8_t>> bytes =
      derive(constantBytes(constant.getValue()));
  if (!bytes)
    return std::nullopt;
  uint32_t buffer = builder.addConstantBuffer(
      artifact::DType::U8, {static_cast<int64_t>(bytes->size())},
      bytes->data(), target.capabilities().bufferAlignment());
  derivedConstants[{source, key}] = buffer;
  return buffer;
}

void ModelPlanner::addKernel(Operation *op) {
  // Operands first: computing a deferred one adds its own step (and names
  // its kernel after that step's index).
  std::vector<uint32_t> operandBuffers;
  for (Value operand : op->getOperands())
    operandBuffers.push_back(bufferOf(operand));
  // Outline the op into a kernel function of its own.
  std::string symbol = "k" + std::to_string(steps.size()) + "_" +
                       op->getName().stripDialect().str();
  // A pool the target's channels-last steps surround reads and writes NHWC.
  bool channelsLast = options.useMicrokernels && isa<MaxPool2dOp>(op) &&
                      target.runsChannelsLast(op);
  SmallVector<Type> operandTypes(op->getOperandTypes()),
      resultTypes(op->getResultTypes());
  if (channelsLast) {
    symbol += "_nhwc";
    operandTypes[0] = nhwcType(operandTypes[0]);
    resultTypes[0] = nhwcType(resultTypes[0]);
  }
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
      b.getFunctionType(operandTypes, resultTypes));
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
    if (channelsLast) {
      cast<MaxPool2dOp>(clone).setLayout(Layout::NHWC);
      clone->getResult(0).setType(resultTypes[0]);
    }
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

uint32_t ModelPlanner::addWorkspaceKernel(
    StringRef name, Operation *source, ArrayRef<Value> operands,
    RankedTensorType type,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  std::vector<uint32_t> operandBuffers;
  for (Value operand : operands)
    operandBuffers.push_back(bufferOf(operand));
  std::string symbol = "k" + std::to_string(steps.size()) + "_" + name.str();
  OpBuilder b = OpBuilder::atBlockEnd(kernels->getBody());
  Location loc = source->getLoc();
  auto func = b.create<func::FuncOp>(
      loc, symbol,
      b.getFunctionType(ValueRange(operands).getTypes(), {type}));
  Block *block = func.addEntryBlock();
  b.setInsertionPointToStart(block);
  b.create<func::ReturnOp>(loc, body(b, loc, block->getArguments()));
  PendingKernel kernel{symbol, {}, {describe(source)}};
  for (uint32_t buffer : operandBuffers) {
    kernel.bindings.push_back(buffer);
    use(buffer);
  }
  uint32_t workspace = arenaBuffer(type);
  kernel.bindings.push_back(workspace);
  addStep(std::move(kernel));
  reads(workspace);
  return workspace;
}

static std::vector<std::string> describeAll(ArrayRef<Operation *> ops) {
  std::vector<std::string> names;
  for (Operation *op : ops)
    names.push_back(describe(op));
  return names;
}

bool ModelPlanner::bindResultThroughTranspose(Value result,
                                              MatrixBinding &binding) {
  if (!result.hasOneUse() || directOutputs.count(result))
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
  binding.buffer = bufferFor(transpose.getResult());
  binding.ld = ldc;
  binding.trans = false;
  binding.batchStride = batchStride;
  absorbed.push_back(transpose);
  return true;
}

bool ModelPlanner::lowerLibraryCall(const Epilogue &e,
                                    function_ref<Value(Value)> outside,
                                    Value result) {
  if (!options.useMicrokernels)
    return false;
  callReads.clear();
  absorbed.clear();
  if (!target.lowerLibraryCall(*this, e, outside, result))
    return false;
  // The call is the last step: deferred operands it computed come before.
  for (uint32_t buffer : callReads)
    use(buffer, currentStep() - 1);
  SmallVector<Operation *> sources(absorbed.begin(), absorbed.end());
  sources.append(e.ops.begin(), e.ops.end());
  stepSources[steps.size() - 1] = describeAll(sources);
  return true;
}

/// A view: the same bytes under another shape.
void ModelPlanner::lowerReshape(ReshapeOp reshape) {
  ArrayRef<int64_t> shape = reshape.getType().getShape();
  buffers[reshape.getResult()] =
      viewBuffer(bufferOf(reshape.getInput()),
                 std::vector<int64_t>(shape.begin(), shape.end()), 0);
}

LogicalResult ModelPlanner::lowerOp(Operation *op) {
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
  if (target.capabilities().isEpilogueAnchor(op)) {
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
    std::optional<Epilogue> epilogue = matchEpilogueGroup(inner, target.capabilities());
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

FailureOr<std::vector<uint8_t>> ModelPlanner::run(ModelCompileStats *stats) {
  // Signatures. Names bind inputs and outputs, so each must be unique among
  // its kind (the verifier checks those the IR gives; a default such as
  // "input0" may meet a given one).
  std::set<std::string> inputNames, outputNames;
  auto unique = [&](std::set<std::string> &names, const std::string &name,
                    StringRef kind, size_t index) -> LogicalResult {
    if (names.insert(name).second)
      return success();
    return entry.emitError() << kind << " " << index << " is named '" << name
                             << "', as is another " << kind
                             << " (an unnamed one's default name); name "
                                "them with tcc.name";
  };
  for (BlockArgument arg : entry.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.hasStaticShape() || !toDType(type.getElementType()))
      return entry.emitError("input ") << arg.getArgNumber()
             << " must be a statically shaped tensor of a tcc element type, got "
             << arg.getType();
    std::string name = nameAttr(entry.getArgAttrDict(arg.getArgNumber()),
                                "input" + std::to_string(arg.getArgNumber()));
    if (failed(unique(inputNames, name, "input", arg.getArgNumber())))
      return failure();
    buffers[arg] = builder.addInput(
        name, *toDType(type.getElementType()),
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
    std::string name = nameAttr(entry.getResultAttrDict(index),
                                "output" + std::to_string(index));
    if (failed(unique(outputNames, name, "output", index)))
      return failure();
    outputs.push_back(builder.addOutput(
        name, *toDType(type.getElementType()),
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
      target.compileKernels(*kernels, options.configurePassManager,
                            options.progress);
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
      // The code reads its arguments and writes its results and scratch
      // buffers, each bound to a buffer of the value's type.
      std::vector<artifact::KernelBinding> declared;
      for (auto [j, buffer] : llvm::enumerate(pending->bindings))
        declared.emplace_back(builder.model().buffers[buffer]->byte_size,
                              j >= kernel.numInputs);
      uint32_t id = builder.addKernel(kernel.symbol, std::move(declared),
                                      kernel.tiles, pending->sourceOps);
      builder.addKernelCall(id, pending->bindings, pending->sourceOps);
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
  ArenaPlan plan =
      planArena(lifetimes, target.capabilities().bufferAlignment());
  for (size_t life = 0; life < lifetimes.size(); ++life)
    for (uint32_t buffer : buffersOfLifetime[life]) {
      auto delta = viewByteOffsets.find(buffer);
      builder.model().buffers[buffer]->offset =
          plan.offsets[life] +
          (delta != viewByteOffsets.end() ? delta->second : 0);
    }
  builder.model().tcc_version = TCC_VERSION;
  ArtifactDraft draft{builder};
  target.placeCode(draft, std::move(*object), plan.arenaBytes);
  summary.arenaBytes = plan.arenaBytes;
  summary.intermediateBytes = plan.totalBytes;
  if (stats)
    *stats = summary;
  return builder.finish();
}

FailureOr<std::vector<uint8_t>>
mlir::tcc::planModel(func::FuncOp entry, const Target &target,
                     const ModelCompileOptions &options,
                     ModelCompileStats *stats) {
  // Constants are written out in full (a splat too), so a large one can
  // exhaust memory here; no MLIR frame lies between this and the
  // allocations, so the exception stops here as a diagnostic.
  try {
    return ModelPlanner(entry, target, options).run(stats);
  } catch (const std::bad_alloc &) {
    return entry.emitError(
        "out of memory while writing the artifact (constants are stored in "
        "full, splats included)");
  }
}
