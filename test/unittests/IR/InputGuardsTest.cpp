//===- InputGuardsTest.cpp - Checks on untrusted IR input -----------------===//

#include "tcc/Support/InputGuards.h"
#include "tcc/IR/TccDialect.h"
#include "tcc/IR/TccOps.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

std::optional<tcc::TextProblem> scan(StringRef text, unsigned maxNesting = 8) {
  tcc::InputLimits limits;
  limits.maxNesting = maxNesting;
  return tcc::findTextProblem(llvm::MemoryBufferRef(text, "input"), limits);
}

TEST(InputGuardsTest, NestingLimitIsExact) {
  EXPECT_FALSE(scan("{[(<{[(<>)]}>)]}"));      // 8 levels
  auto problem = scan("a {[(<{[(<{}>)]}>)]}"); // 9 levels
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->message, "nesting is deeper than 8 levels of brackets");
}

// The location is the bracket that went one level too deep.
TEST(InputGuardsTest, ProblemLocationPointsIntoTheBuffer) {
  std::string text = "a {[(<{[(<{}>)]}>)]}";
  tcc::InputLimits limits;
  limits.maxNesting = 8;
  auto problem =
      tcc::findTextProblem(llvm::MemoryBufferRef(text, "input"), limits);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->loc.getPointer(), text.data() + 10);
}

TEST(InputGuardsTest, StringsCommentsAndArrowsDoNotNest) {
  EXPECT_FALSE(scan("\"{{{{{{{{{{{{\\\"{{{{\" // [[[[[[[[[[[[[\n"
                    "() -> () -> () -> () -> () -> () -> () -> () -> ()"));
  // Closing brackets of any kind close; the depth never goes below zero.
  EXPECT_FALSE(scan("}}}}}}}}}}{{{{{{{{}}}}}}}}"));
}

// A string still open at the end of the text is refused before MLIR's
// lexer, which would read past the buffer's end there (a dense_resource
// blob cut inside its hex); one closed by a newline is the parser's error.
TEST(InputGuardsTest, AStringOpenAtTheEndIsRefused) {
  std::string text = "{-# dialect_resources: { builtin: { w: \"0x0400A54D";
  auto problem =
      tcc::findTextProblem(llvm::MemoryBufferRef(text, "input"), {});
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->message, "string is not closed before the end of the file");
  EXPECT_EQ(problem->loc.getPointer(), text.data() + text.find('"'));
  EXPECT_TRUE(scan("\"ends with an escape\\"));
  EXPECT_FALSE(scan("\"closed\" \"escaped quote \\\" closed\""));
  EXPECT_FALSE(scan("\"open at a newline\n}"));
  EXPECT_FALSE(scan("// a comment's \" is no string"));
}

TEST(InputGuardsTest, ShapedTypesMustBeCountable) {
  EXPECT_FALSE(scan("tensor<3037000499x3037000499xf32>", 100));
  EXPECT_FALSE(
      scan("memref<?x?x9223372036854775807xf32> vector<[4]x4xf32>", 100));
  // "tensor" inside an identifier is not a type.
  EXPECT_FALSE(scan("%my_tensor<99999999999x99999999999>", 100));
  auto overflow = scan("x: tensor<3037000500x3037000500xf32>", 100);
  ASSERT_TRUE(overflow);
  EXPECT_EQ(overflow->message,
            "shaped type has more elements than int64_t can count");
  auto dim = scan("memref<99999999999999999999xi8>", 100);
  ASSERT_TRUE(dim);
  EXPECT_NE(dim->message.find("does not fit in int64_t"), std::string::npos);
}

class ParseModelFileTest : public ::testing::Test {
protected:
  ParseModelFileTest() {
    context.loadDialect<tcc::TccDialect, func::FuncDialect>();
  }

  /// Parses `contents` as a model file; diagnostics land in `errors`.
  OwningOpRef<ModuleOp> parse(StringRef contents,
                              const tcc::InputLimits &limits = {}) {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(contents, "model.ir"),
        llvm::SMLoc());
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      llvm::raw_string_ostream os(errors);
      os << diag.getLocation() << ": " << diag.str() << "\n";
      return success();
    });
    return tcc::parseModelFile(sourceMgr, &context, limits);
  }

  MLIRContext context;
  std::string errors;
};

