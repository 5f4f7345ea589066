//===- KernelCompiler.cpp - Kernels to an ELF shared object ---------------===//

#include "tcc/Codegen/KernelCompiler.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <optional>

using namespace mlir;
using namespace mlir::tcc;

//===----------------------------------------------------------------------===//
// LLVM IR: the kernel ABI and freestanding helpers
//===----------------------------------------------------------------------===//

/// Wraps `inner(ptr..., i64 begin, i64 end)` as the runtime's
/// `void symbol(void *const *bindings, int64_t begin, int64_t end)`.
static void addKernelWrapper(llvm::Module &module, llvm::Function *inner,
                             StringRef symbol) {
  llvm::LLVMContext &ctx = module.getContext();
  auto *ptrTy = llvm::PointerType::get(ctx, 0);
  auto *i64Ty = llvm::Type::getInt64Ty(ctx);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                                       {ptrTy, i64Ty, i64Ty}, false);
  auto *wrapper = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                         symbol, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", wrapper));
  SmallVector<llvm::Value *> args;
  unsigned numPointers = inner->arg_size() - 2;
  for (unsigned i = 0; i < numPointers; ++i) {
    llvm::Value *slot = b.CreateConstInBoundsGEP1_64(ptrTy, wrapper->getArg(0), i);
    args.push_back(b.CreateLoad(ptrTy, slot));
  }
  args.push_back(wrapper->getArg(1));
  args.push_back(wrapper->getArg(2));
  b.CreateCall(inner, args);
  b.CreateRetVoid();
}

/// Byte-loop memcpy/memset, hidden in the object: LLVM lowers large copies
/// and fills to calls of these names, and kernels import nothing.
static void addFreestandingHelpers(llvm::Module &module) {
  llvm::LLVMContext &ctx = module.getContext();
  auto *ptrTy = llvm::PointerType::get(ctx, 0);
  auto *i64Ty = llvm::Type::getInt64Ty(ctx);
  auto *i8Ty = llvm::Type::getInt8Ty(ctx);
  auto *i32Ty = llvm::Type::getInt32Ty(ctx);
  auto define = [&](StringRef name, llvm::Type *valueTy, bool isCopy) {
    auto *type = llvm::FunctionType::get(ptrTy, {ptrTy, valueTy, i64Ty}, false);
    auto *fn = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                      name, module);
    fn->setVisibility(llvm::GlobalValue::HiddenVisibility);
    // Stop LLVM from recognizing the loop as a call to itself.
    fn->addFnAttr("no-builtins");
    auto *entry = llvm::BasicBlock::Create(ctx, "entry", fn);
    auto *loop = llvm::BasicBlock::Create(ctx, "loop", fn);
    auto *exit = llvm::BasicBlock::Create(ctx, "exit", fn);
    llvm::IRBuilder<> b(entry);
    b.CreateCondBr(b.CreateICmpEQ(fn->getArg(2), b.getInt64(0)), exit, loop);
    b.SetInsertPoint(loop);
    llvm::PHINode *i = b.CreatePHI(i64Ty, 2);
    i->addIncoming(b.getInt64(0), entry);
    llvm::Value *value =
        isCopy ? b.CreateLoad(i8Ty, b.CreateGEP(i8Ty, fn->getArg(1), i))
               : b.CreateTrunc(fn->getArg(1), i8Ty);
    b.CreateStore(value, b.CreateGEP(i8Ty, fn->getArg(0), i));
    llvm::Value *next = b.CreateAdd(i, b.getInt64(1));
    i->addIncoming(next, loop);
    b.CreateCondBr(b.CreateICmpEQ(next, fn->getArg(2)), exit, loop);
    b.SetInsertPoint(exit);
    b.CreateRet(fn->getArg(0));
  };
  if (!module.getFunction("memcpy"))
    define("memcpy", ptrTy, /*isCopy=*/true);
  if (!module.getFunction("memset"))
    define("memset", i32Ty, /*isCopy=*/false);
}

