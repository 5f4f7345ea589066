//===- LowerShapeTest.cpp - Constants, views, data movement, indexing -----===//
//
// Data movement is exact. Index-driven reads clamp out-of-range indices
// into the indexed dim (PyTorch raises; a kernel cannot), which the
// references below model explicitly.
//
//===----------------------------------------------------------------------===//

#include "KernelTestHarness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <sstream>

using namespace tcc_test;

namespace {

class LowerShapeTest : public ::testing::Test {
protected:
  std::unique_ptr<mlir::MLIRContext> context = makeContext();
};

std::string array(const std::vector<int64_t> &values) {
  std::ostringstream os;
  os << "array<i64";
  for (size_t i = 0; i < values.size(); ++i)
    os << (i ? ", " : ": ") << values[i];
  os << ">";
  return os.str();
}

std::string unique(const std::string &base,
                   const std::vector<KernelCase> &cases) {
  return base + "_" + std::to_string(cases.size());
}

int64_t clampIndex(double index, int64_t size) {
  return std::min<int64_t>(std::max<int64_t>(static_cast<int64_t>(index), 0),
                           size - 1);
}

TEST_F(LowerShapeTest, ConstantsKeepTheirBytes) {
  std::vector<KernelCase> cases;
  const std::pair<DType, std::string> constants[] = {
      {DType::F32, "dense<[1.5, -2.0, 3.25]>"},
      {DType::UI8, "dense<[1, 200, 255]>"},
      {DType::Bool, "dense<[true, false, true]>"},
      {DType::BF16, "dense<[1.0, 0.5, -3.0]>"},
      {DType::I64, "dense<[-1, 0, 9000000000]>"}};
  const std::vector<double> values[] = {
      {1.5, -2, 3.25}, {1, 200, 255}, {1, 0, 1}, {1, 0.5, -3}, {-1, 0, 9e9}};
  for (size_t i = 0; i < std::size(constants); ++i) {
    Tensor want{constants[i].first, {3}, values[i]};
    std::string fn =
        unique(std::string("constant_") + mlirName(want.dtype), cases);
    cases.push_back({fn,
                     "func.func @" + fn + "() -> " + want.type() +
                         " {\n  %r = tcc.constant " + constants[i].second +
                         " : " + want.type() +
                         "\n  return %r : " + want.type() + "\n}\n",
                     {},
                     {want}});
  }
  runCases(*context, cases);
}

TEST_F(LowerShapeTest, ReshapesAreViewsInRowMajorOrder) {
  const std::pair<std::vector<int64_t>, std::vector<int64_t>> shapes[] = {
      {{2, 3, 4}, {6, 4}},                  // collapse
      {{6, 4}, {2, 3, 2, 2}},               // expand
      {{2, 3}, {3, 2}},                     // neither: through 1-D
      {{1, 6}, {6, 1}},       {{1, 1}, {}}, // to a scalar
      {{}, {1, 1, 1}},                      // from a scalar
      {{2, 3}, {2, 3}}, // same type: the kernel returns a copy
  };
  std::vector<KernelCase> cases;
  for (DType dtype : {DType::F32, DType::UI8, DType::Bool}) {
    for (const auto &[from, to] : shapes) {
      Tensor x = random(dtype, from, 0, 9, cases.size());
      Tensor want{dtype, to, x.values};
      std::string fn = unique(std::string("reshape_") + mlirName(dtype), cases);
      cases.push_back({fn,
                       singleOpFunction(fn, {x}, want,
                                        "tcc.reshape %a0 : " + x.type() +
                                            " to " + want.type()),
                       {x},
                       {want}});
    }
  }
  runCases(*context, cases);
}

TEST_F(LowerShapeTest, TransposeBroadcastAndSlice) {
  std::vector<KernelCase> cases;
  for (DType dtype : {DType::F32, DType::I8, DType::Bool, DType::F16}) {
    Tensor x = random(dtype, {2, 3, 4}, -9, 9, cases.size());
    for (const std::vector<int64_t> &perm :
         {std::vector<int64_t>{2, 0, 1}, {0, 2, 1}, {0, 1, 2}}) {
      std::vector<int64_t> shape;
      for (int64_t p : perm)
        shape.push_back(x.shape[p]);
      Tensor want = generate(dtype, shape, [&](const std::vector<int64_t> &i) {
        std::vector<int64_t> at(3);
        for (int d = 0; d < 3; ++d)
          at[perm[d]] = i[d];
        return x.at(at);
      });
      std::string fn = unique("transpose", cases);
      cases.push_back(
          {fn,
           singleOpFunction(fn, {x}, want,
                            "tcc.transpose %a0 {permutation = " + array(perm) +
                                "} : " + x.type() + " -> " + want.type()),
           {x},
           {want}});
    }
    Tensor row = random(dtype, {1, 4}, -9, 9, cases.size());
    Tensor wide =
        generate(dtype, {2, 3, 4}, [&](const std::vector<int64_t> &i) {
          return row.at({0, i[2]});
        });
    std::string fn = unique("broadcast_to", cases);
    cases.push_back({fn,
                     singleOpFunction(fn, {row}, wide,
                                      "tcc.broadcast_to %a0 : " + row.type() +
                                          " to " + wide.type()),
                     {row},
                     {wide}});
    struct Slice {
      std::vector<int64_t> start, end, step;
    };
    for (const Slice &s : {Slice{{0, 1, 1}, {2, 3, 4}, {1, 1, 2}},
                           Slice{{1, 0, 3}, {2, 3, 4}, {1, 2, 5}}}) {
      std::vector<int64_t> shape;
      for (int d = 0; d < 3; ++d)
        shape.push_back((s.end[d] - s.start[d] + s.step[d] - 1) / s.step[d]);
      Tensor want = generate(dtype, shape, [&](const std::vector<int64_t> &i) {
        return x.at({s.start[0] + i[0] * s.step[0],
                     s.start[1] + i[1] * s.step[1],
                     s.start[2] + i[2] * s.step[2]});
      });
      fn = unique("slice", cases);
      cases.push_back(
          {fn,
           singleOpFunction(fn, {x}, want,
                            "tcc.slice %a0 {start = " + array(s.start) +
                                ", end = " + array(s.end) +
                                ", step = " + array(s.step) +
                                "} : " + x.type() + " -> " + want.type()),
           {x},
           {want}});
    }
  }
  runCases(*context, cases);
}

/// concat(%a0, an empty slice of %a0, %a1): empty inputs contribute nothing.
/// (The empty tensor stays inside the kernel: a kernel argument with a
/// zero-size inner dim cannot take the bare-pointer ABI, see the report.)
TEST_F(LowerShapeTest, ConcatAlongEveryDim) {
  std::vector<KernelCase> cases;
  for (DType dtype : {DType::F32, DType::UI8, DType::Bool, DType::F64}) {
    for (int64_t dim : {0, 1, -1}) {
      int64_t d = dim < 0 ? dim + 3 : dim;
      std::vector<int64_t> shapeA = {2, 3, 4}, shapeB = {2, 3, 4},
                           shapeE = {2, 3, 4};
      shapeA[d] = 2;
      shapeB[d] = 3;
      shapeE[d] = 0;
      Tensor a = random(dtype, shapeA, 0, 9, cases.size());
      Tensor b = random(dtype, shapeB, 0, 9, cases.size() + 1);
      Tensor empty = zeros(dtype, shapeE);
      std::vector<int64_t> shape = {2, 3, 4};
      shape[d] = 5;
      Tensor want = generate(dtype, shape, [&](const std::vector<int64_t> &i) {
        std::vector<int64_t> at = i;
        if (at[d] < 2)
          return a.at(at);
        at[d] -= 2;
        return b.at(at);
      });
      std::vector<int64_t> start = {0, 0, 0}, end = shapeA, step = {1, 1, 1};
      start[d] = end[d] = 1;
      std::string fn = unique(std::string("concat_") + mlirName(dtype), cases);
      std::string function =
          "func.func @" + fn + "(%a0: " + a.type() + ", %a1: " + b.type() +
          ") -> " + want.type() +
          " {\n  %e = tcc.slice %a0 {start = " + array(start) +
          ", end = " + array(end) + ", step = " + array(step) +
          "} : " + a.type() + " -> " + empty.type() +
          "\n  %r = tcc.concat %a0, %e, %a1 {dim = " + std::to_string(dim) +
          " : i64} : (" + a.type() + ", " + empty.type() + ", " + b.type() +
          ") -> " + want.type() + "\n  return %r : " + want.type() + "\n}\n";
      KernelCase c{fn, function, {a, b}, {want}};
      c.expectedTiles = d == 0 ? 5 : 2;
      cases.push_back(std::move(c));
    }
  }
  runCases(*context, cases);
}

TEST_F(LowerShapeTest, IndexedReadsClampOutOfRangeIndices) {
  std::vector<KernelCase> cases;
  for (DType index : {DType::I64, DType::I32}) {
    for (DType dtype : {DType::F32, DType::I8, DType::Bool}) {
      Tensor x = random(dtype, {4, 5}, -9, 9, cases.size());
      // gather along each dim; indices include -3 and 7 (clamped).
      for (int64_t dim : {0, 1}) {
        Tensor idx =
            random(index, {3, 4}, 0, x.shape[dim] - 1, cases.size() + 1);
        idx.values[0] = -3;
        idx.values[5] = 7;
        Tensor want =
            generate(dtype, {3, 4}, [&](const std::vector<int64_t> &i) {
              std::vector<int64_t> at = i;
              at[dim] = clampIndex(idx.at(i), x.shape[dim]);
              return x.at(at);
            });
        std::string fn = unique("gather", cases);
        cases.push_back(
            {fn,
             singleOpFunction(
                 fn, {x, idx}, want,
                 "tcc.gather %a0, %a1 {dim = " + std::to_string(dim) +
                     " : i64} : (" + x.type() + ", " + idx.type() + ") -> " +
                     want.type()),
             {x, idx},
             {want}});
      }
      // index_select along dim 1 with a repeated and an out-of-range index.
      Tensor sel{index, {4}, {4, 0, 4, 9}};
      Tensor picked =
          generate(dtype, {4, 4}, [&](const std::vector<int64_t> &i) {
            return x.at({i[0], clampIndex(sel.values[i[1]], 5)});
          });
      std::string fn = unique("index_select", cases);
      cases.push_back(
          {fn,
           singleOpFunction(fn, {x, sel}, picked,
                            "tcc.index_select %a0, %a1 {dim = 1 : i64} : (" +
                                x.type() + ", " + sel.type() + ") -> " +
                                picked.type()),
           {x, sel},
           {picked}});
      // embedding: rows of a [4, 5] table by a [2, 3] index tensor.
      Tensor ids{index, {2, 3}, {0, 3, 2, -1, 3, 100}};
      Tensor rows =
          generate(dtype, {2, 3, 5}, [&](const std::vector<int64_t> &i) {
            return x.at({clampIndex(ids.at({i[0], i[1]}), 4), i[2]});
          });
      fn = unique("embedding", cases);
      KernelCase c{fn,
                   singleOpFunction(fn, {ids, x}, rows,
                                    "tcc.embedding %a0, %a1 : (" + ids.type() +
                                        ", " + x.type() + ") -> " +
                                        rows.type()),
                   {ids, x},
                   {rows}};
      // The ids' dims and the rows' leading dims are walked in the same
      // order and merge into one loop (tcc-coalesce-loops): a tile per id.
      c.expectedTiles = ids.numel();
      cases.push_back(std::move(c));
    }
  }
  // Nothing to read: gathering from an empty dim gives zeros.
  Tensor empty = zeros(DType::F32, {0, 3});
  Tensor ids{DType::I64, {2}, {0, 5}};
  Tensor zero = zeros(DType::F32, {2, 3});
  cases.push_back(
      {"index_select_empty",
       singleOpFunction("index_select_empty", {empty, ids}, zero,
                        "tcc.index_select %a0, %a1 {dim = 0 : i64} : (" +
                            empty.type() + ", " + ids.type() + ") -> " +
                            zero.type()),
       {empty, ids},
       {zero}});
  runCases(*context, cases);
}

TEST_F(LowerShapeTest, PadAndCrop) {
  struct Pad {
    std::vector<int64_t> pad; // last dim first
    double value;
  };
  const Pad pads[] = {{{1, 2}, 0},         // last dim
                      {{1, 1, 2, 0}, 7},   // both dims, a value
                      {{-1, 2, 0, -1}, 3}, // crop and pad
                      {{0, 0, 1, 1}, 1}};  // first dim only
  std::vector<KernelCase> cases;
  for (DType dtype : {DType::F32, DType::UI8, DType::Bool, DType::BF16}) {
    for (const Pad &p : pads) {
      Tensor x =
          random(dtype, {3, 4}, 0, dtype == DType::Bool ? 1 : 9, cases.size());
      std::vector<int64_t> low(2, 0), shape = x.shape;
      for (size_t i = 0; i < p.pad.size() / 2; ++i) {
        int64_t d = 1 - static_cast<int64_t>(i);
        low[d] = p.pad[2 * i];
        shape[d] += p.pad[2 * i] + p.pad[2 * i + 1];
      }
      double value = dtype == DType::Bool ? (p.value != 0) : p.value;
      Tensor want = generate(dtype, shape, [&](const std::vector<int64_t> &i) {
        int64_t r = i[0] - low[0], c = i[1] - low[1];
        bool inside = r >= 0 && r < 3 && c >= 0 && c < 4;
        return inside ? x.at({r, c}) : value;
      });
      std::ostringstream attr;
      attr << "{pad = " << array(p.pad) << ", value = " << value << ".0 : f64}";
      std::string fn = unique(std::string("pad_") + mlirName(dtype), cases);
      cases.push_back({fn,
                       singleOpFunction(fn, {x}, want,
                                        "tcc.pad %a0 " + attr.str() + " : " +
                                            x.type() + " -> " + want.type()),
                       {x},
                       {want}});
    }
  }
  runCases(*context, cases);
}

TEST_F(LowerShapeTest, KernelsReturningArgumentsOrOneValueTwice) {
  Tensor x = random(DType::F32, {2, 3}, -1, 1, 5);
  std::vector<KernelCase> cases;
  cases.push_back(
      {"returns_argument",
       "func.func @returns_argument(%a: tensor<2x3xf32>) -> (tensor<2x3xf32>, "
       "tensor<2x3xf32>) {\n"
       "  %d = tcc.dropout %a {p = 1.000000e-01 : f64} : tensor<2x3xf32>\n"
       "  return %d, %a : tensor<2x3xf32>, tensor<2x3xf32>\n}\n",
       {x},
       {x, x}});
  Tensor e = generate(DType::F32, x.shape, [&](const std::vector<int64_t> &i) {
    return std::exp(x.at(i));
  });
  cases.push_back(
      {"returns_twice",
       "func.func @returns_twice(%a: tensor<2x3xf32>) -> (tensor<2x3xf32>, "
       "tensor<2x3xf32>) {\n"
       "  %e = tcc.exp %a : tensor<2x3xf32>\n"
       "  return %e, %e : tensor<2x3xf32>, tensor<2x3xf32>\n}\n",
       {x},
       {e, e},
       {0, 2.4e-7}});
  runCases(*context, cases);
}

} // namespace
