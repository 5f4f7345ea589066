//===- SerializeTest.cpp - safetensors, save/load, checkpoints ------------===//

#include "TestSupport.h"

#include "tcc/nn.h"
#include "tcc/optim.h"
#include "tcc/serialize.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

using namespace tcc;
using tcc::test::errorOf;

namespace {

std::string tempPath(const std::string &name) {
  return ::testing::TempDir() + "tcc_nn_" + name;
}

/// A safetensors file from a header text and data bytes.
std::string fileWith(const std::string &header, const std::string &data = "",
                     uint64_t headerSize = UINT64_MAX) {
  uint64_t n = headerSize == UINT64_MAX ? header.size() : headerSize;
  std::string out;
  for (int i = 0; i < 8; ++i)
    out += char((n >> (8 * i)) & 0xFF);
  return out + header + data;
}

std::string parseError(const std::string &bytes) {
  return errorOf([&] {
    serialize::safetensors_deserialize(bytes.data(), bytes.size(), "test");
  });
}

#define EXPECT_PARSE_ERROR(bytes, text)                                        \
  do {                                                                         \
    std::string e_ = parseError(bytes);                                        \
    EXPECT_NE(e_.find(text), std::string::npos) << e_;                         \
  } while (0)

} // namespace

TEST(SafetensorsTest, ReadsTheReferenceImplementationsFile) {
  auto f =
      serialize::load_safetensors(TCC_NN_TEST_DATA "/reference.safetensors");
  EXPECT_EQ(f.metadata.at("format"), "np");
  EXPECT_EQ(f.tensors.size(), 8u);
  EXPECT_TENSOR(f.tensors["fc.weight"], {2, 3},
                {1.5, -2.0, 0.25, 3.0, 4.0, -0.125});
  EXPECT_EQ(f.tensors["fc.weight"].dtype(), kFloat);
  EXPECT_EQ(f.tensors["steps"].dim(), 0);
  EXPECT_EQ(f.tensors["steps"].item<int64_t>(), 7);
  EXPECT_EQ(f.tensors["mask"].dtype(), kBool);
  EXPECT_TENSOR(f.tensors["mask"], {3}, {1, 0, 1});
  EXPECT_EQ(f.tensors["half"].dtype(), kHalf);
  EXPECT_TENSOR(f.tensors["half"], {2}, {1.0, -2.5});
  EXPECT_TENSOR(f.tensors["i32"], {2, 2}, {1, 2, 3, -4});
  EXPECT_TENSOR(f.tensors["u8"], {2}, {0, 255});
  EXPECT_DOUBLE_EQ(f.tensors["f64"].item<double>(), 3.141592653589793);
}

TEST(SafetensorsTest, WritesTheFormatExactly) {
  OrderedDict<std::string, Tensor> tensors;
  tensors.insert("a", tensor({1.f, 2.f}));
  tensors.insert("b", tensor({{1, 2}, {3, 4}}, kLong).t()); // non-contiguous
  std::string bytes =
      serialize::safetensors_serialize(tensors, {{"k", "v\"q"}});
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i)
    n = (n << 8) | uint8_t(bytes[i]);
  EXPECT_EQ((8 + n) % 8, 0u); // data start aligned
  std::string header = bytes.substr(8, n);
  EXPECT_EQ(
      header.substr(0, header.find_last_not_of(' ') + 1),
      "{\"__metadata__\":{\"k\":\"v\\\"q\"},"
      "\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
      "\"b\":{\"dtype\":\"I64\",\"shape\":[2,2],\"data_offsets\":[8,40]}}");
  EXPECT_EQ(bytes.size(), 8 + n + 40);
  auto back = serialize::safetensors_deserialize(bytes.data(), bytes.size());
  EXPECT_TENSOR(back.tensors["b"], {2, 2}, {1, 3, 2, 4});
  EXPECT_EQ(back.metadata.at("k"), "v\"q");
}

TEST(SafetensorsTest, RejectsBadHeaders) {
  EXPECT_PARSE_ERROR(std::string("abc"), "shorter than the 8-byte header size");
  EXPECT_PARSE_ERROR(fileWith("{}", "", 200000000), "exceeds the limit");
  EXPECT_PARSE_ERROR(fileWith("{}", "", 50), "runs past the end");
  EXPECT_PARSE_ERROR(fileWith("[1]"), "does not start with '{'");
  EXPECT_PARSE_ERROR(fileWith("{\"a\":"), "invalid JSON");
  EXPECT_PARSE_ERROR(fileWith("{\"a\": tru}"), "invalid JSON");
  EXPECT_PARSE_ERROR(
      fileWith("{\"x\":" + std::string(100, '[') + std::string(100, ']') + "}"),
      "nesting deeper than");
  EXPECT_PARSE_ERROR(fileWith("{\"__metadata__\":{\"a\":1}}"),
                     "value of 'a' is not a string");
  std::string entry =
      "{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}";
  EXPECT_PARSE_ERROR(fileWith("{\"a\":" + entry + ",\"a\":" + entry + "}",
                              std::string(4, '\0')),
                     "appears twice");
}

