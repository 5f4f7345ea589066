//===- OnnxTestSupport.cpp - ONNX models built in tests -------------------===//

#include "OnnxTestSupport.h"

#include "tcc/IR/TccOps.h"
#include "tcc/Passes/ConstantData.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace tcc_onnx_test;

ModelBuilder::ModelBuilder(int64_t opset) : graph(model.mutable_graph()) {
  model.set_ir_version(8);
  auto *entry = model.add_opset_import();
  entry->set_domain("");
  entry->set_version(opset);
  graph->set_name("test");
}

::onnx::ValueInfoProto *ModelBuilder::input(const std::string &name,
                                            std::vector<int64_t> dims,
                                            int32_t type) {
  auto *info = graph->add_input();
  info->set_name(name);
  auto *tensorType = info->mutable_type()->mutable_tensor_type();
  tensorType->set_elem_type(type);
  auto *shape = tensorType->mutable_shape();
  for (int64_t d : dims) {
    if (d == kSymbolic)
      shape->add_dim()->set_dim_param("N");
    else
      shape->add_dim()->set_dim_value(d);
  }
  return info;
}

::onnx::ValueInfoProto *ModelBuilder::output(const std::string &name) {
  auto *info = graph->add_output();
  info->set_name(name);
  return info;
}

::onnx::NodeProto *ModelBuilder::node(const std::string &opType,
                                      std::vector<std::string> inputs,
                                      std::vector<std::string> outputs,
                                      const std::string &name) {
  auto *n = graph->add_node();
  n->set_op_type(opType);
  n->set_name(name);
  for (const std::string &in : inputs)
    n->add_input(in);
  for (const std::string &out : outputs)
    n->add_output(out);
  return n;
}

TensorProto *ModelBuilder::tensor(const std::string &name,
                                  std::vector<int64_t> dims, int32_t type) {
  TensorProto *t = graph->add_initializer();
  t->set_name(name);
  t->set_data_type(type);
  for (int64_t d : dims)
    t->add_dims(d);
  return t;
}

TensorProto *ModelBuilder::floats(const std::string &name,
                                  std::vector<int64_t> dims,
                                  const std::vector<float> &values) {
  TensorProto *t = tensor(name, std::move(dims), TensorProto::FLOAT);
  t->set_raw_data(floatBytes(values));
  return t;
}

TensorProto *ModelBuilder::ints(const std::string &name,
                                std::vector<int64_t> dims,
                                const std::vector<int64_t> &values) {
  TensorProto *t = tensor(name, std::move(dims), TensorProto::INT64);
  for (int64_t v : values)
    t->add_int64_data(v);
  return t;
}

namespace {
::onnx::AttributeProto *addAttr(::onnx::NodeProto *node,
                                const std::string &name,
                                ::onnx::AttributeProto::AttributeType type) {
  auto *a = node->add_attribute();
  a->set_name(name);
  a->set_type(type);
  return a;
}
} // namespace

void tcc_onnx_test::setInt(::onnx::NodeProto *node, const std::string &name,
                           int64_t value) {
  addAttr(node, name, ::onnx::AttributeProto::INT)->set_i(value);
}

void tcc_onnx_test::setInts(::onnx::NodeProto *node, const std::string &name,
                            const std::vector<int64_t> &values) {
  auto *a = addAttr(node, name, ::onnx::AttributeProto::INTS);
  for (int64_t v : values)
    a->add_ints(v);
}

void tcc_onnx_test::setFloat(::onnx::NodeProto *node, const std::string &name,
                             float value) {
  addAttr(node, name, ::onnx::AttributeProto::FLOAT)->set_f(value);
}

void tcc_onnx_test::setString(::onnx::NodeProto *node, const std::string &name,
                              const std::string &value) {
  addAttr(node, name, ::onnx::AttributeProto::STRING)->set_s(value);
}

TensorProto *tcc_onnx_test::setTensor(::onnx::NodeProto *node,
                                      const std::string &name) {
  return addAttr(node, name, ::onnx::AttributeProto::TENSOR)->mutable_t();
}

ImportResult tcc_onnx_test::importBytes(
    mlir::MLIRContext *context, const std::string &bytes,
    const mlir::tcc::onnx::ImportOptions &options,
    const std::string &modelDir) {
  ImportResult result;
  result.module = mlir::tcc::onnx::importModelBytes(context, bytes, modelDir,
                                                    options, &result.error);
  return result;
}

std::string
OnnxImportTest::importFails(const ModelBuilder &b,
                            const mlir::tcc::onnx::ImportOptions &options) {
  ImportResult r = importBytes(&context, b.model.SerializeAsString(), options);
  EXPECT_FALSE(r.module) << "the model imported";
  EXPECT_FALSE(r.error.empty());
  return r.error;
}

mlir::OwningOpRef<mlir::ModuleOp>
OnnxImportTest::importSucceeds(const ModelBuilder &b,
                               const mlir::tcc::onnx::ImportOptions &options) {
  ImportResult r = importBytes(&context, b.model.SerializeAsString(), options);
  EXPECT_TRUE(r.module) << r.error;
  return std::move(r.module);
}

TempDir::TempDir() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "tcc-onnx-test-XXXXXX")
          .string();
  if (::mkdtemp(pattern.data()))
    path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!path_.empty())
    std::filesystem::remove_all(path_, ec);
}

std::string TempDir::write(const std::string &name,
                           const std::string &bytes) const {
  std::filesystem::path file = std::filesystem::path(path_) / name;
  std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return file.string();
}

std::string tcc_onnx_test::floatBytes(const std::vector<float> &values) {
  std::string bytes(values.size() * sizeof(float), '\0');
  if (!values.empty()) // an empty vector's data() may be null
    std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::optional<std::vector<float>>
tcc_onnx_test::resultConstant(mlir::ModuleOp module, unsigned i) {
  std::optional<std::vector<float>> result;
  module.walk([&](mlir::func::ReturnOp ret) {
    if (i >= ret.getNumOperands())
      return;
    auto constant =
        ret.getOperand(i).getDefiningOp<mlir::tcc::ConstantOp>();
    if (!constant)
      return;
    std::optional<mlir::tcc::ConstantData> data =
        mlir::tcc::readConstant(constant.getValue());
    if (!data)
      return;
    std::vector<float> values;
    for (int64_t k = 0; k < data->numElements(); ++k)
      values.push_back(static_cast<float>(data->getFloat(k)));
    result = values;
  });
  return result;
}
