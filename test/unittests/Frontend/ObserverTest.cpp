//===- ObserverTest.cpp - The record step, trace observer and op registry -===//

#include "TestSupport.h"

#include "tcc/Frontend/OpObserver.h"

#include <set>

using namespace tcc;
using detail::OpCall;

namespace {

/// Records what a tracer would see.
struct Recorder : detail::OpObserver {
  struct Call {
    std::string name;
    std::vector<const TensorImpl *> inputs, outputs;
    detail::AttrList attrs;
    bool inplace;
  };
  std::vector<Call> calls;
  std::vector<std::string> reads;
  void onOp(const OpCall &c) override {
    Call k{c.op.name, {}, {}, c.attrs, c.inplace};
    for (const Tensor &t : c.inputs)
      k.inputs.push_back(t.unsafeGetTensorImpl());
    for (const Tensor &t : c.outputs)
      k.outputs.push_back(t.unsafeGetTensorImpl());
    calls.push_back(k);
  }
  void onDataRead(const Tensor &, const char *what) override {
    reads.push_back(what);
  }
};

struct ObserverScope {
  explicit ObserverScope(detail::OpObserver *o) : prev(detail::setObserver(o)) {}
  ~ObserverScope() { detail::setObserver(prev); }
  detail::OpObserver *prev;
};

TEST(ObserverTest, EachOpIsReportedOnce) {
  Tensor x = ones({2, 3}), w = ones({3, 4});
  Recorder r;
  Tensor y;
  {
    ObserverScope scope(&r);
    y = matmul(x, w).relu().sum({1}, true);
  }
  ASSERT_EQ(r.calls.size(), 3u);
  EXPECT_EQ(r.calls[0].name, "matmul"); // composite: inner mm not reported
  EXPECT_EQ(r.calls[0].inputs[0], x.unsafeGetTensorImpl());
  EXPECT_EQ(r.calls[1].name, "relu");
  EXPECT_EQ(r.calls[1].inputs[0], r.calls[0].outputs[0]);
  EXPECT_EQ(r.calls[2].name, "sum.dim");
  EXPECT_EQ(r.calls[2].outputs[0], y.unsafeGetTensorImpl());
  ASSERT_EQ(r.calls[2].attrs.size(), 3u);
  EXPECT_STREQ(r.calls[2].attrs[0].name, "dim");
  EXPECT_EQ(std::get<std::vector<int64_t>>(r.calls[2].attrs[0].value),
            std::vector<int64_t>({1}));
  EXPECT_EQ(std::get<bool>(r.calls[2].attrs[1].value), true);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(r.calls[2].attrs[2].value));
}

TEST(ObserverTest, InplaceAndViewsInValueForm) {
  Tensor x = ones({4});
  Recorder r;
  {
    ObserverScope scope(&r);
    Tensor v = x.view({2, 2});
    x.add_(2, 3);
  }
  ASSERT_EQ(r.calls.size(), 2u);
  EXPECT_EQ(r.calls[0].name, "view");
  EXPECT_FALSE(r.calls[0].inplace);
  EXPECT_EQ(r.calls[1].name, "add"); // add_ reported as add
  EXPECT_TRUE(r.calls[1].inplace);
  EXPECT_EQ(r.calls[1].outputs[0], x.unsafeGetTensorImpl());
  EXPECT_EQ(std::get<int64_t>(r.calls[1].attrs[0].value), 3);
}

TEST(ObserverTest, InplaceWithGradStillReportsOnce) {
  Tensor x = ones({2}).requires_grad_();
  Tensor y = x * 2;
  Recorder r;
  {
    ObserverScope scope(&r);
    y.mul_(x);
  }
  ASSERT_EQ(r.calls.size(), 1u);
  EXPECT_EQ(r.calls[0].name, "mul");
  EXPECT_TRUE(r.calls[0].inplace);
}

TEST(ObserverTest, DataDependentReadsAreReported) {
  Tensor x = ones({1});
  Recorder r;
  {
    ObserverScope scope(&r);
    (void)x.item<float>();
    (void)x.data_ptr<float>();
  }
  EXPECT_EQ(r.reads, std::vector<std::string>({"item", "data_ptr"}));
}

TEST(ObserverTest, PauseGuardHidesCalls) {
  Recorder r;
  ObserverScope scope(&r);
  {
    detail::RecordPauseGuard pause;
    (void)(ones({2}) + 1);
  }
  EXPECT_TRUE(r.calls.empty());
  (void)(ones({2}) + 1);
  EXPECT_EQ(r.calls.size(), 1u);
}

TEST(RegistryTest, EnumeratesOps) {
  const auto &ops = detail::registeredOps();
  std::set<std::string> names;
  for (const detail::OpDef *op : ops) {
    EXPECT_TRUE(names.insert(op->name).second) << "duplicate " << op->name;
    EXPECT_NE(std::string(op->schema).find(op->name), std::string::npos) << op->name;
  }
  for (const char *n : {"add", "mul", "matmul", "mm", "sum", "softmax", "relu",
                        "view", "where", "copy", "max.dim"})
    EXPECT_TRUE(names.count(n)) << n;
  ASSERT_NE(detail::findOp("mul"), nullptr);
  EXPECT_STREQ(detail::findOp("mul")->backward, "MulBackward0");
  EXPECT_EQ(detail::findOp("no_such_op"), nullptr);
}

} // namespace
