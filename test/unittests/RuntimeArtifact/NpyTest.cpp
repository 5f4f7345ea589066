//===- NpyTest.cpp - .npy reading and writing -----------------------------===//

#include "TempPath.h"
#include "TestStatus.h"

#include "tcc/runtime/Npy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <unistd.h>

using namespace tcc::runtime;

namespace {

// A .npy file as NumPy writes it: magic, version 1.0, little-endian header
// length, the dict padded with spaces to a multiple of 64, then the data.
std::vector<uint8_t> npyFile(const std::string &dict,
                             const std::vector<uint8_t> &data,
                             uint8_t major = 1) {
  std::string header = dict;
  size_t prefix = major == 1 ? 10 : 12;
  while ((prefix + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::vector<uint8_t> f = {0x93, 'N', 'U', 'M', 'P', 'Y', major, 0};
  for (size_t i = 0; i < prefix - 8; ++i)
    f.push_back(uint8_t(header.size() >> (8 * i)));
  f.insert(f.end(), header.begin(), header.end());
  f.insert(f.end(), data.begin(), data.end());
  return f;
}

template <typename T> std::vector<uint8_t> bytesOf(std::vector<T> v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

TEST(Npy, ReadsWhatNumPyWrites) {
  // np.save(f, np.arange(6, dtype='<f4').reshape(2, 3)) with NumPy 1.24,
  // which leaves room for the shape to grow after the dict.
  auto file = npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2, "
                      "3), }                    ",
                      bytesOf<float>({0, 1, 2, 3, 4, 5}));
  ASSERT_EQ(file.size(), 128u + 24u);
  NpyArray a;
  ASSERT_TCC_OK(parseNpy(file.data(), file.size(), &a));
  EXPECT_EQ(a.dtype, TCC_DTYPE_F32);
  EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(a.data, bytesOf<float>({0, 1, 2, 3, 4, 5}));
}

TEST(Npy, WritesTheLayoutNumPyReads) {
  float data[3] = {1.5f, -2, 0};
  std::vector<uint8_t> bytes;
  ASSERT_TCC_OK(encodeNpy(TCC_DTYPE_F32, {3}, data, sizeof(data), &bytes));
  std::string expectedDict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  ASSERT_EQ(bytes.size(), 128u + 12u);
  EXPECT_EQ(std::memcmp(bytes.data(), "\x93NUMPY\x01\x00\x76\x00", 10), 0);
  EXPECT_EQ(std::string(bytes.begin() + 10,
                        bytes.begin() + 10 + long(expectedDict.size())),
            expectedDict);
  EXPECT_EQ(bytes[127], '\n');
  EXPECT_EQ(bytes[126], ' ');
  EXPECT_EQ(std::memcmp(bytes.data() + 128, data, 12), 0);
}

TEST(Npy, RoundTripsEveryDTypeAndShape) {
  const std::vector<std::vector<int64_t>> shapes = {{}, {5}, {2, 3, 4}, {0, 3}};
  for (int d = 0; d < TCC_DTYPE_COUNT; ++d) {
    auto dtype = tcc_dtype_t(d);
    for (const auto &shape : shapes) {
      size_t count = 1;
      for (int64_t s : shape)
        count *= size_t(s);
      std::vector<uint8_t> data(count * tcc_dtype_size(dtype));
      for (size_t i = 0; i < data.size(); ++i) // bools are 0 or 1
        data[i] = uint8_t(i * 37 + d) % (dtype == TCC_DTYPE_BOOL ? 2 : 256);
      std::vector<uint8_t> bytes;
      ASSERT_TCC_OK(encodeNpy(dtype, shape, data.data(), data.size(), &bytes));
      EXPECT_EQ((bytes.size() - data.size()) % 64, 0u);
      NpyArray a;
      ASSERT_TCC_OK(parseNpy(bytes.data(), bytes.size(), &a));
      EXPECT_EQ(a.dtype, dtype) << tcc_dtype_name(dtype);
      EXPECT_EQ(a.shape, shape);
      EXPECT_EQ(a.data, data);
      EXPECT_EQ(a.elementCount(), count);
    }
  }
}

TEST(Npy, ReadsAndWritesFiles) {
  tcc::test::TempPath temp("npy_test.npy");
  const std::string &path = temp.path;
  int64_t v[2] = {-7, 1LL << 40};
  ASSERT_TCC_OK(writeNpy(path, TCC_DTYPE_I64, {2}, v, sizeof(v)));
  NpyArray a;
  ASSERT_TCC_OK(readNpy(path, &a));
  EXPECT_EQ(a.dtype, TCC_DTYPE_I64);
  EXPECT_EQ(std::memcmp(a.data.data(), v, sizeof(v)), 0);
  EXPECT_TCC_ERROR(readNpy("/nonexistent/a.npy", &a), TCC_STATUS_NOT_FOUND,
                   "/nonexistent/a.npy: cannot open");
  EXPECT_TCC_ERROR(writeNpy("/nonexistent/a.npy", TCC_DTYPE_I64, {2}, v, 16),
                   TCC_STATUS_IO_ERROR, "/nonexistent/a.npy: cannot create");
}

TEST(Npy, ConvertsBigEndianAndFortranOrder) {
  // '>i4' [1, 256]
  auto be = npyFile("{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }",
                    {0, 0, 0, 1, 0, 0, 1, 0});
  NpyArray a;
  ASSERT_TCC_OK(parseNpy(be.data(), be.size(), &a));
  EXPECT_EQ(a.data, bytesOf<int32_t>({1, 256}));
  // [[0, 1, 2], [3, 4, 5]] stored column by column.
  auto f = npyFile("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }",
                   bytesOf<float>({0, 3, 1, 4, 2, 5}));
  ASSERT_TCC_OK(parseNpy(f.data(), f.size(), &a));
  EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(a.data, bytesOf<float>({0, 1, 2, 3, 4, 5}));
  // Keys in another order, double quotes, version 2.0.
  auto v2 = npyFile("{\"shape\": (1,), \"fortran_order\": False, "
                    "\"descr\": \"|u1\"}",
                    {42}, 2);
  ASSERT_TCC_OK(parseNpy(v2.data(), v2.size(), &a));
  EXPECT_EQ(a.dtype, TCC_DTYPE_U8);
  EXPECT_EQ(a.data, std::vector<uint8_t>{42});
}

TEST(Npy, RejectsMalformedFiles) {
  const std::string good =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  auto data = bytesOf<float>({1, 2});
  NpyArray a;
  auto parse = [&](const std::vector<uint8_t> &f) {
    return parseNpy(f.data(), f.size(), &a);
  };
  EXPECT_TCC_ERROR(parse({'n', 'o'}), TCC_STATUS_DATA_LOSS, "not a .npy file");
  auto v4 = npyFile(good, data);
  v4[6] = 4;
  EXPECT_TCC_ERROR(parse(v4), TCC_STATUS_UNIMPLEMENTED,
                   ".npy format version 4.0 is not supported");
  auto longHeader = npyFile(good, data);
  longHeader[9] = 0x7f;
  EXPECT_TCC_ERROR(parse(longHeader), TCC_STATUS_DATA_LOSS,
                   "ends past the end of the");
  auto truncated = npyFile(good, data);
  truncated.pop_back();
  EXPECT_TCC_ERROR(parse(truncated), TCC_STATUS_DATA_LOSS,
                   "data has 7 bytes, the <f4 shape needs 8 (truncated?)");
  // A bool byte other than 0 or 1 (NumPy itself never writes one).
  auto bools = npyFile("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                       {1, 0, 7});
  EXPECT_TCC_ERROR(parse(bools), TCC_STATUS_DATA_LOSS,
                   "bool element 2 is 7 (bools are 0 or 1)");
  auto extra = npyFile(good, data);
  extra.push_back(0);
  EXPECT_TCC_ERROR(parse(extra), TCC_STATUS_DATA_LOSS,
                   "1 unexpected bytes after the array data");
  EXPECT_TCC_ERROR(
      parse(npyFile("{'descr': '<u4', 'fortran_order': False, 'shape': (2,), }",
                    data)),
      TCC_STATUS_UNIMPLEMENTED, "unsupported dtype '<u4'");
  EXPECT_TCC_ERROR(
      parse(npyFile("{'descr': [('a', '<f4')], 'fortran_order': False, "
                    "'shape': (2,), }",
                    data)),
      TCC_STATUS_DATA_LOSS, "structured arrays are not supported");
  EXPECT_TCC_ERROR(parse(npyFile("{'descr': '<f4', 'shape': (2,), }", data)),
                   TCC_STATUS_DATA_LOSS, "missing key 'fortran_order'");
  EXPECT_TCC_ERROR(
      parse(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), "
                    "}",
                    data)),
      TCC_STATUS_DATA_LOSS, "non-negative integers");
  EXPECT_TCC_ERROR(
      parse(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': "
                    "(4294967296, 4294967296), }",
                    data)),
      TCC_STATUS_DATA_LOSS, "shape overflows 64-bit sizes");
  EXPECT_TCC_ERROR(
      parse(npyFile("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), "
                    "}",
                    data)),
      TCC_STATUS_DATA_LOSS, "expected True or False");
  EXPECT_TCC_ERROR(
      parse(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), "
                    "'extra': 1}",
                    data)),
      TCC_STATUS_DATA_LOSS, "unexpected key 'extra'");
  auto noNewline = npyFile(good, data);
  noNewline[127] = ' ';
  EXPECT_TCC_ERROR(parse(noNewline), TCC_STATUS_DATA_LOSS,
                   "header does not end with a newline");
}

