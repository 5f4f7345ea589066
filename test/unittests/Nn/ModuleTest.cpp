//===- ModuleTest.cpp - nn::Module, holders, Cloneable, options -----------===//

#include "TestSupport.h"

#include "tcc/nn.h"

#include <sstream>

using namespace tcc;
using tcc::test::errorOf;

namespace {

struct NetImpl : nn::Cloneable<NetImpl> {
  NetImpl() { reset(); }
  void reset() override {
    fc1 = register_module("fc1", nn::Linear(3, 4));
    bn = register_module("bn", nn::BatchNorm1d(4));
    fc2 =
        register_module("fc2", nn::Linear(nn::LinearOptions(4, 2).bias(false)));
    scale = register_parameter("scale", ones({1}));
    steps = register_buffer("steps", zeros({1}, kLong));
  }
  Tensor forward(const Tensor &x) { return fc2(bn(fc1(x)).relu()) * scale; }
  nn::Linear fc1{nullptr};
  nn::BatchNorm1d bn{nullptr};
  nn::Linear fc2{nullptr};
  Tensor scale, steps;
};
TCC_MODULE(Net);

std::vector<std::string> keysOf(const OrderedDict<std::string, Tensor> &d) {
  return d.keys();
}

} // namespace

TEST(ModuleTest, NamedParametersAndBuffersUseDottedNamesInRegistrationOrder) {
  Net net;
  EXPECT_EQ(keysOf(net->named_parameters()),
            (std::vector<std::string>{"scale", "fc1.weight", "fc1.bias",
                                      "bn.weight", "bn.bias", "fc2.weight"}));
  EXPECT_EQ(keysOf(net->named_parameters(/*recurse=*/false)),
            (std::vector<std::string>{"scale"}));
  EXPECT_EQ(
      keysOf(net->named_buffers()),
      (std::vector<std::string>{"steps", "bn.running_mean", "bn.running_var",
                                "bn.num_batches_tracked"}));
  EXPECT_EQ(net->parameters().size(), 6u);
  EXPECT_TRUE(net->parameters()[1].is_same(net->fc1->weight));
  for (const Tensor &p : net->parameters())
    EXPECT_TRUE(p.requires_grad());
  EXPECT_FALSE(net->steps.requires_grad());
}

TEST(ModuleTest, ChildrenModulesAndNamedModules) {
  Net net;
  EXPECT_EQ(net->children().size(), 3u);
  EXPECT_EQ(net->named_children().keys(),
            (std::vector<std::string>{"fc1", "bn", "fc2"}));
  auto named = net->named_modules();
  EXPECT_EQ(named.keys(), (std::vector<std::string>{"", "fc1", "bn", "fc2"}));
  EXPECT_EQ(named[""].get(), net.get());
  EXPECT_EQ(net->modules(/*include_self=*/false).size(), 3u);
  EXPECT_EQ(net->named_modules("net", false).keys(),
            (std::vector<std::string>{"net.fc1", "net.bn", "net.fc2"}));
  EXPECT_NE(net->fc1->as<nn::Linear>(), nullptr);
  EXPECT_EQ(net->fc1->as<nn::BatchNorm1dImpl>(), nullptr);
}

TEST(ModuleTest, ModulesOfAStackModuleIsAClearError) {
  NetImpl net;
  EXPECT_NE(errorOf([&] { net.modules(); }).find("not stored in a shared_ptr"),
            std::string::npos);
  EXPECT_EQ(net.modules(false).size(), 3u); // children need no shared_ptr
}