TEST(SafetensorsTest, RejectsBadEntries) {
  auto one = [](const std::string &dtype, const std::string &shape,
                const std::string &offsets, size_t dataBytes) {
    return fileWith("{\"t\":{\"dtype\":\"" + dtype + "\",\"shape\":" + shape +
                        ",\"data_offsets\":" + offsets + "}}",
                    std::string(dataBytes, '\0'));
  };
  EXPECT_PARSE_ERROR(one("F8_E4M3", "[1]", "[0,1]", 1), "unsupported dtype");
  EXPECT_PARSE_ERROR(one("F32", "[-1]", "[0,4]", 4), "non-negative integers");
  EXPECT_PARSE_ERROR(one("F32", "[1.5]", "[0,4]", 4), "non-negative integers");
  EXPECT_PARSE_ERROR(one("F32", "[4294967296,4294967296]", "[0,4]", 4),
                     "overflows");
  EXPECT_PARSE_ERROR(one("F32", "[1]", "[4,0]", 4), "are reversed");
  EXPECT_PARSE_ERROR(one("F32", "[1]", "[0,8]", 4),
                     "run past the 4 data bytes");
  EXPECT_PARSE_ERROR(one("F32", "[2]", "[0,4]", 4),
                     "span 4 bytes but dtype F32 and shape [2] need 8");
  EXPECT_PARSE_ERROR(one("F32", "[1]", "[0]", 4), "must be [begin, end]");
  EXPECT_PARSE_ERROR(one("F32", "[1]", "[0,4]", 6), "belong to no tensor");
  std::string badBool = one("BOOL", "[1]", "[0,1]", 1);
  badBool.back() = '\x02';
  EXPECT_PARSE_ERROR(badBool, "neither 0 nor 1");
  EXPECT_PARSE_ERROR(fileWith("{\"t\":{\"shape\":[1],\"data_offsets\":[0,4]}}",
                              std::string(4, '\0')),
                     "missing or non-string \"dtype\"");
}

TEST(SafetensorsTest, RejectsOverlapsAndGaps) {
  std::string a =
      "\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}";
  std::string b =
      "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}";
  EXPECT_PARSE_ERROR(fileWith("{" + a + "," + b + "}", std::string(8, '\0')),
                     "overlaps");
  std::string c =
      "\"c\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[12,16]}";
  EXPECT_PARSE_ERROR(fileWith("{" + a + "," + c + "}", std::string(16, '\0')),
                     "bytes [8, 12) of the data belong to no tensor");
}

