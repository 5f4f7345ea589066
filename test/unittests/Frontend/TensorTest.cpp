//===- TensorTest.cpp - Types, factories, views, printing -----------------===//

#include "TestSupport.h"

#include "tcc/Frontend/Storage.h"

#include <cmath>
#include <limits>
#include <random>
#include <sstream>

using namespace tcc;
using tcc::test::values;

namespace {

TEST(ScalarTypeTest, SizesAndNames) {
  EXPECT_EQ(elementSize(kFloat), 4u);
  EXPECT_EQ(elementSize(kDouble), 8u);
  EXPECT_EQ(elementSize(kHalf), 2u);
  EXPECT_EQ(elementSize(kBFloat16), 2u);
  EXPECT_EQ(elementSize(kLong), 8u);
  EXPECT_EQ(elementSize(kInt), 4u);
  EXPECT_EQ(elementSize(kChar), 1u);
  EXPECT_EQ(elementSize(kByte), 1u);
  EXPECT_EQ(elementSize(kBool), 1u);
  EXPECT_EQ(kFloat32, kFloat);
  EXPECT_EQ(kFloat64, kDouble);
  EXPECT_EQ(kInt64, kLong);
  EXPECT_STREQ(toString(kBFloat16), "BFloat16");
}

TEST(ScalarTypeTest, PromotionTable) {
  // Cases from torch.promote_types.
  EXPECT_EQ(promoteTypes(kByte, kChar), kShort);
  EXPECT_EQ(promoteTypes(kByte, kInt), kInt);
  EXPECT_EQ(promoteTypes(kChar, kLong), kLong);
  EXPECT_EQ(promoteTypes(kBool, kByte), kByte);
  EXPECT_EQ(promoteTypes(kBool, kFloat), kFloat);
  EXPECT_EQ(promoteTypes(kLong, kFloat), kFloat);
  EXPECT_EQ(promoteTypes(kLong, kHalf), kHalf);
  EXPECT_EQ(promoteTypes(kHalf, kBFloat16), kFloat);
  EXPECT_EQ(promoteTypes(kHalf, kFloat), kFloat);
  EXPECT_EQ(promoteTypes(kFloat, kDouble), kDouble);
  EXPECT_EQ(promoteTypes(kBFloat16, kDouble), kDouble);
  EXPECT_TRUE(canCast(kLong, kFloat));
  EXPECT_FALSE(canCast(kFloat, kLong));
  EXPECT_FALSE(canCast(kLong, kBool));
  EXPECT_TRUE(canCast(kBool, kLong));
}

TEST(ScalarTypeTest, HalfAndBFloat16RoundTrip) {
  EXPECT_EQ(float(Half(1.0f)), 1.0f);
  EXPECT_EQ(float(Half(65504.0f)), 65504.0f);
  EXPECT_TRUE(std::isinf(float(Half(70000.0f))));
  EXPECT_EQ(Half(1.0f).x, 0x3c00);
  EXPECT_EQ(Half(-2.0f).x, 0xc000);
  EXPECT_EQ(float(Half(5.9604644775390625e-8f)), 5.9604644775390625e-8f);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even -> 1.
  EXPECT_EQ(float(Half(1.0f + 0x1.0p-11f)), 1.0f);
  EXPECT_EQ(float(BFloat16(1.0f)), 1.0f);
  EXPECT_EQ(BFloat16(1.0f).x, 0x3f80);
  EXPECT_EQ(float(BFloat16(3.140625f)), 3.140625f);
  EXPECT_TRUE(std::isnan(float(BFloat16(NAN))));
}

TEST(DeviceTest, ParsingAndCudaErrors) {
  Device d("cuda:1");
  EXPECT_TRUE(d.is_cuda());
  EXPECT_EQ(d.index(), 1);
  EXPECT_EQ(Device("cpu").str(), "cpu");
  EXPECT_EQ(tcc::test::errorOf([] { Device("tpu"); }),
            "Expected one of cpu, cuda device type at start of device string: "
            "tpu");
  EXPECT_FALSE(cuda::is_available());
  EXPECT_ERROR_CONTAINS(zeros({2}, kCUDA), "CUDA is not available");
  EXPECT_ERROR_CONTAINS(ones({2}).to(kCUDA), "requested device cuda");
}

TEST(TensorOptionsTest, Chaining) {
  TensorOptions o = TensorOptions().dtype(kDouble).requires_grad(true);
  EXPECT_EQ(o.dtype(), kDouble);
  EXPECT_TRUE(o.requires_grad());
  EXPECT_EQ(dtype(kInt).dtype(), kInt);
  Tensor t = zeros({2}, TensorOptions().dtype(kDouble).requires_grad(true));
  EXPECT_TRUE(t.requires_grad());
  EXPECT_TRUE(t.is_leaf());
  EXPECT_EQ(zeros({2}, kLong).dtype(), kLong);
  EXPECT_EQ(zeros({2}).dtype(), kFloat);
}

TEST(FactoryTest, Basics) {
  EXPECT_TENSOR(zeros({2, 2}), {2, 2}, {0, 0, 0, 0});
  EXPECT_TENSOR(ones({3}, kInt), {3}, {1, 1, 1});
  EXPECT_EQ(ones({3}, kInt).dtype(), kInt);
  EXPECT_EQ(full({2}, 7).dtype(), kLong);
  EXPECT_EQ(full({2}, 7.5).dtype(), kFloat);
  EXPECT_EQ(full({2}, true).dtype(), kBool);
  EXPECT_TENSOR(full({2}, 7.5), {2}, {7.5, 7.5});
  EXPECT_TENSOR(arange(5), {5}, {0, 1, 2, 3, 4});
  EXPECT_EQ(arange(5).dtype(), kLong);
  EXPECT_TENSOR(arange(1, 2, 0.25), {4}, {1, 1.25, 1.5, 1.75});
  EXPECT_EQ(arange(1, 2, 0.25).dtype(), kFloat);
  EXPECT_TENSOR(arange(5, 0, -2), {3}, {5, 3, 1});
  EXPECT_TENSOR(linspace(0, 1, 5), {5}, {0, 0.25, 0.5, 0.75, 1});
  EXPECT_TENSOR(eye(2, 3), {2, 3}, {1, 0, 0, 0, 1, 0});
  EXPECT_TENSOR(zeros_like(ones({2}, kInt)), {2}, {0, 0});
  EXPECT_EQ(zeros_like(ones({2}, kInt)).dtype(), kInt);
  EXPECT_EQ(ones_like(ones({2}), kDouble).dtype(), kDouble);
  EXPECT_TENSOR(full_like(ones({2}), 3), {2}, {3, 3});
  EXPECT_EQ(empty_like(ones({2, 5})).sizes().vec(), std::vector<int64_t>({2, 5}));
  EXPECT_ERROR_CONTAINS(zeros({-1}), "negative dimension -1");
}

TEST(FactoryTest, TensorFromNestedLists) {
  Tensor a = tensor({{1, 2}, {3, 4}});
  EXPECT_EQ(a.dtype(), kLong);
  EXPECT_TENSOR(a, {2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(tensor({1.5, 2.0}).dtype(), kFloat);
  EXPECT_EQ(tensor({1, 2}, kDouble).dtype(), kDouble);
  EXPECT_EQ(tensor({true, false}).dtype(), kBool);
  EXPECT_EQ(tensor(3.5).dim(), 0);
  EXPECT_EQ(tensor(std::vector<float>{1, 2, 3}).dtype(), kFloat);
  EXPECT_EQ(tensor(std::vector<int32_t>{1, 2, 3}).dtype(), kInt);
  EXPECT_TENSOR(tensor({{{1.0}, {2.0}}}), {1, 2, 1}, {1, 2});
  EXPECT_ERROR_CONTAINS(tensor({{1, 2}, {3}}),
                        "Expected all sub-lists to have the same size");
}

TEST(FactoryTest, GeneratorIsMt19937_64) {
  // The global generator draws std::mt19937_64's stream: randint takes one
  // draw modulo the range per element, over several state refills.
  const int64_t range = std::numeric_limits<int64_t>::max();
  for (uint64_t seed : {42ull, 67280421310721ull}) {
    manual_seed(seed);
    std::vector<double> got = test::values(randint(0, range, {2000}));
    std::mt19937_64 reference(seed);
    for (size_t i = 0; i < got.size(); ++i) {
      int64_t want = int64_t(reference() % uint64_t(range));
      ASSERT_EQ(got[i], double(want)) << "draw " << i << ", seed " << seed;
    }
  }
  // Dropout masks draw in bulk: still one uniform per element, in order.
  manual_seed(7);
  Tensor kept = dropout(ones({1000}), 0.3, true) != 0;
  std::mt19937_64 reference(7);
  std::vector<double> mask = test::values(kept);
  for (size_t i = 0; i < mask.size(); ++i) {
    double u = double(reference() >> 11) * 0x1.0p-53;
    ASSERT_EQ(mask[i], u >= 0.3 ? 1.0 : 0.0) << "element " << i;
  }
}

TEST(FactoryTest, RandomIsReproducible) {
  manual_seed(42);
  Tensor a = rand({100});
  Tensor n1 = randn({1000}, kDouble);
  Tensor i1 = randint(3, 7, {50});
  manual_seed(42);
  Tensor b = rand({100});
  Tensor n2 = randn({1000}, kDouble);
  Tensor i2 = randint(3, 7, {50});
  EXPECT_TRUE(a.equal(b));
  EXPECT_TRUE(n1.equal(n2));
  EXPECT_TRUE(i1.equal(i2));
  EXPECT_GE(a.min().item<float>(), 0.0f);
  EXPECT_LT(a.max().item<float>(), 1.0f);
  EXPECT_NEAR(n1.mean().item<double>(), 0.0, 0.1);
  EXPECT_NEAR(n1.std().item<double>(), 1.0, 0.1);
  EXPECT_GE(i1.min().item<int64_t>(), 3);
  EXPECT_LE(i1.max().item<int64_t>(), 6);
  EXPECT_EQ(i1.dtype(), kLong);
  Tensor p = randperm(10);
  EXPECT_TENSOR(std::get<0>(p.max(0)), {}, {9});
  EXPECT_EQ(p.sum().item<int64_t>(), 45);
}

TEST(FactoryTest, FromBlob) {
  float data[6] = {1, 2, 3, 4, 5, 6};
  Tensor t = from_blob(data, {2, 3});
  EXPECT_TENSOR(t, {2, 3}, {1, 2, 3, 4, 5, 6});
  t.mul_(2);
  EXPECT_EQ(data[5], 12);
  Tensor s = from_blob(data, {3}, {2});
  EXPECT_TENSOR(s, {3}, {2, 6, 10});
  bool freed = false;
  {
    double *d = new double[2]{1, 2};
    Tensor o = from_blob(d, {2}, [&freed](void *p) {
      delete[] static_cast<double *>(p);
      freed = true;
    }, kDouble);
    Tensor view = o[1];
    o.reset();
    EXPECT_FALSE(freed);
    EXPECT_EQ(view.item<double>(), 2);
  }
  EXPECT_TRUE(freed);
}

TEST(ViewTest, ViewsShareStorage) {
  Tensor x = arange(12, kFloat);
  Tensor v = x.view({3, 4});
  EXPECT_TRUE(v.is_view());
  v[1][2] = 100;
  EXPECT_EQ(x[6].item<float>(), 100);
  Tensor t = v.t();
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(t.strides().vec(), std::vector<int64_t>({1, 4}));
  EXPECT_TENSOR(t[2], {3}, {2, 100, 10});
  EXPECT_ERROR_CONTAINS(t.view({12}), "view size is not compatible");
  Tensor r = t.reshape({12}); // copy
  EXPECT_TRUE(r.is_contiguous());
  EXPECT_EQ(r[1].item<float>(), 4);
  EXPECT_TENSOR(x.view({2, -1}).select(1, -1), {2}, {5, 11});
  EXPECT_ERROR_CONTAINS(x.view({5, -1}), "shape '[5, -1]' is invalid for input of size 12");
  EXPECT_ERROR_CONTAINS(x.view({-1, -1}), "only one dimension can be inferred");
  EXPECT_EQ(x._version(), v._version());
}

TEST(ViewTest, ShapeOps) {
  Tensor x = arange(24).view({2, 3, 4});
  EXPECT_EQ(x.permute({2, 0, 1}).sizes().vec(), std::vector<int64_t>({4, 2, 3}));
  EXPECT_EQ(x.permute({2, 0, 1})[3][1][2].item<int64_t>(), 23);
  EXPECT_EQ(x.transpose(0, 2).sizes().vec(), std::vector<int64_t>({4, 3, 2}));
  EXPECT_EQ(x.unsqueeze(1).sizes().vec(), std::vector<int64_t>({2, 1, 3, 4}));
  EXPECT_EQ(x.unsqueeze(-1).sizes().vec(), std::vector<int64_t>({2, 3, 4, 1}));
  EXPECT_EQ(x.unsqueeze(1).squeeze().sizes().vec(), std::vector<int64_t>({2, 3, 4}));
  EXPECT_EQ(x.unsqueeze(1).squeeze(1).sizes().vec(), std::vector<int64_t>({2, 3, 4}));
  EXPECT_EQ(x.squeeze(0).sizes().vec(), std::vector<int64_t>({2, 3, 4}));
  EXPECT_EQ(x.flatten().sizes().vec(), std::vector<int64_t>({24}));
  EXPECT_EQ(x.flatten(1).sizes().vec(), std::vector<int64_t>({2, 12}));
  EXPECT_EQ(x.flatten(0, 1).sizes().vec(), std::vector<int64_t>({6, 4}));
  EXPECT_EQ(x.unflatten(2, {2, 2}).sizes().vec(), std::vector<int64_t>({2, 3, 2, 2}));
  EXPECT_TENSOR(x.slice(2, 1, 4, 2)[0][0], {2}, {1, 3});
  EXPECT_TENSOR(x.narrow(1, 1, 1).flatten(), {8}, {4, 5, 6, 7, 16, 17, 18, 19});
  EXPECT_TENSOR(x.select(2, 0)[1], {3}, {12, 16, 20});
  EXPECT_TENSOR(tensor({1, 2}).expand({2, 2}), {2, 2}, {1, 2, 1, 2});
  EXPECT_EQ(tensor({1, 2}).expand({2, 2}).strides().vec(), std::vector<int64_t>({0, 1}));
  EXPECT_TENSOR(tensor({{1}, {2}}).expand_as(zeros({2, 3})), {2, 3}, {1, 1, 1, 2, 2, 2});
  EXPECT_TENSOR(arange(6).as_strided({2, 2}, {1, 2}, 1), {2, 2}, {1, 3, 2, 4});
  EXPECT_TENSOR(arange(9).view({3, 3}).diagonal(), {3}, {0, 4, 8});
  EXPECT_EQ(x.size(-1), 4);
  EXPECT_EQ(x.stride(0), 12);
  EXPECT_ERROR_CONTAINS(x.size(3), "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  EXPECT_ERROR_CONTAINS(x.permute({0, 1}), "number of dimensions in the tensor input does not match");
  EXPECT_ERROR_CONTAINS(x.select(1, 3), "index 3 out of range");
  EXPECT_ERROR_CONTAINS(tensor({1, 2, 3}).expand({2, 2}),
                        "The expanded size of the tensor (2) must match the existing size (3)");
  EXPECT_ERROR_CONTAINS(arange(4).as_strided({3}, {2}), "out of bounds for storage");
  EXPECT_ERROR_CONTAINS(x.narrow(1, 2, 2), "exceeds dimension size");
}

TEST(ViewTest, ContiguousCloneDetach) {
  Tensor x = arange(6, kFloat).view({2, 3});
  Tensor t = x.t();
  Tensor c = t.contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_TENSOR(c, {3, 2}, {0, 3, 1, 4, 2, 5});
  EXPECT_TRUE(x.contiguous().is_same(x));
  Tensor k = x.clone();
  k.add_(1);
  EXPECT_EQ(x[0][0].item<float>(), 0);
  Tensor d = x.detach();
  d.add_(1);
  EXPECT_EQ(x[0][0].item<float>(), 1);
}

TEST(TensorTest, ItemAndDataPtr) {
  Tensor x = tensor({2.5});
  EXPECT_EQ(x.item<float>(), 2.5f);
  EXPECT_EQ(x.item().toDouble(), 2.5);
  EXPECT_EQ(tensor({7}).item<int64_t>(), 7);
  EXPECT_EQ(tcc::test::errorOf([] { tensor({1, 2}).item(); }),
            "a Tensor with 2 elements cannot be converted to Scalar");
  EXPECT_EQ(tcc::test::errorOf([] { ones({2}).data_ptr<double>(); }),
            "expected scalar type Double but found Float");
  Tensor l = tensor({int64_t(1) << 60});
  EXPECT_EQ(l.item<int64_t>(), int64_t(1) << 60);
  EXPECT_ERROR_CONTAINS(Tensor().dim(), "undefined Tensor");
}

TEST(TensorTest, ToDtype) {
  Tensor x = tensor({1.7, -2.2, 0.0});
  EXPECT_TENSOR(x.to(kLong), {3}, {1, -2, 0});
  EXPECT_TENSOR(x.to(kBool), {3}, {1, 1, 0});
  EXPECT_TENSOR(x.to(kHalf).to(kFloat), {3}, {1.7, -2.2, 0}, 1e-3);
  EXPECT_TENSOR(x.to(kBFloat16), {3}, {1.703125, -2.203125, 0});
  EXPECT_TRUE(x.to(kFloat).is_same(x));
  EXPECT_FALSE(x.to(kFloat, false, true).is_same(x));
  EXPECT_EQ(x.to(TensorOptions().dtype(kDouble)).dtype(), kDouble);
}

std::string printed(const Tensor &t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

TEST(PrintTest, LibtorchFormat) {
  EXPECT_EQ(printed(ones({2, 3})), " 1  1  1\n 1  1  1\n[ CPUFloatType{2,3} ]");
  EXPECT_EQ(printed(tensor({0.5, 0.25})), " 0.5000\n 0.2500\n[ CPUFloatType{2} ]");
  EXPECT_EQ(printed(tensor(3.5)), "3.5\n[ CPUFloatType{} ]");
  EXPECT_EQ(printed(tensor({1, 20})), "  1\n 20\n[ CPULongType{2} ]");
  EXPECT_EQ(printed(tensor({12345.5, 1.0})),
            " 12345.5000\n     1.0000\n[ CPUFloatType{2} ]");
  EXPECT_EQ(printed(tensor({1e-3, 1e5})),
            " 1.0000e-03\n 1.0000e+05\n[ CPUFloatType{2} ]");
  EXPECT_EQ(printed(tensor({1000000.5, 2000000.0})),
            "1e+06 *\n 1.0000\n 2.0000\n[ CPUFloatType{2} ]");
  EXPECT_EQ(printed(ones({2, 1, 2}, kInt)),
            "(1,.,.) = \n  1  1\n\n(2,.,.) = \n  1  1\n[ CPUIntType{2,1,2} ]");
  EXPECT_EQ(printed(tensor({true, false})), " 1\n 0\n[ CPUBoolType{2} ]");
  EXPECT_EQ(printed(Tensor()), "[ Tensor (undefined) ]");
  EXPECT_EQ(printed(zeros({0})), "[ CPUFloatType{0} ]");
  // Wide matrices wrap into column blocks at 80 characters.
  std::string wide = printed(ones({1, 30}));
  EXPECT_NE(wide.find("Columns 1 to 26"), std::string::npos);
  EXPECT_NE(wide.find("Columns 27 to 30"), std::string::npos);
}

TEST(AllocatorTest, ReusesFreedBlocks) {
  detail::emptyCache();
  { Tensor a = empty({1 << 20}); }
  auto before = detail::allocatorStats();
  for (int i = 0; i < 5; ++i) {
    Tensor b = empty({1 << 20});
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data_ptr()) % 64, 0u);
  }
  auto after = detail::allocatorStats();
  EXPECT_EQ(after.system_allocations, before.system_allocations);
  EXPECT_GE(after.cache_hits, before.cache_hits + 5);
}

} // namespace