TEST(ModuleTest, BadNamesAndDuplicatesAreErrors) {
  nn::Module m;
  m.register_parameter("w", ones({1}));
  EXPECT_ERROR_CONTAINS(m.register_parameter("w", ones({1})),
                        "Parameter 'w' already defined");
  EXPECT_ERROR_CONTAINS(m.register_parameter("", ones({1})),
                        "must not be empty");
  EXPECT_ERROR_CONTAINS(m.register_buffer("a.b", ones({1})),
                        "must not contain a dot (got 'a.b')");
  m.register_module("fc", nn::Linear(1, 1));
  EXPECT_ERROR_CONTAINS(m.register_module("fc", nn::Linear(1, 1)),
                        "Submodule 'fc' already defined");
  EXPECT_ERROR_CONTAINS(m.register_module("empty", nn::Linear(nullptr)),
                        "Accessing empty ModuleHolder");
}

TEST(ModuleTest, TrainAndEvalReachEveryDescendant) {
  Net net;
  EXPECT_TRUE(net->is_training());
  net->eval();
  for (const auto &m : net->modules())
    EXPECT_FALSE(m->is_training());
  net->train();
  EXPECT_TRUE(net->bn->is_training());
  net->train(false);
  EXPECT_FALSE(net->fc2->is_training());
}

TEST(ModuleTest, ToDtypeConvertsInPlaceAndKeepsIntegerBuffers) {
  Net net;
  Tensor alias = net->fc1->weight; // e.g. held by an optimizer
  Tensor before = alias.clone();
  net->to(kDouble);
  EXPECT_EQ(alias.dtype(), kDouble);
  EXPECT_TRUE(alias.requires_grad());
  EXPECT_TRUE(alias.allclose(before.to(kDouble)));
  EXPECT_EQ(net->bn->running_mean.dtype(), kDouble);
  EXPECT_EQ(net->bn->num_batches_tracked.dtype(), kLong);
  EXPECT_EQ(net->steps.dtype(), kLong);
  Tensor y = net->forward(randn({5, 3}, kDouble));
  EXPECT_EQ(y.dtype(), kDouble);
  net->to(Device(kCPU));
  EXPECT_ERROR_CONTAINS(net->to(Device(kCUDA)), "CUDA");
  EXPECT_ERROR_CONTAINS(net->to(kLong), "floating point");
}

TEST(ModuleTest, ZeroGradAndSetToNone) {
  nn::Linear fc(2, 1);
  fc(ones({3, 2})).sum().backward();
  EXPECT_TENSOR(fc->bias.grad(), {1}, {3.0});
  fc->zero_grad();
  EXPECT_TENSOR(fc->bias.grad(), {1}, {0.0});
  fc(ones({1, 2})).sum().backward();
  EXPECT_TENSOR(fc->bias.grad(), {1}, {1.0});
  fc->zero_grad(/*set_to_none=*/true);
  EXPECT_FALSE(fc->bias.grad().defined());
}

TEST(ModuleTest, FreezingWithRequiresGradFalse) {
  Net net;
  for (const Tensor &p : net->fc1->parameters())
    p.requires_grad_(false);
  net->forward(randn({4, 3})).sum().backward();
  EXPECT_FALSE(net->fc1->weight.grad().defined());
  EXPECT_TRUE(net->fc2->weight.grad().defined());
}

TEST(ModuleTest, ApplyVisitsDepthFirstWithNames) {
  Net net;
  std::vector<std::string> names;
  net->apply(
      [&](const std::string &name, nn::Module &) { names.push_back(name); },
      "root");
  EXPECT_EQ(names, (std::vector<std::string>{"root", "root.fc1", "root.bn",
                                             "root.fc2"}));
  int linears = 0;
  net->apply([&](nn::Module &m) { linears += m.as<nn::Linear>() != nullptr; });
  EXPECT_EQ(linears, 2);
  int pointers = 0;
  net->apply(
      [&](const std::shared_ptr<nn::Module> &m) { pointers += m != nullptr; });
  EXPECT_EQ(pointers, 4);
}

