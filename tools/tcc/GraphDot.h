//===- GraphDot.h - a tcc function as a Graphviz graph ----------*- C++ -*-===//
//
// `tcc viz` draws a model through this: each op a node (its name, location
// and result types), each value an edge from its producer to each user
// labelled with its shape, the function's inputs and outputs as ovals under
// their tcc.name, and each tcc.fusion (what the -O2 graph passes group into
// one kernel or library call) a cluster around the ops it holds.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TOOLS_TCC_GRAPHDOT_H
#define TCC_TOOLS_TCC_GRAPHDOT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace tcc {
namespace tool {

/// The DOT text of `function`'s graph.
std::string graphToDot(mlir::func::FuncOp function);

} // namespace tool
} // namespace tcc

#endif // TCC_TOOLS_TCC_GRAPHDOT_H
