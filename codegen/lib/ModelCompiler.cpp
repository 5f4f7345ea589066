//===- ModelCompiler.cpp - A tcc module to a model artifact ---------------===//

#include "tcc/Codegen/ModelCompiler.h"
#include "Planner.h"
#include "tcc/Codegen/Target.h"
#include "tcc/Passes/Passes.h"

using namespace mlir;
using namespace mlir::tcc;

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
  PassManager graph(module.getContext());
  if (options.configurePassManager)
    options.configurePassManager(graph);
  buildGraphPipeline(graph, options.optLevel, target->capabilities());
  if (failed(graph.run(module)))
    return failure();
  FailureOr<func::FuncOp> entry = findEntryFunction(module);
  if (failed(entry))
    return failure();
  return planModel(*entry, *target, options, stats);
}