TEST(HolderTest, EmptyDefaultAndSharedHolders) {
  nn::Linear empty{nullptr};
  EXPECT_TRUE(empty.is_empty());
  EXPECT_FALSE(bool(empty));
  EXPECT_ERROR_CONTAINS(empty->forward(ones({1})), "empty ModuleHolder");
  nn::Dropout2d byDefault; // default holder constructs its Impl
  EXPECT_FALSE(byDefault.is_empty());
  EXPECT_DOUBLE_EQ(byDefault->options.p(), 0.5);

  nn::Linear fc(2, 3);
  nn::Linear copy = fc;
  EXPECT_EQ(copy.get(), fc.get());
  empty = fc;
  EXPECT_TRUE(empty->weight.is_same(fc->weight));
  Tensor x = randn({4, 2});
  EXPECT_TRUE(fc(x).equal(fc->forward(x)));
  EXPECT_EQ(fc.ptr().use_count(), 3);
}

TEST(CloneableTest, CloneIsDeepAndKeepsValues) {
  Net net;
  auto copy = std::dynamic_pointer_cast<NetImpl>(net->clone());
  ASSERT_TRUE(copy);
  auto a = net->named_parameters(), b = copy->named_parameters();
  ASSERT_EQ(a.keys(), b.keys());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_TRUE(a[i].value().equal(b[i].value())) << a[i].key();
    EXPECT_NE(a[i].value().data_ptr(), b[i].value().data_ptr()) << a[i].key();
  }
  // The copy's holder members point at the copy's own children.
  EXPECT_TRUE(copy->fc1->weight.is_same(b["fc1.weight"]));
  {
    NoGradGuard g;
    copy->fc1->weight.fill_(7);
  }
  EXPECT_FALSE(net->fc1->weight.equal(copy->fc1->weight));
  nn::Module plain;
  EXPECT_ERROR_CONTAINS(plain.clone(), "Cloneable");
}

TEST(OptionsTest, ArgChainingAndExpandingArrays) {
  auto o = nn::Conv2dOptions(1, 8, 3).stride(2).bias(false).padding({1, 2});
  EXPECT_EQ(o.kernel_size()->at(1), 3);
  EXPECT_EQ(o.stride()[0], 2);
  EXPECT_FALSE(o.bias());
  EXPECT_EQ(std::get<ExpandingArray<2>>(o.padding())[1], 2);
  ExpandingArray<2> single(5);
  EXPECT_EQ(IntArrayRef(single), IntArrayRef({5, 5}));
  EXPECT_ERROR_CONTAINS((ExpandingArray<2>({1, 2, 3})),
                        "Expected 2 values, but instead got 3");
  std::ostringstream os;
  os << ExpandingArray<2>({3, 4});
  EXPECT_EQ(os.str(), "[3, 4]");
}

TEST(ModuleTest, PrettyPrintsTheTree) {
  nn::Sequential seq(nn::Linear(2, 3), nn::ReLU(),
                     nn::Conv2d(nn::Conv2dOptions(1, 2, 3).bias(false)));
  std::ostringstream os;
  os << *seq;
  EXPECT_EQ(os.str(), "torch::nn::Sequential(\n"
                      "  (0): torch::nn::Linear(in_features=2, out_features=3, "
                      "bias=true)\n"
                      "  (1): torch::nn::ReLU()\n"
                      "  (2): torch::nn::Conv2d(1, 2, kernel_size=[3, 3], "
                      "stride=[1, 1], bias=false)\n"
                      ")");
}

TEST(OrderedDictTest, InsertFindEraseAndErrors) {
  OrderedDict<std::string, int> d("Thing");
  d.insert("a", 1);
  d.insert("b", 2);
  d.insert("c", 3);
  d.erase("b");
  EXPECT_EQ(d.keys(), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(d["c"], 3);
  EXPECT_EQ(d[1].value(), 3);
  EXPECT_EQ(d.find("b"), nullptr);
  EXPECT_ERROR_CONTAINS(d["b"], "Thing 'b' is not defined");
  EXPECT_ERROR_CONTAINS(d.insert("a", 5), "Thing 'a' already defined");
  EXPECT_ERROR_CONTAINS(d[7], "out of bounds");
}