TEST(SafetensorsTest, TruncationsAreErrorsNotCrashes) {
  auto bytes = serialize::safetensors_serialize(
      [] {
        OrderedDict<std::string, Tensor> t;
        t.insert("w", tensor({{1.f, 2.f}, {3.f, 4.f}}));
        t.insert("b", tensor({5.f}));
        return t;
      }(),
      {{"epoch", "3"}});
  for (size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(parseError(bytes.substr(0, n)).empty()) << "prefix " << n;
  EXPECT_NO_THROW(
      serialize::safetensors_deserialize(bytes.data(), bytes.size(), "test"));
}

TEST(SaveLoadTest, TensorsAndTensorVectors) {
  std::string path = tempPath("tensor.safetensors");
  Tensor t = arange(6, kDouble).reshape({2, 3});
  tcc::save(t, path);
  Tensor back;
  tcc::load(back, path);
  EXPECT_TRUE(back.equal(t));
  std::vector<Tensor> list = {ones({2}), zeros({1}, kLong)};
  std::stringstream stream;
  tcc::save(list, stream);
  std::vector<Tensor> listBack;
  tcc::load(listBack, stream);
  ASSERT_EQ(listBack.size(), 2u);
  EXPECT_TRUE(listBack[1].equal(list[1]));
  EXPECT_ERROR_CONTAINS(tcc::load(back, tempPath("missing")), "cannot open");
  std::remove(path.c_str());
}

TEST(SaveLoadTest, ModuleFilesAreStateDictsByParameterName) {
  manual_seed(2);
  nn::Sequential model(nn::Conv2d(1, 2, 3), nn::BatchNorm2d(2), nn::ReLU(),
                       nn::Flatten(), nn::Linear(8, 3));
  model->forward(randn({2, 1, 4, 4})); // moves the running statistics
  std::string path = tempPath("model.safetensors");
  tcc::save(model, path);
  auto file = serialize::load_safetensors(path);
  std::vector<std::string> keys = file.tensors.keys();
  std::vector<std::string> expected = model->named_parameters().keys();
  for (const std::string &b : model->named_buffers().keys())
    expected.push_back(b);
  std::sort(keys.begin(), keys.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(keys, expected);
  EXPECT_TRUE(file.tensors["1.running_mean"].equal(
      model->ptr<nn::BatchNorm2dImpl>(1)->running_mean));

  nn::Sequential other(nn::Conv2d(1, 2, 3), nn::BatchNorm2d(2), nn::ReLU(),
                       nn::Flatten(), nn::Linear(8, 3));
  Tensor weightHandle = other->ptr<nn::LinearImpl>(4)->weight;
  tcc::load(other, path);
  EXPECT_TRUE(weightHandle.equal(model->ptr<nn::LinearImpl>(4)->weight));
  model->eval();
  other->eval();
  Tensor x = randn({3, 1, 4, 4});
  EXPECT_TRUE(other->forward(x).equal(model->forward(x)));

  nn::Sequential wrong(nn::Conv2d(1, 2, 3), nn::BatchNorm2d(2), nn::ReLU(),
                       nn::Flatten(), nn::Linear(8, 4));
  EXPECT_ERROR_CONTAINS(tcc::load(wrong, path),
                        "'4.weight' from '" + path +
                            "': the archive holds shape [3, 8] but the tensor "
                            "to load into has shape [4, 8]");
  nn::Sequential extra(nn::Conv2d(1, 2, 3), nn::BatchNorm2d(2), nn::ReLU(),
                       nn::Flatten(), nn::Linear(8, 3), nn::Linear(3, 1));
  EXPECT_ERROR_CONTAINS(tcc::load(extra, path), "'5'");
  std::remove(path.c_str());
}

TEST(SaveLoadTest, ValuesInArchivesKeepTheirKinds) {
  serialize::OutputArchive out;
  out.write("i", IValue(int64_t(-3)));
  out.write("d", IValue(2.0));
  out.write("nan", IValue(std::nan("")));
  out.write("s", IValue(std::string("a\nb")));
  out.write("b", IValue(true));
  out.write("ints", IValue(std::vector<int64_t>{1, 2}));
  out.write("doubles", IValue(std::vector<double>{1.0, 0.5}));
  std::string bytes = out.bytes();
  serialize::InputArchive in;
  in.load_from(bytes.data(), bytes.size());
  IValue v;
  in.read("i", v);
  EXPECT_EQ(v.toInt(), -3);
  in.read("d", v);
  EXPECT_TRUE(v.isDouble());
  EXPECT_EQ(v.toDouble(), 2.0);
  in.read("nan", v);
  EXPECT_TRUE(std::isnan(v.toDouble()));
  in.read("s", v);
  EXPECT_EQ(v.toStringRef(), "a\nb");
  in.read("b", v);
  EXPECT_TRUE(v.toBool());
  in.read("ints", v);
  EXPECT_EQ(v.toIntVector(), (std::vector<int64_t>{1, 2}));
  in.read("doubles", v);
  EXPECT_EQ(v.toDoubleVector(), (std::vector<double>{1.0, 0.5}));
  EXPECT_ERROR_CONTAINS(in.read("nope", v), "No such serialized value 'nope'");
  EXPECT_ERROR_CONTAINS(out.write("i", IValue(1)), "written twice");
}

namespace {
struct TinyImpl : nn::Cloneable<TinyImpl> {
  TinyImpl() { reset(); }
  void reset() override {
    fc1 = register_module("fc1", nn::Linear(4, 8));
    drop = register_module("drop", nn::Dropout(0.3));
    fc2 = register_module("fc2", nn::Linear(8, 2));
  }
  Tensor forward(const Tensor &x) { return fc2(drop(fc1(x).relu())); }
  nn::Linear fc1{nullptr}, fc2{nullptr};
  nn::Dropout drop{nullptr};
};
TCC_MODULE(Tiny);

/// One step on fresh random data: batches and dropout draw from the global
/// generator, so an exact resume needs its state too.
void trainStep(Tiny &model, optim::Optimizer &opt) {
  Tensor x = randn({16, 4});
  Tensor y = randint(0, 2, {16});
  opt.zero_grad();
  cross_entropy_loss(model(x), y).backward();
  opt.step();
}
} // namespace

TEST(CheckpointTest, ResumingContinuesExactly) {
  manual_seed(11);
  Tiny straight;
  optim::Adam straightOpt(straight->parameters(), optim::AdamOptions(0.01));
  manual_seed(12);
  for (int i = 0; i < 6; ++i)
    trainStep(straight, straightOpt);

  manual_seed(11);
  Tiny first;
  optim::Adam firstOpt(first->parameters(), optim::AdamOptions(0.01));
  manual_seed(12);
  for (int i = 0; i < 3; ++i)
    trainStep(first, firstOpt);
  std::string path = tempPath("checkpoint.safetensors");
  serialize::save_checkpoint(path, *first, firstOpt,
                             {3, {{"run", "resume-test"}, {"best", "0.5"}}});
  randn({1000}); // the process goes on drawing random numbers, then stops

  Tiny resumed; // a new process: fresh model and optimizer
  optim::Adam resumedOpt(resumed->parameters(), optim::AdamOptions(0.5));
  serialize::Checkpoint info =
      serialize::load_checkpoint(path, *resumed, resumedOpt);
  EXPECT_EQ(info.epoch, 3);
  EXPECT_EQ(info.metadata.at("run"), "resume-test");
  EXPECT_EQ(info.metadata.size(), 2u);
  for (int i = 0; i < 3; ++i)
    trainStep(resumed, resumedOpt);
  auto a = straight->named_parameters(), b = resumed->named_parameters();
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_TRUE(a[i].value().equal(b[i].value())) << a[i].key();
  std::remove(path.c_str());
}