/// Reports each kernel (its wrapper or its `.impl`) the first time one of
/// LLVM's function passes runs on it: the module is compiled as a whole, so
/// this is where per-kernel progress can be seen.
static std::function<void(llvm::StringRef)>
kernelProgress(const std::vector<CompiledKernel> &kernels,
               const CompileProgressFn &progress) {
  if (!progress)
    return {};
  auto pending = std::make_shared<llvm::StringSet<>>();
  for (const CompiledKernel &kernel : kernels)
    pending->insert(kernel.symbol);
  auto done = std::make_shared<size_t>(0);
  size_t total = kernels.size();
  return [=](llvm::StringRef function) {
    function.consume_back(".impl");
    if (!pending->erase(function))
      return;
    progress({CompileProgress::Stage::Compiling, ++*done, total,
              function.str()});
  };
}

static void optimize(llvm::Module &module, llvm::TargetMachine &machine,
                     const std::function<void(llvm::StringRef)> &onFunction) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassInstrumentationCallbacks callbacks;
  if (onFunction)
    callbacks.registerBeforeNonSkippedPassCallback(
        [&](llvm::StringRef, llvm::Any ir) {
          if (const auto *f = llvm::any_cast<const llvm::Function *>(&ir))
            onFunction((*f)->getName());
        });
  llvm::PassBuilder builder(&machine, llvm::PipelineTuningOptions(),
                            std::nullopt, &callbacks);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3)
      .run(module, mam);
}

//===----------------------------------------------------------------------===//
// Imports: libm calls that the backend emits
//===----------------------------------------------------------------------===//

