//===- Viz.cpp - tcc viz: draw a model's graph ----------------------------===//

#include "CommandLine.h"
#include "GraphDot.h"
#include "Subcommands.h"

#include "tcc/Codegen/KernelCompiler.h"
#include "tcc/Codegen/Target.h"
#include "tcc/IR/EntryFunction.h"
#include "tcc/Passes/Passes.h"
#include "tcc/Support/InputGuards.h"
#include "tcc/Support/OutOfMemory.h"
#include "tcc/runtime/FileWrite.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdio>

namespace tcc {
namespace tool {

namespace {

const char kHelp[] =
    R"(usage: tcc viz MODEL.ir [-o FILE] [--format svg|dot] [--after-passes]
               [--function NAME] [--allow-bytecode]

Draws the entry function of a tcc module as a graph: each op a box (its
name, tcc.name, source location and result types), each value an edge
labelled with its shape, the inputs and outputs as ovals under their
tcc.name. With --after-passes the graph is drawn after the -O2 graph
passes for this machine's target (what `tcc compile` plans from), each
fused group (tcc.fusion: one kernel or library call) a dashed cluster.
SVG is drawn by Graphviz's `dot`, which must be on PATH
(scripts/install-deps.sh installs graphviz); --format dot writes the DOT
text itself and needs nothing.

options:
  -o FILE            where to write (default: stdout)
  --format F         svg (default) or dot
  --after-passes     draw the graph after the -O2 graph passes
  --function NAME    the function to draw (default: the module's only
                     public function)
  --allow-bytecode   read MODEL.ir as MLIR bytecode (trusted files only)
  --help             this text
)";

struct Options {
  std::string input, output, function, format = "svg";
  bool afterPasses = false, allowBytecode = false;
};

// Runs `dot -Tsvg` on `dotText`; the SVG in *svg, or an error message.
std::string renderSvg(const std::string &dotText, std::string *svg) {
  llvm::ErrorOr<std::string> dot = llvm::sys::findProgramByName("dot");
  if (!dot)
    return "Graphviz's `dot` is not on PATH: install graphviz "
           "(scripts/install-deps.sh does) or write DOT with --format dot";
  llvm::SmallString<128> in, out;
  if (llvm::sys::fs::createTemporaryFile("tcc-viz", "dot", in) ||
      llvm::sys::fs::createTemporaryFile("tcc-viz", "svg", out))
    return "cannot create a temporary file for dot";
  llvm::FileRemover removeIn(in), removeOut(out);
  if (std::string e = runtime::writeFileAtomically(std::string(in),
                                                   dotText.data(),
                                                   dotText.size());
      !e.empty())
    return e;
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(
      *dot, {*dot, "-Tsvg", in.str(), "-o", out.str()}, std::nullopt, {}, 0, 0,
      &message);
  if (rc != 0)
    return "`" + *dot + " -Tsvg` failed" +
           (message.empty() ? " (exit " + std::to_string(rc) + ")"
                            : ": " + message);
  auto buffer = llvm::MemoryBuffer::getFile(out);
  if (!buffer)
    return "cannot read dot's output: " + buffer.getError().message();
  *svg = (*buffer)->getBuffer().str();
  return "";
}

int viz(const Options &options) {
  const char *cmd = "viz";
  mlir::DialectRegistry registry;
  mlir::tcc::registerCodegenDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  if (std::string problem = mlir::tcc::checkInputPath(options.input);
      !problem.empty())
    return fail(cmd, problem);
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(options.input);
  if (!buffer)
    return fail(cmd, "cannot read '" + options.input +
                         "': " + buffer.getError().message());
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::tcc::InputLimits limits;
  limits.allowBytecode = options.allowBytecode;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::tcc::parseModelFile(sourceMgr, &context, limits);
  if (!module)
    return 1;
  std::string error;
  mlir::func::FuncOp entry =
      mlir::tcc::findEntryFunction(*module, options.function, &error);
  if (!entry)
    return fail(cmd, error);

  if (options.afterPasses) {
    mlir::tcc::TargetRequest host;
    host.target = "host";
    auto target = mlir::tcc::resolveTarget(host, &error);
    if (!target)
      return fail(cmd, error);
    mlir::PassManager pm(&context);
    mlir::tcc::buildGraphPipeline(pm, 2, target->capabilities());
    if (mlir::failed(pm.run(*module)))
      return 1;
  }
  std::string text = graphToDot(entry);
  if (options.format == "svg") {
    std::string svg;
    if (std::string e = renderSvg(text, &svg); !e.empty())
      return fail(cmd, e);
    text = std::move(svg);
  }
  if (options.output.empty() || options.output == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  std::string writeError =
      runtime::writeFileAtomically(options.output, text.data(), text.size());
  return writeError.empty() ? 0 : fail(cmd, writeError);
}

} // namespace

int vizMain(int argc, char **argv) {
  const char *cmd = "viz";
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
    } else if (args.option(arg, "--format", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      if (value != "svg" && value != "dot")
        return fail(cmd, "--format '" + value + "' is not svg or dot");
      options.format = value;
    } else if (args.option(arg, "--function", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      options.function = value;
    } else if (arg == "--after-passes") {
      options.afterPasses = true;
    } else if (arg == "--allow-bytecode") {
      options.allowBytecode = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return fail(cmd, "unknown option '" + arg + "' (see tcc viz --help)");
    } else if (options.input.empty()) {
      options.input = arg;
    } else {
      return fail(cmd, "unexpected argument '" + arg + "'");
    }
  }
  if (options.input.empty())
    return fail(cmd, "no input given (usage: tcc viz MODEL.ir -o GRAPH.svg)");
  if (!options.output.empty() &&
      runtime::isSameFile(options.input, options.output))
    return fail(cmd, "-o " + options.output + " is the input file");
  mlir::tcc::installOutOfMemoryHandlers("tcc viz");
  return mlir::tcc::runWithLargeStack([&] { return viz(options); });
}

} // namespace tool
} // namespace tcc
