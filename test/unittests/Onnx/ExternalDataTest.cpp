//===- ExternalDataTest.cpp - Initializers kept in side files -------------===//
//
// External data is read only from regular files inside the model's folder
// (ONNX's CVE-2022-25882 and CVE-2024-27318 followed paths out of it), with
// offsets and lengths checked against the file.
//
//===----------------------------------------------------------------------===//

#include "OnnxTestSupport.h"

#include "gmock/gmock.h"

#include <filesystem>
#include <fstream>
#include <sys/stat.h>

using namespace tcc_onnx_test;
using testing::HasSubstr;

namespace {

class OnnxExternalData : public OnnxImportTest {
protected:
  void SetUp() override { ASSERT_FALSE(dir.path().empty()); }

  /// Writes model.onnx whose output is a 1-D float initializer `w` of
  /// `count` elements kept in the external file `location`; the other
  /// entries (offset, length) are added as given.
  std::string writeModel(
      const std::string &location, int64_t count,
      std::vector<std::pair<std::string, std::string>> entries = {}) {
    ModelBuilder b;
    TensorProto *w = b.tensor("w", {count});
    w->set_data_location(TensorProto::EXTERNAL);
    entries.insert(entries.begin(), {"location", location});
    for (const auto &[key, value] : entries) {
      auto *entry = w->add_external_data();
      entry->set_key(key);
      entry->set_value(value);
    }
    b.output("w");
    return dir.write("model.onnx", b.model.SerializeAsString());
  }

  ImportResult import(const std::string &path) {
    ImportResult r;
    r.module =
        mlir::tcc::onnx::importModelFile(&context, path, {}, &r.error);
    return r;
  }

  /// The import error of `path`, which must fail.
  std::string importFileFails(const std::string &path) {
    ImportResult r = import(path);
    EXPECT_FALSE(r.module);
    return r.error;
  }

