//===- TargetCapabilities.h - What the graph passes ask a target -*- C++ -*-===//
//
// The graph passes run before code generation but decide things only the
// target knows: which ops run as library calls that apply an epilogue, and
// which layout convolutions want. They ask a TargetCapabilities; each code
// generation target (codegen/lib/Targets/<Name>/) provides one, so passes
// never encode one target's kernels.
//
// Passes built by buildGraphPipeline get the capabilities directly. Passes
// named in a textual pipeline (`tcc-opt --tcc-fuse-epilogues=target=NAME`)
// look them up by name here; codegen's registerTargets() fills this table.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_PASSES_TARGETCAPABILITIES_H
#define TCC_PASSES_TARGETCAPABILITIES_H

#include "tcc/Passes/Epilogue.h"

#include "mlir/Support/LogicalResult.h"

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace mlir::tcc {

class TargetCapabilities {
public:
  virtual ~TargetCapabilities() = default;

  /// The registered target's name ("x86_64").
  virtual StringRef name() const = 0;

  /// Whether `op` runs as a library call that applies
  /// act(result + bias + residual) to its output tile (Epilogue.h).
  virtual bool isEpilogueAnchor(Operation *op) const = 0;
  /// Whether those library calls apply `activation`.
  virtual bool appliesActivation(EpilogueActivation activation) const = 0;

  /// Whether convolution and pooling run channels-last (NHWC) on this
  /// target; tcc-convert-layout rewrites NCHW graphs only then.
  virtual bool prefersChannelsLast() const = 0;
  /// Whether an NHWC convolution pays for the transposes around it on this
  /// target (its NCHW convolutions are much slower): tcc-convert-layout then
  /// keeps a conversion of a convolution even where it adds more
  /// transposes than it converts ops.
  virtual bool channelsLastConvolutionsPayTransposes() const { return false; }

  /// Alignment in bytes of every arena buffer and constant (the memory
  /// plan's and the constants segment's).
  virtual uint64_t bufferAlignment() const = 0;
};

/// Makes `capabilities` findable by name; it must outlive every lookup.
/// Registering a name twice keeps the first.
void registerTargetCapabilities(const TargetCapabilities &capabilities);

/// The capabilities registered under `name`, or null.
const TargetCapabilities *lookupTargetCapabilities(StringRef name);

/// The registered names, sorted.
std::vector<std::string> registeredTargetCapabilityNames();

/// For a pass's initialize(): keeps `target` when the pass was built with
/// one, else looks up `name`; an unknown name is an error naming `pass` and
/// listing the registered targets.
LogicalResult resolveTargetCapabilities(MLIRContext *context, StringRef pass,
                                        StringRef name,
                                        const TargetCapabilities *&target);

} // namespace mlir::tcc

#endif // TCC_PASSES_TARGETCAPABILITIES_H
