//===- ArtifactDraft.h - The artifact a compile writes ----------*- C++ -*-===//
//
// What Target::placeCode receives: the runtime's artifact builder, behind a
// name of the compiler's namespace so that Target.h needs no runtime header
// (and no global `tcc` namespace beside mlir::tcc in the files that use it).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_LIB_ARTIFACTDRAFT_H
#define TCC_CODEGEN_LIB_ARTIFACTDRAFT_H

#include "tcc/runtime/ArtifactBuilder.h"

namespace mlir::tcc {

struct ArtifactDraft {
  ::tcc::runtime::ArtifactBuilder &builder;
};

} // namespace mlir::tcc

#endif // TCC_CODEGEN_LIB_ARTIFACTDRAFT_H
