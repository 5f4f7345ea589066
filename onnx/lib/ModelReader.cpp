//===- ModelReader.cpp - Reading an ONNX ModelProto with limits -----------===//

#include "ModelReader.h"

#include "tcc/Support/InputGuards.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "llvm/Support/MemoryBuffer.h"

#include <climits>

using namespace mlir::tcc;

std::string mlir::tcc::onnx::parseModel(llvm::StringRef bytes,
                             ::onnx::ModelProto *model) {
  if (bytes.size() > kMaxModelFileBytes)
    return "the model has " + std::to_string(bytes.size()) +
           " bytes; protobuf reads at most " +
           std::to_string(kMaxModelFileBytes) +
           " (keep larger weights in external data files)";
  google::protobuf::io::ArrayInputStream array(bytes.data(),
                                               static_cast<int>(bytes.size()));
  google::protobuf::io::CodedInputStream stream(&array);
  stream.SetTotalBytesLimit(INT_MAX);
  stream.SetRecursionLimit(64);
  if (!model->ParseFromCodedStream(&stream) ||
      !stream.ConsumedEntireMessage())
    return "not a valid ONNX model (the protobuf is truncated or malformed, "
           "or nests deeper than 64 levels)";
  if (!model->has_graph())
    return "the model has no graph";
  return "";
}

std::string mlir::tcc::onnx::readModelFile(llvm::StringRef path,
                                ::onnx::ModelProto *model) {
  if (path == "-")
    return "ONNX models are read from files, not standard input (external "
           "data is found beside the file)";
  if (std::string problem = checkInputPath(path); !problem.empty())
    return problem;
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return "cannot read '" + path.str() + "': " + buffer.getError().message();
  std::string problem = parseModel((*buffer)->getBuffer(), model);
  return problem.empty() ? "" : "'" + path.str() + "': " + problem;
}
