//===- OnnxTestSupport.h - ONNX models built in tests -----------*- C++ -*-===//
//
// ModelBuilder assembles a ModelProto through the generated protobuf API;
// importError / importOk run the importer on its bytes with a fresh context.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_UNITTESTS_ONNX_ONNXTESTSUPPORT_H
#define TCC_TEST_UNITTESTS_ONNX_ONNXTESTSUPPORT_H

#include "onnx.pb.h"

#include "tcc/Onnx/Import.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tcc_onnx_test {

using ::onnx::TensorProto;

/// A dim of -1 becomes the symbolic dim "N".
constexpr int64_t kSymbolic = -1;

class ModelBuilder {
public:
  explicit ModelBuilder(int64_t opset = 17);

  ::onnx::ValueInfoProto *input(const std::string &name,
                                std::vector<int64_t> dims,
                                int32_t type = TensorProto::FLOAT);
  /// A graph output without a declared type.
  ::onnx::ValueInfoProto *output(const std::string &name);
  ::onnx::NodeProto *node(const std::string &opType,
                          std::vector<std::string> inputs,
                          std::vector<std::string> outputs,
                          const std::string &name = "");
  /// An initializer holding `values` as raw data.
  TensorProto *floats(const std::string &name, std::vector<int64_t> dims,
                      const std::vector<float> &values);
  TensorProto *ints(const std::string &name, std::vector<int64_t> dims,
                    const std::vector<int64_t> &values);
  /// An initializer with a shape and type but no data yet.
  TensorProto *tensor(const std::string &name, std::vector<int64_t> dims,
                      int32_t type = TensorProto::FLOAT);

  ::onnx::ModelProto model;
  ::onnx::GraphProto *graph;
};

void setInt(::onnx::NodeProto *node, const std::string &name, int64_t value);
void setInts(::onnx::NodeProto *node, const std::string &name,
             const std::vector<int64_t> &values);
void setFloat(::onnx::NodeProto *node, const std::string &name, float value);
void setString(::onnx::NodeProto *node, const std::string &name,
               const std::string &value);
TensorProto *setTensor(::onnx::NodeProto *node, const std::string &name);

/// The importer's result on `model`'s bytes.
struct ImportResult {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string error;
};
ImportResult importBytes(mlir::MLIRContext *context, const std::string &bytes,
                         const mlir::tcc::onnx::ImportOptions &options = {},
                         const std::string &modelDir = "");

/// A folder under the system's temporary folder, removed with its contents
/// on destruction.
class TempDir {
public:
  TempDir();
  ~TempDir();
  const std::string &path() const { return path_; }
  /// Writes `bytes` to `name` inside the folder; returns its path.
  std::string write(const std::string &name, const std::string &bytes) const;

private:
  std::string path_;
};

/// The little-endian bytes of `values`.
std::string floatBytes(const std::vector<float> &values);

/// The float contents of the imported function's result `i` when it is a
/// constant.
std::optional<std::vector<float>> resultConstant(mlir::ModuleOp module,
                                                 unsigned i);

/// A fresh context per test, and assertions on importing a built model.
class OnnxImportTest : public testing::Test {
protected:
  /// The error of importing `b`'s model; fails the test when it imports.
  std::string importFails(const ModelBuilder &b,
                          const mlir::tcc::onnx::ImportOptions &options = {});
  /// The module imported from `b`'s model; fails the test when it does not
  /// import (the error is printed).
  mlir::OwningOpRef<mlir::ModuleOp>
  importSucceeds(const ModelBuilder &b,
                 const mlir::tcc::onnx::ImportOptions &options = {});

  mlir::MLIRContext context{mlir::MLIRContext::Threading::DISABLED};
};

} // namespace tcc_onnx_test

#endif // TCC_TEST_UNITTESTS_ONNX_ONNXTESTSUPPORT_H
