//===- ArtifactTypes.h - tcc types and constants as artifact bytes -*- C++ -*-===//
//
// How the planner writes values into the artifact: element types as its
// DType, sizes in bytes (a bool takes a byte), constants as dense
// row-major bytes.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_ARTIFACTTYPES_H
#define TCC_CODEGEN_ARTIFACTTYPES_H

#include "tcc/runtime/artifact_generated.h"

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <vector>

namespace mlir::tcc {

/// The artifact's name for `type`, or nullopt for types it cannot hold.
std::optional<::tcc::artifact::DType> toDType(Type type);

/// Bytes per element in buffers; bool takes a byte.
uint64_t elementBytes(Type type);

/// Bytes of a dense row-major buffer of `type`.
uint64_t byteSize(ShapedType type);

/// The dense row-major bytes of a constant, bools one byte each.
std::vector<uint8_t> constantBytes(ElementsAttr value);

} // namespace mlir::tcc

#endif // TCC_CODEGEN_ARTIFACTTYPES_H
