//===- NpyTest.cpp - tcc::save_npy / tcc::load_npy ------------------------===//

#include "JitTestSupport.h"

#include <fstream>
#include <sstream>

namespace tcc {
namespace {

using jittest::sameTensor;

std::string readBytes(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(Npy, RoundTripsEveryDtype) {
  manual_seed(5);
  for (ScalarType t :
       {kFloat, kDouble, kHalf, kBFloat16, kLong, kInt, kChar, kByte, kBool}) {
    SCOPED_TRACE(toString(t));
    for (std::vector<int64_t> shape :
         {std::vector<int64_t>{2, 3, 4}, {}, {0, 3}, {7}}) {
      Tensor x = jittest::randomTensor(shape, t);
      std::string path = jittest::tempPath("x.npy");
      save_npy(path, x);
      EXPECT_TRUE(sameTensor(load_npy(path), x));
      std::remove(path.c_str());
    }
  }
}

TEST(Npy, WritesNumpysFormat) {
  std::string path = jittest::tempPath("known.npy");
  // A non-contiguous view is written in row-major order.
  Tensor x = tensor({{1.0, 2.0}, {3.0, 4.0}}).to(kFloat).t();
  save_npy(path, x);
  std::string bytes = readBytes(path);
  ASSERT_GE(bytes.size(), 10u);
  EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
  EXPECT_NE(bytes.find("'descr': '<f4'"), std::string::npos) << bytes;
  EXPECT_NE(bytes.find("'shape': (2, 2)"), std::string::npos) << bytes;
  EXPECT_EQ(bytes.size() % 64, 16u); // header padded to 64, then 16 bytes
  float data[4];
  std::memcpy(data, bytes.data() + bytes.size() - 16, 16);
  EXPECT_EQ(data[0], 1);
  EXPECT_EQ(data[1], 3);
  EXPECT_EQ(data[2], 2);
  EXPECT_EQ(data[3], 4);
  std::remove(path.c_str());
}

TEST(Npy, MalformedFilesAreErrorsNamingThePath) {
  std::string path = jittest::tempPath("bad.npy");
  EXPECT_ERROR_HAS(load_npy(path), path + ": cannot open");
  writeBytes(path, "garbage");
  EXPECT_ERROR_HAS(load_npy(path), "not a .npy file");

  std::string good = jittest::tempPath("good.npy");
  save_npy(good, arange(10).to(kFloat));
  std::string bytes = readBytes(good);
  // Truncated in the header, and in the data.
  writeBytes(path, bytes.substr(0, 20));
  EXPECT_ERROR_HAS(load_npy(path), path);
  writeBytes(path, bytes.substr(0, bytes.size() - 3));
  EXPECT_ERROR_HAS(load_npy(path), path);
  // A dtype NumPy has but tcc does not, and a corrupted shape.
  std::string complex = bytes;
  complex.replace(complex.find("<f4"), 3, "<c8");
  writeBytes(path, complex);
  EXPECT_ERROR_HAS(load_npy(path), "c8");
  std::string shape = bytes;
  shape.replace(shape.find("(10,)"), 5, "(1x0,)");
  writeBytes(path, shape);
  EXPECT_ERROR_HAS(load_npy(path), path);
  std::remove(path.c_str());
  std::remove(good.c_str());
}

TEST(Npy, SaveErrors) {
  EXPECT_ERROR_HAS(save_npy(jittest::tempPath("s.npy"), ones({2}, kShort)),
                   "dtype Short has no .npy encoding");
  EXPECT_ERROR_HAS(save_npy("/nonexistent-dir/x.npy", ones({2})),
                   "/nonexistent-dir/x.npy");
  EXPECT_ERROR_HAS(save_npy(jittest::tempPath("u.npy"), Tensor()),
                   "undefined tensor");
}

} // namespace
} // namespace tcc
