//===- ExternalData.h - Reading tensor bytes from side files ----*- C++ -*-===//
//
// An initializer with data_location EXTERNAL names a file, an offset and a
// length. ONNX's own loaders followed such paths out of the model's folder
// (CVE-2022-25882, CVE-2024-27318); here every path stays inside it:
// absolute paths, `..` components and symlinks resolving outside the folder
// are refused, and the offset and length are checked against the file.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_ONNX_LIB_EXTERNALDATA_H
#define TCC_ONNX_LIB_EXTERNALDATA_H

#include "onnx.pb.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tcc::onnx {

/// Reads `expectedBytes` bytes of `tensor`'s external data, relative to
/// `modelDir` (empty: external data is refused), into `*out`; "" or why not.
std::string readExternalData(const ::onnx::TensorProto &tensor,
                             const std::string &modelDir,
                             uint64_t expectedBytes, std::vector<char> *out);

/// "" when `location` is a relative path of plain components inside
/// `modelDir` (after resolving symlinks), naming a regular file; else why
/// not. `*resolved` gets the path to open.
std::string resolveExternalPath(const std::string &location,
                                const std::string &modelDir,
                                std::string *resolved);

} // namespace mlir::tcc::onnx

#endif // TCC_ONNX_LIB_EXTERNALDATA_H