TEST(Npy, NeverCrashesOnTruncatedOrFlippedBytes) {
  std::vector<uint8_t> bytes;
  float v[4] = {1, 2, 3, 4};
  ASSERT_TCC_OK(encodeNpy(TCC_DTYPE_F32, {2, 2}, v, sizeof(v), &bytes));
  NpyArray a;
  for (size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(parseNpy(bytes.data(), n, &a).ok()) << n;
  for (size_t i = 0; i < 128; ++i) // every header byte
    for (uint8_t mask : {uint8_t(1), uint8_t(0xFF)}) {
      bytes[i] ^= mask;
      Status s = parseNpy(bytes.data(), bytes.size(), &a); // must not crash
      bytes[i] ^= mask;
      (void)s;
    }
}

TEST(Npy, RejectsInconsistentWrites) {
  float v[2] = {};
  std::vector<uint8_t> bytes;
  EXPECT_TCC_ERROR(encodeNpy(TCC_DTYPE_F32, {3}, v, 8, &bytes),
                   TCC_STATUS_INVALID_ARGUMENT,
                   "8 bytes given, the f32 shape needs 12");
  EXPECT_TCC_ERROR(encodeNpy(tcc_dtype_t(42), {2}, v, 8, &bytes),
                   TCC_STATUS_INVALID_ARGUMENT, "unknown dtype 42");
}

} // namespace