  TempDir dir;
};

TEST_F(OnnxExternalData, DataInsideTheFolderIsRead) {
  dir.write("weights/w.bin",
            floatBytes({9, 9, 1.5f, -2, 3.25f, 9}));
  std::string model = writeModel("weights/w.bin", 3,
                                 {{"offset", "8"}, {"length", "12"}});
  ImportResult r = import(model);
  ASSERT_TRUE(r.module) << r.error;
  EXPECT_EQ(resultConstant(*r.module, 0),
            (std::vector<float>{1.5f, -2, 3.25f}));
}

TEST_F(OnnxExternalData, WithoutOffsetAndLengthTheFileStartIsRead) {
  dir.write("w.bin", floatBytes({4, 5, 6}));
  ImportResult r = import(writeModel("w.bin", 2));
  ASSERT_TRUE(r.module) << r.error;
  EXPECT_EQ(resultConstant(*r.module, 0), (std::vector<float>{4, 5}));
}

TEST_F(OnnxExternalData, AbsolutePathsAreRefused) {
  std::string outside = dir.write("w.bin", floatBytes({1}));
  EXPECT_THAT(importFileFails(writeModel(outside, 1)),
              HasSubstr("initializer 'w': its external data location '" +
                        outside + "' is an absolute path"));
}

TEST_F(OnnxExternalData, DotDotIsRefusedEvenWhenItStaysInside) {
  dir.write("w.bin", floatBytes({1}));
  for (std::string location : {"../w.bin", "sub/../w.bin", "a/../../etc/x"})
    EXPECT_THAT(importFileFails(writeModel(location, 1)),
                HasSubstr("initializer 'w': its external data location '" +
                          location + "' contains '..'"));
}

TEST_F(OnnxExternalData, SymlinksEscapingTheFolderAreRefused) {
  TempDir other;
  std::string outside = other.write("secret.bin", floatBytes({1, 2}));
  std::filesystem::create_symlink(outside, dir.path() + "/link.bin");
  EXPECT_THAT(importFileFails(writeModel("link.bin", 2)),
              HasSubstr("initializer 'w': its external data file 'link.bin' "
                        "resolves (through a symlink) to"));
  // A symlinked folder leading out is refused the same way.
  std::filesystem::create_directory_symlink(other.path(),
                                            dir.path() + "/linkdir");
  EXPECT_THAT(importFileFails(writeModel("linkdir/secret.bin", 2)),
              HasSubstr("outside the model's folder"));
}

TEST_F(OnnxExternalData, SymlinksInsideTheFolderAreFollowed) {
  dir.write("data/w.bin", floatBytes({7, 8}));
  std::filesystem::create_symlink("data/w.bin", dir.path() + "/link.bin");
  ImportResult r = import(writeModel("link.bin", 2));
  ASSERT_TRUE(r.module) << r.error;
  EXPECT_EQ(resultConstant(*r.module, 0), (std::vector<float>{7, 8}));
}

TEST_F(OnnxExternalData, NonRegularFilesAreRefused) {
  // /dev/zero would be read forever; reached through a symlink it is also
  // outside the folder.
  std::filesystem::create_symlink("/dev/zero", dir.path() + "/zero.bin");
  EXPECT_THAT(importFileFails(writeModel("zero.bin", 1)),
              HasSubstr("initializer 'w': its external data file 'zero.bin'"));
  // A FIFO inside the folder would block the reader.
  ASSERT_EQ(::mkfifo((dir.path() + "/fifo.bin").c_str(), 0600), 0);
  EXPECT_THAT(importFileFails(writeModel("fifo.bin", 1)),
              HasSubstr("initializer 'w': its external data file 'fifo.bin' "
                        "is not a regular file"));
  std::filesystem::create_directory(dir.path() + "/folder.bin");
  EXPECT_THAT(importFileFails(writeModel("folder.bin", 1)),
              HasSubstr("'folder.bin' is not a regular file"));
}

TEST_F(OnnxExternalData, AMissingFileIsRefused) {
  EXPECT_THAT(importFileFails(writeModel("missing.bin", 1)),
              HasSubstr("initializer 'w': cannot open its external data "
                        "file 'missing.bin'"));
  EXPECT_THAT(importFileFails(writeModel("", 1)),
              HasSubstr("initializer 'w': its external data has no location"));
}

TEST_F(OnnxExternalData, OffsetsAndLengthsPastTheEndAreRefused) {
  dir.write("w.bin", floatBytes({1, 2, 3, 4}));
  EXPECT_THAT(importFileFails(writeModel("w.bin", 1, {{"offset", "16"}})),
              HasSubstr("initializer 'w': its external data (offset 16, 4 "
                        "bytes) runs past the end of 'w.bin' (16 bytes)"));
  EXPECT_THAT(importFileFails(writeModel("w.bin", 2, {{"offset", "12"}})),
              HasSubstr("(offset 12, 8 bytes) runs past the end"));
  EXPECT_THAT(importFileFails(writeModel("w.bin", 5)),
              HasSubstr("(offset 0, 20 bytes) runs past the end"));
  EXPECT_THAT(
      importFileFails(writeModel("w.bin", 1, {{"offset", "18446744073709551615"}})),
      HasSubstr("offset '18446744073709551615' is not a non-negative integer"));
  EXPECT_THAT(
      importFileFails(writeModel("w.bin", 1, {{"offset", "9223372036854775807"}})),
      HasSubstr("runs past the end"));
}

TEST_F(OnnxExternalData, ALengthDifferentFromTheShapeIsRefused) {
  dir.write("w.bin", floatBytes({1, 2, 3, 4}));
  EXPECT_THAT(importFileFails(writeModel("w.bin", 2, {{"length", "12"}})),
              HasSubstr("initializer 'w': its external data length is 12 "
                        "bytes, but its shape and type need 8"));
  for (std::string bad : {"-4", "0x10", " 8", ""})
    EXPECT_THAT(importFileFails(writeModel("w.bin", 2, {{"length", bad}})),
                HasSubstr("its external data length '" + bad +
                          "' is not a non-negative integer"));
}

TEST_F(OnnxExternalData, ModelsReadFromMemoryHaveNoFolder) {
  dir.write("w.bin", floatBytes({1}));
  std::string path = writeModel("w.bin", 1);
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  ImportResult r = importBytes(&context, bytes);
  EXPECT_FALSE(r.module);
  EXPECT_THAT(r.error, HasSubstr("initializer 'w': it keeps its data in an "
                                 "external file, and the model was not read "
                                 "from a file"));
}

TEST_F(OnnxExternalData, TheModelFileItselfMustBeARegularFile) {
  EXPECT_THAT(importFileFails(dir.path()), HasSubstr("is not a regular file"));
  EXPECT_THAT(importFileFails(dir.path() + "/missing.onnx"),
              HasSubstr("missing.onnx"));
  EXPECT_THAT(importFileFails("/dev/zero"),
              HasSubstr("'/dev/zero' is not a regular file"));
}

} // namespace
