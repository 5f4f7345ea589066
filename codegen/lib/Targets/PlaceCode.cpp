//===- PlaceCode.cpp - How a CPU target's code goes into the artifact -----===//

#include "tcc/Codegen/Target.h"

#include "../ArtifactDraft.h"

using namespace mlir::tcc;

void Target::placeCode(ArtifactDraft &artifact, KernelObject object,
                       uint64_t arenaBytes) const {
  ::tcc::runtime::ArtifactBuilder &builder = artifact.builder;
  CodeModuleIdentity code = codeIdentity();
  builder.model().arena_bytes = arenaBytes;
  builder.model().target_triple = code.triple;
  builder.model().cpu = code.cpu;
  builder.model().cpu_features = code.requiredFeatures;
  builder.model().imports = std::move(object.imports);
  builder.setCode(std::move(object.sharedObject));
}
