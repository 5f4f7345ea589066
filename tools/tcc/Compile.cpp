//===- Compile.cpp - tcc compile: model.ir to model.bin -------------------===//

#include "CommandLine.h"
#include "CompileProgress.h"
#include "OnnxInput.h"
#include "Subcommands.h"
#include "Verify.h"

#include "tcc/Codegen/CpuTarget.h"
#include "tcc/Codegen/KernelCompiler.h"
#include "tcc/Codegen/ModelCompiler.h"
#include "tcc/Codegen/Target.h"
#include "tcc/Support/InputGuards.h"
#include "tcc/Support/OutOfMemory.h"
#include "tcc/runtime/CpuFeatures.h"
#include "tcc/runtime/FileWrite.h"
#include "tcc/runtime/Signing.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>

#include <unistd.h>

namespace tcc {
namespace tool {

namespace {

const char kHelp[] =
    R"(usage: tcc compile MODEL.ir -o MODEL.bin [options]
       tcc compile MODEL.onnx -o MODEL.bin [--input-shape NAME=DxDx...] [options]

Compiles the entry function (the one --function names, else the module's
only public function) of a tcc module (text, or MLIR bytecode with
--allow-bytecode) into a model artifact that libtcc_runtime loads and runs.
An ONNX model (a file ending in .onnx) is imported first, as `tcc import`
does (see tcc import --help).

options:
  -o FILE                  the artifact to write (required)
  --function=NAME          the function to compile (default: the module's
                           only public function; several are an error)
  --target=NAME            the target to compile for: x86_64, aarch64 or
                           cuda (the registered ones), or cpu (default) for
                           this machine's
  --gpu=ARCH[,ARCH...]     cuda: the GPU architectures to compile for
                           (sm_80, sm_86, sm_87, sm_89, sm_90; default
                           sm_80; repeatable): PTX for each, and a cubin for
                           each where ptxas is found (docs/cuda.md)
  --allow-tf32             cuda: fp32 GEMMs (the sgemm steps) may round
                           their operands to TF32 (cuBLASLt's fast TF32
                           compute; accumulation stays fp32)
  --cuda-conv=gemm|direct  cuda: fp32 convolutions of one group as an
                           im2col kernel and a cuBLASLt GEMM with the
                           epilogue fused (gemm, the default: provisional
                           until measured on a GPU), or as a generated
                           kernel, one thread per output element (direct)
  --precision=bf16|fp16    cuda: matmuls, linears and convolutions in that
                           precision, their constant weights converted at
                           compile time; reductions, softmax, norms and
                           elementwise ops stay fp32 (autocast's rules)
  --cpu=NAME               the CPU to generate code for (default: this
                           machine's when the target is, else the target's
                           baseline: x86-64, or generic, ARMv8-A with NEON,
                           for aarch64; e.g. x86-64-v3, znver4, neoverse-n1,
                           cortex-a76); an unknown name lists the valid ones
  --features=+A,-B         CPU features to add or remove (LLVM's names, e.g.
                           +avx2,-avx512f or +dotprod,+i8mm; `tcc host`
                           lists this machine's)
  --target-triple=TRIPLE   the triple (default: the target's,
                           x86_64-unknown-linux-gnu or
                           aarch64-unknown-linux-gnu; its architecture names
                           the target)
  -O0, -O2                 optimization level (default -O2): -O0 compiles
                           each op as its own kernel, -O2 runs the graph
                           passes (tcc-graph-O2: fusion, ...) first
  --print-ir-after-all     print the IR after every pass (to stderr)
  --time-passes            report the time each pass took (to stderr)
  --progress               show each stage and each kernel as the compile
                           reaches it ([3/4] compiling kernel 12/37 (name))
                           on stderr; the default when stderr is a terminal
  --no-progress            do not show them
  --no-microkernels        generate fp32 matmuls instead of calling tcc_sgemm
  --stats                  print what the compile produced
  --input-shape NAME=DxDx...
                           the full shape of ONNX input NAME, for inputs
                           with symbolic or unknown dims (repeatable)
  --input-value NAME=FILE.npy
                           import ONNX input NAME as a constant holding the
                           array in FILE.npy (for inputs that decide shapes)
  --allow-bytecode         read MODEL.ir as MLIR bytecode; for trusted files
                           only (MLIR's bytecode reader is not hardened
                           against corrupted files)
  --verify                 run the artifact and the reference interpreter on
                           the same seeded inputs (floats uniform on [-1, 1),
                           integers 0 or 1, random bools) and compare the
                           outputs: within 1e-4 of max(|x|, 1) for f32/f64,
                           2e-2 for f16/bf16, exactly otherwise. On a
                           divergence it recompiles with every intermediate
                           value as an output to find the first op whose value
                           diverges, names the kernel (plan step) computing it
                           and that kernel's source ops, and at -O2 recompiles
                           at -O0 to tell whether fusion caused it; exits 1.
                           Refused for a target this machine cannot run
  --verify-seed=N          the seed of --verify's inputs (default 1)
  --sign=KEY               sign the artifact with the Ed25519 key in file
                           KEY: a 64-byte libsodium secret key or a 32-byte
                           seed (needs libsodium.so.23); loaders given the
                           public key (--public-key) refuse anything else
  --help                   this text
)";

struct Options {
  std::string input, output, function, signingKey;
  mlir::tcc::TargetRequest target;
  std::string precision; // --precision: "", bf16 or fp16
  int optLevel = 2;
  bool microkernels = true, stats = false, printIR = false, timePasses = false;
  bool verify = false, allowBytecode = false;
  mlir::tcc::onnx::ImportOptions onnx; // MODEL.onnx: --input-shape
  std::vector<std::string> inputValues; // MODEL.onnx: --input-value
  std::optional<bool> progress; // unset: when stderr is a terminal
  unsigned verifySeed = 1;
  std::string testingMiscompile; // hidden, for tests of --verify
  bool testingMiscompileOnlyAtO2 = false;
};

int compile(const Options &options) {
  const char *cmd = "compile";
  mlir::DialectRegistry registry;
  mlir::tcc::registerCodegenDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);

  if (runtime::isSameFile(options.input, options.output))
    return fail(cmd, "-o " + options.output + " is the input file; name "
                     "another file for the artifact");
  if (std::string problem = mlir::tcc::checkInputPath(options.input);
      !problem.empty())
    return fail(cmd, problem);
  // A key that cannot sign fails before the compile, not after.
  runtime::SigningKey key;
  if (!options.signingKey.empty())
    if (runtime::Status s = runtime::readSigningKey(options.signingKey, &key);
        !s.ok())
      return fail(cmd, "--sign: " + s.message());
  // The handler lives as long as the compile: later diagnostics point into
  // the IR text too.
  llvm::SourceMgr sourceMgr;
  std::optional<mlir::SourceMgrDiagnosticHandler> diagnostics;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (mlir::tcc::onnx::isOnnxPath(options.input)) {
    mlir::tcc::onnx::ImportOptions onnx = options.onnx;
    for (const std::string &value : options.inputValues)
      if (std::string error = addInputValue(value, &context, &onnx);
          !error.empty())
        return fail(cmd, error);
    module = importOnnxForTool(cmd, &context, options.input, onnx);
  } else {
    if (!options.onnx.inputShapes.empty() || !options.inputValues.empty())
      return fail(cmd, "--input-shape and --input-value apply to ONNX models "
                       "(MODEL.onnx) only");
    mlir::tcc::ToolStage reading("reading the IR");
    auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(options.input);
    if (!buffer)
      return fail(cmd, "cannot read '" + options.input +
                           "': " + buffer.getError().message());
    sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
    diagnostics.emplace(sourceMgr, &context);
    mlir::tcc::ToolStage parsing("parsing the IR");
    module = mlir::tcc::parseModelFile(sourceMgr, &context, [&] {
      mlir::tcc::InputLimits limits;
      limits.allowBytecode = options.allowBytecode;
      return limits;
    }());
  }
  if (!module)
    return 1;

  mlir::tcc::ModelCompileOptions compileOptions;
  std::string targetError;
  compileOptions.target =
      mlir::tcc::resolveTarget(options.target, &targetError);
  if (!compileOptions.target)
    return fail(cmd, targetError);
  // --verify runs the artifact here: refuse up front a target this
  // machine's runtime cannot load rather than after compiling for it.
  std::string targetArch = mlir::tcc::llvmArchOf(
      compileOptions.target->codeIdentity().triple);
  if (options.verify && targetArch != runtime::hostCpuArch())
    return fail(cmd, "--verify runs the model on this machine, which is " +
                         std::string(runtime::hostCpuArch()) +
                         " and cannot run " + targetArch +
                         " code; compile without --verify (and check the "
                         "artifact on an " + targetArch + " machine)");
  // Autocast's rules are CUDA's; CPU targets have no fast bf16/fp16 GEMM.
  if (!options.precision.empty() &&
      compileOptions.target->capabilities().name() != "cuda")
    return fail(cmd, "--precision applies to the cuda target, not to " +
                         compileOptions.target->capabilities().name().str());
  compileOptions.precision = options.precision;
  compileOptions.function = options.function;
  compileOptions.useMicrokernels = options.microkernels;
  compileOptions.optLevel = options.optLevel;
  // Stages: the compiler's three, verifying, writing.
  std::unique_ptr<CompileProgressPrinter> progress;
  bool terminal = isatty(STDERR_FILENO);
  if (options.progress.value_or(terminal)) {
    progress = std::make_unique<CompileProgressPrinter>(
        options.optLevel, options.verify ? 5 : 4, terminal);
    compileOptions.progress = [&](const mlir::tcc::CompileProgress &p) {
      progress->report(p);
    };
  }
  compileOptions.configurePassManager = [&](mlir::PassManager &pm) {
    if (options.printIR) {
      context.disableMultithreading();
      pm.enableIRPrinting();
    }
    if (options.timePasses)
      pm.enableTiming();
  };
  // --verify needs the module as it was: compileModel lowers it in place.
  mlir::OwningOpRef<mlir::ModuleOp> source;
  if (options.verify)
    source = module->clone();
  VerifyOptions verify;
  verify.testingMiscompile = options.testingMiscompile;
  verify.testingMiscompileOnlyAtO2 = options.testingMiscompileOnlyAtO2;
  if (miscompiles(verify, options.optLevel)) {
    std::string error =
        applyTestingMiscompile(*module, options.testingMiscompile);
    if (!error.empty())
      return fail(cmd, error);
  }
  mlir::tcc::ModelCompileStats stats;
  mlir::tcc::ToolStage compiling("compiling the model");
  mlir::FailureOr<std::vector<uint8_t>> bytes =
      mlir::tcc::compileModel(*module, compileOptions, &stats);
  if (mlir::failed(bytes))
    return 1;
  if (!options.signingKey.empty())
    if (runtime::Status s = runtime::signArtifact(&*bytes, key); !s.ok())
      return fail(cmd, "--sign: " + s.message());

  if (options.stats)
    std::printf("kernels %zu, library calls %zu, copies %zu, arena %llu bytes "
                "(intermediates %llu), file %zu bytes\n",
                stats.kernels, stats.libraryCalls, stats.copies,
                (unsigned long long)stats.arenaBytes,
                (unsigned long long)stats.intermediateBytes, bytes->size());
  if (options.verify) {
    verify.compile = compileOptions;
    verify.seed = options.verifySeed;
    // The compiles --verify makes to bisect report nothing.
    verify.compile.progress = nullptr;
    if (progress)
      progress->stage(4, "verifying the artifact");
    mlir::tcc::ToolStage verifying("verifying the artifact");
    std::fflush(stdout);
    std::string error = verifyArtifact(*source, *bytes, verify);
    std::fflush(stdout);
    if (!error.empty())
      return fail(cmd, "--verify: " + error + " (" + options.output +
                           " not written)");
  }
  // Whole or not at all, and only once verified: a failed compile, signing,
  // verify or write leaves an existing file as it was.
  if (progress)
    progress->stage(options.verify ? 5 : 4, "writing " + options.output);
  mlir::tcc::ToolStage writing("writing the artifact");
  std::string writeError =
      runtime::writeFileAtomically(options.output, bytes->data(), bytes->size());
  if (!writeError.empty())
    return fail(cmd, writeError);
  return 0;
}

} // namespace

int compileMain(int argc, char **argv) {
  const char *cmd = "compile";
  CommandLine args(argc, argv);
  Options options;
  std::string value, error;
  while (!args.done()) {
    std::string arg = args.next();
    if (arg == "--help" || arg == "-h") {
      printHelp(kHelp);
      return 0;
    }
    if (arg == "-o") {
      if (args.done())
        return fail(cmd, "-o needs a file name");
      options.output = args.next();
    } else if (args.option(arg, "--target-triple", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      options.target.triple = value;
    } else if (args.option(arg, "--target", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      options.target.target = value;
    } else if (args.option(arg, "--function", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      options.function = value;
    } else if (args.option(arg, "--cpu", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      options.target.cpu = value;
    } else if (args.option(arg, "--gpu", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      options.target.gpu += (options.target.gpu.empty() ? "" : ",") + value;
    } else if (args.option(arg, "--features", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      options.target.features = value;
    } else if (arg == "-O0" || arg == "-O2") {
      options.optLevel = arg == "-O0" ? 0 : 2;
    } else if (arg == "--print-ir-after-all") {
      options.printIR = true;
    } else if (arg == "--time-passes") {
      options.timePasses = true;
    } else if (arg == "--progress" || arg == "--no-progress") {
      options.progress = arg == "--progress";
    } else if (arg == "--no-microkernels") {
      options.microkernels = false;
    } else if (args.option(arg, "--input-shape", &value, &error)) {
      if (error.empty())
        error = addInputShape(value, &options.onnx);
      if (!error.empty())
        return fail(cmd, error);
    } else if (args.option(arg, "--input-value", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      options.inputValues.push_back(value);
    } else if (arg == "--allow-bytecode") {
      options.allowBytecode = true;
    } else if (arg == "--allow-tf32") {
      options.target.allowTf32 = true;
    } else if (args.option(arg, "--cuda-conv", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      options.target.cudaConv = value;
    } else if (args.option(arg, "--precision", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      if (value != "bf16" && value != "fp16")
        return fail(cmd, "--precision takes bf16 or fp16, not '" + value +
                             "'");
      options.precision = value;
    } else if (arg == "--stats") {
      options.stats = true;
    } else if (arg == "--verify") {
      options.verify = true;
    } else if (args.option(arg, "--sign", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      options.signingKey = value;
    } else if (args.option(arg, "--verify-seed", &value, &error)) {
      int64_t seed = 0;
      if (error.empty() &&
          !CommandLine::parsePositive(value, "--verify-seed", &seed, &error))
        return fail(cmd, error);
      if (!error.empty() || seed > UINT32_MAX)
        return fail(cmd, error.empty()
                             ? "--verify-seed=" + value + " is too large"
                             : error);
      options.verifySeed = static_cast<unsigned>(seed);
    } else if (args.option(arg, "--testing-miscompile-at-O2", &value, &error)) {
      // Not in --help: the same, in -O2 compiles only.
      if (!error.empty())
        return fail(cmd, error);
      options.testingMiscompile = value;
      options.testingMiscompileOnlyAtO2 = true;
    } else if (args.option(arg, "--testing-miscompile", &value, &error)) {
      // Not in --help: makes the artifact diverge, for tests of --verify.
      if (!error.empty())
        return fail(cmd, error);
      options.testingMiscompile = value;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return fail(cmd, "unknown option '" + arg + "' (see tcc compile --help)");
    } else if (options.input.empty()) {
      options.input = arg;
    } else {
      return fail(cmd, "unexpected argument '" + arg + "'");
    }
  }
  if (options.input.empty())
    return fail(cmd,
                "no input given (usage: tcc compile MODEL.ir -o MODEL.bin)");
  if (options.output.empty())
    return fail(cmd, "no output given: add -o MODEL.bin");
  mlir::tcc::installOutOfMemoryHandlers("tcc compile");
  return mlir::tcc::runWithLargeStack([&] { return compile(options); });
}

} // namespace tool
} // namespace tcc
