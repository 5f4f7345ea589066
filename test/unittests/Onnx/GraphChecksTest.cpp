//===- GraphChecksTest.cpp - Graphs that are not DAGs of defined values ---===//

#include "OnnxTestSupport.h"

#include "gmock/gmock.h"

using namespace tcc_onnx_test;
using testing::HasSubstr;

namespace {

class OnnxGraphChecks : public OnnxImportTest {};

TEST_F(OnnxGraphChecks, ACycleIsRefusedNamingANodeOnIt) {
  ModelBuilder b;
  b.input("x", {2});
  b.node("Add", {"x", "b"}, {"a"}, "first");
  b.node("Relu", {"a"}, {"b"}, "second");
  b.output("b");
  EXPECT_THAT(importFails(b),
              HasSubstr("the graph has a cycle through node 'first' (Add)"));
}

TEST_F(OnnxGraphChecks, ANodeUsingItsOwnOutputIsRefused) {
  ModelBuilder b;
  b.input("x", {2});
  b.node("Add", {"x", "y"}, {"y"}, "loop");
  b.output("y");
  EXPECT_EQ(importFails(b), "node 'loop' (Add) uses its own output 'y'");
}

TEST_F(OnnxGraphChecks, ADanglingNameIsRefused) {
  ModelBuilder b;
  b.input("x", {2});
  b.node("Add", {"x", "nowhere"}, {"y"}, "add");
  b.output("y");
  EXPECT_EQ(importFails(b), "node 'add' (Add) uses 'nowhere', which no graph "
                            "input, initializer or node defines");
}

TEST_F(OnnxGraphChecks, AValueDefinedTwiceIsRefused) {
  ModelBuilder b;
  b.input("x", {2});
  b.node("Relu", {"x"}, {"y"}, "one");
  b.node("Neg", {"x"}, {"y"}, "two");
  b.output("y");
  EXPECT_THAT(importFails(b),
              HasSubstr("node 'two' (Neg) defines 'y', which is already node "
                        "'one' (Relu)'s output"));
}

TEST_F(OnnxGraphChecks, ANodeRedefiningAnInputOrInitializerIsRefused) {
  for (bool initializer : {false, true}) {
    ModelBuilder b;
    b.input("x", {2});
    if (initializer)
      b.floats("w", {2}, {1, 2});
    std::string shadowed = initializer ? "w" : "x";
    b.node("Relu", {"x"}, {shadowed}, "shadow");
    b.output(shadowed);
    EXPECT_THAT(importFails(b),
                HasSubstr("node 'shadow' (Relu) defines '" + shadowed +
                          "', which is already a graph input or "
                          "initializer"));
  }
}

TEST_F(OnnxGraphChecks, DuplicateGraphOutputsAreRefused) {
  ModelBuilder b;
  b.input("x", {2});
  b.node("Relu", {"x"}, {"y"}, "relu");
  b.output("y");
  b.output("y");
  EXPECT_EQ(importFails(b), "graph output 'y' is listed twice");
}

TEST_F(OnnxGraphChecks, AnUndefinedGraphOutputIsRefused) {
  ModelBuilder b;
  b.input("x", {2});
  b.node("Relu", {"x"}, {"y"}, "relu");
  b.output("z");
  EXPECT_EQ(importFails(b), "graph output 'z' is never defined");
}

TEST_F(OnnxGraphChecks, AGraphWithoutOutputsIsRefused) {
  ModelBuilder b;
  b.input("x", {2});
  b.node("Relu", {"x"}, {"y"}, "relu");
  EXPECT_EQ(importFails(b), "the graph has no outputs");
}

TEST_F(OnnxGraphChecks, DuplicateInputsAndInitializersAreRefused) {
  ModelBuilder inputs;
  inputs.input("x", {2});
  inputs.input("x", {2});
  inputs.output("x");
  EXPECT_EQ(importFails(inputs), "graph input 'x' is listed twice");

  ModelBuilder initializers;
  initializers.floats("w", {1}, {1});
  initializers.floats("w", {1}, {2});
  initializers.output("w");
  EXPECT_EQ(importFails(initializers), "initializer 'w' is defined twice");

  ModelBuilder unnamed;
  unnamed.input("", {2});
  unnamed.output("y");
  EXPECT_EQ(importFails(unnamed), "a graph input has no name");
}

TEST_F(OnnxGraphChecks, SparseInitializersAreRefusedByName) {
  ModelBuilder b;
  b.input("x", {2});
  b.graph->add_sparse_initializer()->mutable_values()->set_name("sparse_w");
  b.node("Relu", {"x"}, {"y"}, "relu");
  b.output("y");
  EXPECT_THAT(importFails(b), HasSubstr("sparse initializer 'sparse_w'"));
}

TEST_F(OnnxGraphChecks, NodesOutOfOrderAreSortedAndImported) {
  ModelBuilder b;
  b.input("x", {2});
  b.node("Neg", {"a"}, {"y"}, "second");
  b.node("Relu", {"x"}, {"a"}, "first");
  b.output("y");
  EXPECT_TRUE(importSucceeds(b));
}

TEST_F(OnnxGraphChecks, AnOutputTheOpImporterDoesNotProduceIsRefused) {
  // Relu has one output; a second one is never produced.
  ModelBuilder b;
  b.input("x", {2});
  b.node("Relu", {"x"}, {"y", "extra"}, "relu");
  b.output("y");
  b.output("extra");
  EXPECT_THAT(importFails(b),
              HasSubstr("node 'relu' (Relu): output 1 ('extra') is not "
                        "supported"));
}

} // namespace