/// The undefined symbols of an object file, sorted.
static FailureOr<std::vector<std::string>>
undefinedSymbols(Location loc, const SmallVectorImpl<char> &object) {
  llvm::MemoryBufferRef buffer(StringRef(object.data(), object.size()),
                               "tcc_kernels");
  auto file = llvm::object::ObjectFile::createObjectFile(buffer);
  if (!file)
    return emitError(loc, "cannot read the kernels' object file: ")
           << llvm::toString(file.takeError());
  std::vector<std::string> names;
  for (const llvm::object::SymbolRef &symbol : (*file)->symbols()) {
    auto flags = symbol.getFlags();
    auto name = symbol.getName();
    if (!flags || !name) {
      llvm::consumeError(flags.takeError());
      llvm::consumeError(name.takeError());
      return emitError(loc, "cannot read the kernels' symbol table");
    }
    if ((*flags & llvm::object::SymbolRef::SF_Undefined) && !name->empty())
      names.push_back(name->str());
  }
  llvm::sort(names);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

/// How the kernels call an import, and how the runtime's function takes it.
struct ImportSignature {
  llvm::FunctionType *call = nullptr;   // as the backend's call passes values
  llvm::FunctionType *target = nullptr; // the runtime's C function
};

/// A Float16Imports.def type: LLVM's type, and the one the runtime's
/// function uses (16-bit floats as their bits).
static std::pair<llvm::Type *, llvm::Type *>
float16ImportType(llvm::LLVMContext &ctx, StringRef name) {
  if (name == "f16")
    return {llvm::Type::getHalfTy(ctx), llvm::Type::getInt16Ty(ctx)};
  if (name == "bf16")
    return {llvm::Type::getBFloatTy(ctx), llvm::Type::getInt16Ty(ctx)};
  return {llvm::Type::getFloatTy(ctx), llvm::Type::getFloatTy(ctx)};
}

/// The signature of the runtime function `name` (LibmImports.def,
/// Float16Imports.def), or nothing when the runtime offers no such function.
static std::optional<ImportSignature> importSignature(llvm::LLVMContext &ctx,
                                                      StringRef name) {
  auto libm = [&](StringRef code) {
    // "F3": float of three floats; "D1": double of one double.
    llvm::Type *valueTy = code[0] == 'F' ? llvm::Type::getFloatTy(ctx)
                                         : llvm::Type::getDoubleTy(ctx);
    SmallVector<llvm::Type *> params(code[1] - '0', valueTy);
    auto *type = llvm::FunctionType::get(valueTy, params, false);
    return ImportSignature{type, type};
  };
  auto float16 = [&](StringRef from, StringRef to) {
    auto [fromCall, fromTarget] = float16ImportType(ctx, from);
    auto [toCall, toTarget] = float16ImportType(ctx, to);
    return ImportSignature{
        llvm::FunctionType::get(toCall, {fromCall}, false),
        llvm::FunctionType::get(toTarget, {fromTarget}, false)};
  };
#define TCC_LIBM_IMPORT(fn, signature)                                         \
  if (name == #fn)                                                             \
    return libm(#signature);
#include "tcc/runtime/LibmImports.def"
#define TCC_FLOAT16_IMPORT(fn, from, to)                                       \
  if (name == #fn)                                                             \
    return float16(#from, #to);
#include "tcc/runtime/Float16Imports.def"
  return std::nullopt;
}

/// `value` as `type`: a bit cast between a 16-bit float and its bits.
static llvm::Value *asType(llvm::IRBuilder<> &b, llvm::Value *value,
                           llvm::Type *type) {
  return value->getType() == type ? value : b.CreateBitCast(value, type);
}

/// A module that defines each of `names` as a jump through `tcc_imports`,
/// the table the loader fills with the runtime's functions (schema:
/// Model.imports), so the kernels link with no undefined symbols. Fails
/// for a name the runtime does not offer.
static FailureOr<std::unique_ptr<llvm::Module>>
importStubs(Location loc, llvm::LLVMContext &ctx, const llvm::Module &kernels,
            ArrayRef<std::string> names) {
  auto module = std::make_unique<llvm::Module>("tcc_imports", ctx);
  module->setTargetTriple(kernels.getTargetTriple());
  module->setDataLayout(kernels.getDataLayout());
  auto *ptrTy = llvm::PointerType::get(ctx, 0);
  auto *tableTy = llvm::ArrayType::get(ptrTy, names.size());
  auto *table = new llvm::GlobalVariable(
      *module, tableTy, /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage,
      llvm::ConstantAggregateZero::get(tableTy), "tcc_imports");
  table->setAlignment(llvm::Align(8));
  for (auto [index, name] : llvm::enumerate(names)) {
    std::optional<ImportSignature> signature = importSignature(ctx, name);
    if (!signature)
      return emitError(loc, "the generated code calls '")
             << name << "', which the runtime does not offer";
    auto *stub = llvm::Function::Create(signature->call,
                                        llvm::Function::ExternalLinkage, name,
                                        *module);
    stub->setVisibility(llvm::GlobalValue::HiddenVisibility);
    stub->addFnAttr(llvm::Attribute::NoUnwind);
    stub->addFnAttr("no-builtins");
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", stub));
    llvm::Value *slot = b.CreateConstInBoundsGEP2_64(tableTy, table, 0, index);
    llvm::Value *target = b.CreateLoad(ptrTy, slot);
    SmallVector<llvm::Value *> args;
    for (auto [arg, type] :
         llvm::zip(stub->args(), signature->target->params()))
      args.push_back(asType(b, &arg, type));
    llvm::CallInst *call = b.CreateCall(signature->target, target, args);
    // 16-bit integers cross the C ABI zero-extended (the runtime's uint16_t).
    for (auto [i, type] : llvm::enumerate(signature->target->params()))
      if (type->isIntegerTy(16))
        call->addParamAttr(i, llvm::Attribute::ZExt);
    if (signature->target->getReturnType()->isIntegerTy(16))
      call->addRetAttr(llvm::Attribute::ZExt);
    call->setTailCall();
    b.CreateRet(asType(b, call, signature->call->getReturnType()));
  }
  return module;
}

static LogicalResult emitObject(Location loc, llvm::Module &module,
                                llvm::TargetMachine &machine,
                                SmallVectorImpl<char> &object) {
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr,
                                  llvm::CodeGenFileType::ObjectFile))
    return emitError(loc, "the target cannot emit object files");
  codegen.run(module);
  return success();
}

//===----------------------------------------------------------------------===//
// Object file and link
//===----------------------------------------------------------------------===//

static FailureOr<std::string> findLinker(Location loc) {
  for (StringRef name : {StringRef(TCC_LLD_PATH), StringRef("ld.lld-19"),
                         StringRef("ld.lld")}) {
    if (name.empty())
      continue;
    if (llvm::sys::fs::can_execute(name))
      return name.str();
    if (auto found = llvm::sys::findProgramByName(name))
      return *found;
  }
  return emitError(loc, "cannot find the linker ld.lld (install lld-19)");
}

/// A temporary file removed when this goes out of scope.
struct TempFile {
  SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

static FailureOr<std::vector<uint8_t>>
linkSharedObject(Location loc, ArrayRef<SmallVector<char, 0>> objects) {
  FailureOr<std::string> linker = findLinker(loc);
  if (failed(linker))
    return failure();
  std::vector<TempFile> inputs(objects.size());
  TempFile output, log;
  if (llvm::sys::fs::createTemporaryFile("tcc-kernels", "so", output.path) ||
      llvm::sys::fs::createTemporaryFile("tcc-link", "log", log.path))
    return emitError(loc, "cannot create temporary files for linking");
  for (auto [input, object] : llvm::zip(inputs, objects)) {
    if (llvm::sys::fs::createTemporaryFile("tcc-kernels", "o", input.path))
      return emitError(loc, "cannot create temporary files for linking");
    std::error_code ec;
    llvm::raw_fd_ostream os(input.path, ec);
    if (ec)
      return emitError(loc, "cannot write ") << input.path << ": " << ec.message();
    os.write(object.data(), object.size());
  }
  // -z defs: any undefined symbol is an error, so kernels import nothing.
  // No build id and stripped symbols keep the bytes reproducible.
  SmallVector<StringRef> args = {*linker,       "-shared",   "-z",  "defs",
                                 "-z",          "noexecstack", "--build-id=none",
                                 "--hash-style=gnu", "-s",   "-o",  output.path};
  for (const TempFile &input : inputs)
    args.push_back(input.path);
  std::optional<StringRef> redirects[] = {std::nullopt, log.path, log.path};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(*linker, args, std::nullopt, redirects, 0,
                                     0, &error);
  if (rc != 0) {
    auto text = llvm::MemoryBuffer::getFile(log.path);
    return emitError(loc, "linking kernels failed: ")
           << (error.empty() && text ? (*text)->getBuffer() : StringRef(error));
  }
  auto bytes = llvm::MemoryBuffer::getFile(output.path, /*IsText=*/false);
  if (!bytes)
    return emitError(loc, "cannot read the linked kernels");
  StringRef data = (*bytes)->getBuffer();
  return std::vector<uint8_t>(data.begin(), data.end());
}

/// Stores every scalar 16-bit float as its i16 bits. LLVM 19's AArch64
/// backend without +bf16 cannot select some bf16 stores (a pre-indexed
/// store of a loaded value: "Cannot select: store<pre-inc>") and aborts;
/// an integer store writes the same bits on every target.
static void storeHalfFloatsAsBits(ModuleOp kernels) {
  SmallVector<LLVM::StoreOp> stores;
  kernels.walk([&](LLVM::StoreOp store) {
    Type type = store.getValue().getType();
    if (isa<FloatType>(type) && type.getIntOrFloatBitWidth() == 16)
      stores.push_back(store);
  });
  for (LLVM::StoreOp store : stores) {
    OpBuilder b(store);
    Value bits = b.create<LLVM::BitcastOp>(store.getLoc(), b.getIntegerType(16),
                                           store.getValue());
    store.getValueMutable().assign(bits);
  }
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

FailureOr<std::vector<CompiledKernel>>
mlir::tcc::lowerKernels(ModuleOp kernels,
                        const std::function<void(PassManager &)> &configure,
                        const CompileProgressFn &progress,
                        const std::function<void(OpPassManager &)> &pipeline) {
  std::vector<CompiledKernel> result;
  for (auto func : kernels.getOps<func::FuncOp>()) {
    if (func.isExternal() || !func.isPublic())
      continue;
    CompiledKernel kernel;
    kernel.symbol = func.getSymName().str();
    kernel.numInputs = func.getNumArguments();
    kernel.numOutputs = func.getNumResults();
    result.push_back(std::move(kernel));
  }
  if (progress)
    progress({CompileProgress::Stage::Lowering, 0, result.size()});
  PassManager pm(kernels.getContext());
  if (configure)
    configure(pm);
  pipeline(pm);
  if (failed(pm.run(kernels)))
    return failure();
  return result;
}

FailureOr<KernelObject>
mlir::tcc::compileKernels(
    ModuleOp kernels, const CpuTarget &target,
    const std::function<void(PassManager &)> &configure,
    const CompileProgressFn &progress) {
  Location loc = kernels.getLoc();
  KernelObject result;
  auto lowered =
      lowerKernels(kernels, configure, progress, buildKernelsToLLVMPipeline);
  if (failed(lowered))
    return failure();
  result.kernels = std::move(*lowered);

  for (CompiledKernel &kernel : result.kernels) {
    auto func = kernels.lookupSymbol<LLVM::LLVMFuncOp>(kernel.symbol);
    if (!func)
      return emitError(loc, "kernel ") << kernel.symbol << " vanished in lowering";
    if (auto tiles = func->getAttrOfType<IntegerAttr>("tcc.tiles"))
      kernel.tiles = tiles.getInt();
    if (auto scratch = func->getAttrOfType<DenseI64ArrayAttr>("tcc.scratch_bytes"))
      kernel.scratchBytes.assign(scratch.asArrayRef().begin(),
                                 scratch.asArrayRef().end());
    // The lowered function keeps its name with an `.impl` suffix; the ABI
    // wrapper takes the kernel's name.
    func.setSymName((kernel.symbol + ".impl"));
    func.setLinkage(LLVM::Linkage::Internal);
  }

  storeHalfFloatsAsBits(kernels);
  registerBuiltinDialectTranslation(*kernels.getContext());
  registerLLVMDialectTranslation(*kernels.getContext());
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(kernels, llvmContext, "tcc_kernels");
  if (!module)
    return emitError(loc, "translation of the kernels to LLVM IR failed");

  initializeLlvmTargets();
  std::string error;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(target.triple, error);
  if (!llvmTarget)
    return emitError(loc, "unknown target triple '") << target.triple << "': " << error;
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      target.triple, target.cpu, target.features, options, llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return emitError(loc, "cannot create a code generator for CPU '")
           << target.cpu << "' on " << target.triple;
  module->setTargetTriple(target.triple);
  module->setDataLayout(machine->createDataLayout());

  for (const CompiledKernel &kernel : result.kernels)
    addKernelWrapper(*module, module->getFunction(kernel.symbol + ".impl"),
                     kernel.symbol);
  addFreestandingHelpers(*module);
  const bool wide = llvm::is_contained(
      llvm::split(llvm::StringRef(target.features), ','), "+avx512f");
  for (llvm::Function &fn : *module) {
    if (fn.isDeclaration())
      continue;
    fn.addFnAttr("target-cpu", target.cpu);
    if (!target.features.empty())
      fn.addFnAttr("target-features", target.features);
    // LLVM keeps to 256-bit vectors on AVX-512 server CPUs (for the clock
    // speed of older ones); the microkernels run on zmm anyway, so the
    // frequency is paid already and the generated kernels should use the
    // width (figures: docs/performance.md, "Measurements behind choices in
    // the code").
    if (wide)
      fn.addFnAttr("prefer-vector-width", "512");
    fn.addFnAttr(llvm::Attribute::NoUnwind);
  }
  optimize(*module, *machine, kernelProgress(result.kernels, progress));

  SmallVector<SmallVector<char, 0>, 2> objects(1);
  if (failed(emitObject(loc, *module, *machine, objects[0])))
    return failure();
  // Calls the backend itself emits (fmaf for llvm.fma on a CPU without FMA)
  // go through the runtime's import table.
  FailureOr<std::vector<std::string>> undefined =
      undefinedSymbols(loc, objects[0]);
  if (failed(undefined))
    return failure();
  if (!undefined->empty()) {
    FailureOr<std::unique_ptr<llvm::Module>> stubs =
        importStubs(loc, llvmContext, *module, *undefined);
    if (failed(stubs) ||
        failed(emitObject(loc, **stubs, *machine, objects.emplace_back())))
      return failure();
    result.imports = std::move(*undefined);
  }
  FailureOr<std::vector<uint8_t>> shared = linkSharedObject(loc, objects);
  if (failed(shared))
    return failure();
  result.sharedObject = std::move(*shared);
  return result;
}
