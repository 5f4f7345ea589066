//===- TensorFile.cpp - ONNX TensorProto files as constant data -----------===//

#include "tcc/Onnx/TensorFile.h"

#include "ModelReader.h"
#include "TensorData.h"

#include "llvm/Support/MemoryBuffer.h"

std::string mlir::tcc::onnx::readTensorFile(MLIRContext *context,
                                            StringRef path, ConstantData *out,
                                            std::string *name) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return "cannot read '" + path.str() + "': " + buffer.getError().message();
  StringRef bytes = (*buffer)->getBuffer();
  ::onnx::TensorProto tensor;
  if (bytes.size() > kMaxModelFileBytes ||
      !tensor.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return "'" + path.str() + "' is not a serialized ONNX TensorProto";
  if (name)
    *name = tensor.name();
  // Test data never has external data: refuse it rather than resolve paths.
  if (tensor.data_location() == ::onnx::TensorProto::EXTERNAL)
    return "'" + path.str() + "' refers to external data";
  std::string problem = readTensor(context, tensor, /*modelDir=*/"", out);
  return problem.empty() ? "" : "'" + path.str() + "': " + problem;
}
