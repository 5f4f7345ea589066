//===- ModelReader.h - Reading an ONNX ModelProto with limits ---*- C++ -*-===//

#ifndef TCC_ONNX_LIB_MODELREADER_H
#define TCC_ONNX_LIB_MODELREADER_H

#include "onnx.pb.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tcc::onnx {

/// The largest model file read: protobuf cannot parse a message of 2 GiB
/// or more (larger models keep their weights in external data files).
constexpr uint64_t kMaxModelFileBytes = (uint64_t(1) << 31) - 1;

/// Reads and parses `path` into `*model`; "" or why not (a missing or
/// non-regular file, one too large, bytes that are not a ModelProto).
std::string readModelFile(llvm::StringRef path, ::onnx::ModelProto *model);

/// Parses `bytes`; "" or why not. Nesting (graphs in attributes) is limited
/// by protobuf's recursion limit, so a hostile file cannot exhaust the stack.
std::string parseModel(llvm::StringRef bytes, ::onnx::ModelProto *model);

} // namespace mlir::tcc::onnx

#endif // TCC_ONNX_LIB_MODELREADER_H
