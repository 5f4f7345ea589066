//===- Epilogue.h - GEMM/convolution epilogues the runtime fuses -*- C++ -*-===//
//
// One description of what the runtime's fp32 microkernels can apply to an
// output tile, shared by the pass that forms epilogue groups and the code
// generator that turns them into library calls.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_PASSES_EPILOGUE_H
#define TCC_PASSES_EPILOGUE_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::tcc {

/// The runtime's tcc_activation, value for value (one list: Activations.def).
enum class EpilogueActivation {
#define TCC_ACTIVATION(Name, NAME, value) Name = value,
#include "tcc/runtime/Activations.def"
#undef TCC_ACTIVATION
};

/// act(anchor + bias + residual) over the anchor's output.
struct Epilogue {
  Operation *anchor = nullptr; // f32 tcc.matmul, tcc.linear or tcc.conv2d
  Value bias;                  // per output channel, or null
  Value residual;              // the output's shape, or null
  EpilogueActivation activation = EpilogueActivation::None;
  double clampMin = 0, clampMax = 0;
  SmallVector<Operation *> ops; // anchor first, then the chain
};

/// Whether `op` can anchor an epilogue: an fp32 matmul, linear or conv2d.
bool isEpilogueAnchor(Operation *op);

/// The longest chain after `anchor` that fits the epilogue, following each
/// value's single user. `usersOk(op)` decides whether an op may join.
Epilogue matchEpilogue(Operation *anchor);

/// The epilogue of a group of ops (in order, anchor first), or nullopt when
/// the group is not exactly an anchor and a chain that fits.
std::optional<Epilogue> matchEpilogueGroup(ArrayRef<Operation *> ops);

} // namespace mlir::tcc

#endif // TCC_PASSES_EPILOGUE_H