TEST_F(ParseModelFileTest, ParsesAndVerifiesText) {
  EXPECT_TRUE(parse("func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
                    "  %0 = tcc.relu %x : tensor<2xf32>\n"
                    "  return %0 : tensor<2xf32>\n}\n"));
  EXPECT_EQ(errors, "");
  EXPECT_FALSE(parse("func.func @f(%x: tensor<2xf32>) {\n"
                     "  %0 = tcc.reshape %x : tensor<2xf32> to tensor<3xf32>\n"
                     "  return\n}\n"));
  EXPECT_NE(errors.find("cannot reshape"), std::string::npos) << errors;
}

TEST_F(ParseModelFileTest, ReportsTextProblemsWithALocation) {
  std::string deep = "func.func @f() {" + std::string(2000, '[') + "}";
  EXPECT_FALSE(parse(deep));
  EXPECT_NE(errors.find("model.ir\":1:"), std::string::npos) << errors;
  EXPECT_NE(errors.find("nesting is deeper than 1024"), std::string::npos);
}

/// A module whose one function takes `type`, as MLIR bytecode.
std::string bytecodeTaking(MLIRContext &context, Type type) {
  OpBuilder b(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(b.getUnknownLoc());
  b.setInsertionPointToEnd(module->getBody());
  auto fn = b.create<func::FuncOp>(b.getUnknownLoc(), "f",
                                   b.getFunctionType({type}, {}));
  b.setInsertionPointToStart(fn.addEntryBlock());
  b.create<func::ReturnOp>(b.getUnknownLoc());
  std::string bytecode;
  llvm::raw_string_ostream os(bytecode);
  if (failed(writeBytecodeToFile(*module, os)))
    return "";
  os.flush();
  return bytecode;
}

// MLIR's bytecode reader is not hardened: bytecode is refused unless the
// caller allows it.
TEST_F(ParseModelFileTest, RefusesBytecodeUnlessAllowed) {
  std::string bytecode = bytecodeTaking(
      context, RankedTensorType::get({2}, Float32Type::get(&context)));
  ASSERT_TRUE(tcc::isBytecode(llvm::MemoryBufferRef(bytecode, "b")));
  EXPECT_FALSE(parse(bytecode));
  EXPECT_NE(errors.find("read only with --allow-bytecode"), std::string::npos)
      << errors;
  tcc::InputLimits allow;
  allow.allowBytecode = true;
  EXPECT_TRUE(parse(bytecode, allow)) << errors;
}

// Allowed bytecode skips the text scan: the parsed IR is checked before
// verifying.
TEST_F(ParseModelFileTest, ChecksSizesInBytecode) {
  std::string bytecode = bytecodeTaking(
      context, RankedTensorType::get({int64_t(1) << 32, int64_t(1) << 32},
                                     Float32Type::get(&context)));
  ASSERT_TRUE(tcc::isBytecode(llvm::MemoryBufferRef(bytecode, "b")));
  tcc::InputLimits allow;
  allow.allowBytecode = true;
  EXPECT_FALSE(parse(bytecode, allow));
  EXPECT_NE(errors.find("overflows int64_t"), std::string::npos) << errors;
}

/// Recurses with a 64 KiB frame; 400 levels need about 25 MiB of stack,
/// more than a default 8 MiB main thread has.
int deepRecursion(int depth) {
  volatile char frame[64 * 1024];
  frame[0] = static_cast<char>(depth);
  if (depth == 0)
    return frame[0];
  return deepRecursion(depth - 1) + 1 + frame[0] * 0;
}

TEST(RunWithLargeStackTest, RunsWorkNeedingMoreThanTheDefaultStack) {
  EXPECT_EQ(tcc::runWithLargeStack([] { return deepRecursion(400); }), 400);
}

} // namespace
