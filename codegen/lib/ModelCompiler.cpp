//===- ModelCompiler.cpp - A tcc module to a model artifact ---------------===//

#include "tcc/Codegen/ModelCompiler.h"
#include "Planner.h"
#include "tcc/Codegen/Target.h"
#include "tcc/IR/EntryFunction.h"
#include "tcc/Passes/Passes.h"

using namespace mlir;
using namespace mlir::tcc;

FailureOr<func::FuncOp> mlir::tcc::findEntryFunction(ModuleOp module,
                                                     StringRef name) {
  std::string error;
  func::FuncOp entry = findEntryFunction(module, name, &error);
  if (!entry)
    return module.emitError(error);
  return entry;
}

FailureOr<std::vector<uint8_t>>
mlir::tcc::compileModel(ModuleOp module, const ModelCompileOptions &options,
                  ModelCompileStats *stats) {
  std::shared_ptr<const Target> target = options.target;
  if (!target) {
    TargetRequest host;
    host.target = "host";
    std::string error;
    target = resolveTarget(host, &error);
    if (!target)
      return module.emitError("cannot compile for this machine: ") << error;
  }
  // Chosen first, so that a module without one fails before the passes;
  // they rewrite the function in place.
  FailureOr<func::FuncOp> entry = findEntryFunction(module, options.function);
  if (failed(entry))
    return failure();
  PassManager graph(module.getContext());
  if (options.configurePassManager)
    options.configurePassManager(graph);
  if (!options.precision.empty()) {
    graph.addNestedPass<func::FuncOp>(
        createTccAutocast(TccAutocastOptions{options.precision}));
    graph.addNestedPass<func::FuncOp>(createTccFoldConstants());
  }
  buildGraphPipeline(graph, options.optLevel, target->capabilities());
  if (options.progress)
    options.progress({CompileProgress::Stage::GraphPasses});
  if (failed(graph.run(module)))
    return failure();
  return planModel(*entry, *target, options, stats);
}
