//===- ExternalData.cpp - Reading tensor bytes from side files ------------===//

#include "ExternalData.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fstream>

using namespace mlir::tcc;

std::string mlir::tcc::onnx::resolveExternalPath(const std::string &location,
                                      const std::string &modelDir,
                                      std::string *resolved) {
  if (location.empty())
    return "its external data has no location";
  if (location.find('\0') != std::string::npos)
    return "its external data location contains a NUL byte";
  if (llvm::sys::path::is_absolute(location) || location[0] == '/' ||
      location[0] == '\\')
    return "its external data location '" + location +
           "' is an absolute path; it must be relative to the model's folder";
  for (auto it = llvm::sys::path::begin(location),
            end = llvm::sys::path::end(location);
       it != end; ++it)
    if (*it == "..")
      return "its external data location '" + location +
             "' contains '..'; it must stay inside the model's folder";
  if (location.find('\\') != std::string::npos)
    return "its external data location '" + location +
           "' contains a backslash; use '/' between folder names";
  llvm::SmallString<256> dirReal, fileReal;
  if (llvm::sys::fs::real_path(modelDir, dirReal))
    return "cannot resolve the model's folder '" + modelDir + "'";
  llvm::SmallString<256> joined(dirReal);
  llvm::sys::path::append(joined, location);
  if (std::error_code ec = llvm::sys::fs::real_path(joined, fileReal))
    return "cannot open its external data file '" + location +
           "': " + ec.message();
  llvm::StringRef dir = dirReal.str(), file = fileReal.str();
  if (!file.starts_with(dir) || file.size() <= dir.size() ||
      !llvm::sys::path::is_separator(file[dir.size()]))
    return "its external data file '" + location +
           "' resolves (through a symlink) to '" + file.str() +
           "', outside the model's folder";
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(fileReal, status) ||
      status.type() != llvm::sys::fs::file_type::regular_file)
    return "its external data file '" + location + "' is not a regular file";
  *resolved = file.str();
  return "";
}

namespace {
/// A non-negative decimal integer without sign or spaces; false otherwise.
bool parseUnsigned(const std::string &text, uint64_t *value) {
  if (text.empty() || text.size() > 19)
    return false;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    v = v * 10 + uint64_t(c - '0');
  }
  *value = v;
  return true;
}
} // namespace

std::string mlir::tcc::onnx::readExternalData(const ::onnx::TensorProto &tensor,
                                   const std::string &modelDir,
                                   uint64_t expectedBytes,
                                   std::vector<char> *out) {
  if (modelDir.empty())
    return "it keeps its data in an external file, and the model was not "
           "read from a file";
  std::string location;
  uint64_t offset = 0, length = 0;
  bool hasLength = false;
  for (const ::onnx::StringStringEntryProto &entry : tensor.external_data()) {
    if (entry.key() == "location") {
      location = entry.value();
    } else if (entry.key() == "offset") {
      if (!parseUnsigned(entry.value(), &offset))
        return "its external data offset '" + entry.value() +
               "' is not a non-negative integer";
    } else if (entry.key() == "length") {
      if (!parseUnsigned(entry.value(), &length))
        return "its external data length '" + entry.value() +
               "' is not a non-negative integer";
      hasLength = true;
    }
  }
  std::string path;
  if (std::string problem = resolveExternalPath(location, modelDir, &path);
      !problem.empty())
    return problem;
  if (hasLength && length != expectedBytes)
    return "its external data length is " + std::to_string(length) +
           " bytes, but its shape and type need " +
           std::to_string(expectedBytes);
  uint64_t fileSize = 0;
  if (llvm::sys::fs::file_size(path, fileSize))
    return "cannot read the size of its external data file '" + location + "'";
  if (offset > fileSize || expectedBytes > fileSize - offset)
    return "its external data (offset " + std::to_string(offset) + ", " +
           std::to_string(expectedBytes) + " bytes) runs past the end of '" +
           location + "' (" + std::to_string(fileSize) + " bytes)";
  std::ifstream file(path, std::ios::binary);
  out->resize(expectedBytes);
  file.seekg(static_cast<std::streamoff>(offset));
  if (!file.read(out->data(), static_cast<std::streamsize>(expectedBytes)))
    return "cannot read its external data from '" + location + "'";
  return "";
}
