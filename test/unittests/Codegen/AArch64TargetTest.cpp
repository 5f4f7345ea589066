//===- AArch64TargetTest.cpp - AArch64 code compiled on any host ----------===//
//
// Compiles models for aarch64 through the C++ API and reads what comes out
// without running it: the code module is an AArch64 ELF shared object that
// imports nothing by symbol, vectorizes with NEON, and calls the same
// microkernels with the same packed weights as x86-64.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/ModelCompiler.h"
#include "tcc/Codegen/Target.h"
#include "tcc/runtime/Artifact.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Endian.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tcc;

namespace {

// An elementwise kernel LLVM vectorizes, and a linear with a constant
// weight (a tcc_sgemm call with the weight pre-packed).
const char *kModel = R"mlir(
  func.func @main(%x: tensor<64x256xf32> {tcc.name = "x"},
                  %y: tensor<64x256xf32> {tcc.name = "y"})
      -> (tensor<64x256xf32> {tcc.name = "sum"}, tensor<64x16xf32> {tcc.name = "out"}) {
    %w = tcc.constant dense<0.25> : tensor<16x256xf32>
    %0 = tcc.add %x, %y : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %1 = tcc.linear %x, %w : (tensor<64x256xf32>, tensor<16x256xf32>) -> tensor<64x16xf32>
    return %0, %1 : tensor<64x256xf32>, tensor<64x16xf32>
  })mlir";

class AArch64TargetTest : public ::testing::Test {
protected:
  AArch64TargetTest() {
    DialectRegistry registry;
    registerCodegenDialects(registry);
    context.appendDialectRegistry(registry);
  }

  /// The artifact of kModel for `request`, opened (not loaded: this host
  /// need not run it).
  std::unique_ptr<::tcc::runtime::Artifact> compile(TargetRequest request) {
    std::string error;
    ModelCompileOptions options;
    options.target = resolveTarget(request, &error);
    EXPECT_NE(options.target, nullptr) << error;
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kModel, &context);
    if (!options.target || !module)
      return nullptr;
    FailureOr<std::vector<uint8_t>> bytes =
        compileModel(*module, options, &stats);
    EXPECT_TRUE(succeeded(bytes));
    if (failed(bytes))
      return nullptr;
    std::unique_ptr<::tcc::runtime::Artifact> artifact;
    ::tcc::runtime::Status status = ::tcc::runtime::Artifact::fromMemory(
        bytes->data(), bytes->size(), nullptr, &artifact);
    EXPECT_TRUE(status.ok()) << status.message();
    return artifact;
  }

  MLIRContext context;
  ModelCompileStats stats;
};

TargetRequest aarch64(std::string cpu = "", std::string features = "") {
  TargetRequest request;
  request.target = "aarch64";
  request.cpu = std::move(cpu);
  request.features = std::move(features);
  return request;
}

std::vector<std::string> strings(
    const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>> *v) {
  std::vector<std::string> out;
  for (uint32_t i = 0; v && i < v->size(); ++i)
    out.push_back(v->Get(i)->str());
  return out;
}

/// Whether AArch64 code `text` holds a NEON FADD Vd.4S, Vn.4S, Vm.4S
/// (encoding 0x4e20d400 with the three registers in the zero bits of the
/// mask, ARM ARM C7.2.91; instructions are 4-byte aligned words).
bool hasNeonFadd4s(StringRef text) {
  for (size_t i = 0; i + 4 <= text.size(); i += 4)
    if ((llvm::support::endian::read32le(text.data() + i) & 0xffe0fc00u) ==
        0x4e20d400u)
      return true;
  return false;
}

TEST_F(AArch64TargetTest, CodeIsAnAArch64SharedObjectWithNeonAndNoImports) {
  std::unique_ptr<::tcc::runtime::Artifact> artifact = compile(aarch64());
  ASSERT_TRUE(artifact);
  const ::tcc::artifact::CodeModule &module =
      *artifact->model().code_modules()->Get(0);
  EXPECT_EQ(module.target_triple()->str(), "aarch64-unknown-linux-gnu");
  EXPECT_EQ(module.cpu()->str(), "generic");
  EXPECT_EQ(strings(module.cpu_features()), std::vector<std::string>{"neon"});
  EXPECT_EQ(strings(module.imports()), std::vector<std::string>{});

  ::tcc::runtime::Artifact::Code code = artifact->moduleCode(0);
  auto object = llvm::object::ObjectFile::createELFObjectFile(
      llvm::MemoryBufferRef(
          StringRef(reinterpret_cast<const char *>(code.data), code.size),
          "code"));
  ASSERT_TRUE(bool(object)) << llvm::toString(object.takeError());
  auto *elf = dyn_cast<llvm::object::ELF64LEObjectFile>(object->get());
  ASSERT_NE(elf, nullptr) << "not a 64-bit little-endian ELF";
  EXPECT_EQ(elf->getELFFile().getHeader().e_machine, llvm::ELF::EM_AARCH64);
  EXPECT_EQ(elf->getELFFile().getHeader().e_type, llvm::ELF::ET_DYN);

  // Every dynamic symbol is defined (the runtime's functions would come
  // through tcc_imports), and the kernels are among them.
  int kernels = 0;
  for (const llvm::object::ELFSymbolRef &symbol :
       elf->getDynamicSymbolIterators()) {
    llvm::Expected<StringRef> name = symbol.getName();
    ASSERT_TRUE(bool(name)) << llvm::toString(name.takeError());
    llvm::Expected<uint32_t> flags = symbol.getFlags();
    ASSERT_TRUE(bool(flags)) << llvm::toString(flags.takeError());
    EXPECT_FALSE(*flags & llvm::object::SymbolRef::SF_Undefined)
        << "undefined dynamic symbol " << name->str();
    kernels += symbol.getELFType() == llvm::ELF::STT_FUNC;
  }
  EXPECT_EQ(kernels, static_cast<int>(stats.kernels));
  EXPECT_GT(kernels, 0);

  bool neon = false;
  for (const llvm::object::SectionRef &section : elf->sections()) {
    llvm::Expected<StringRef> contents = section.getContents();
    ASSERT_TRUE(bool(contents)) << llvm::toString(contents.takeError());
    neon |= section.isText() && hasNeonFadd4s(*contents);
  }
  EXPECT_TRUE(neon) << "the elementwise add is not vectorized with NEON";
}

TEST_F(AArch64TargetTest, NamedCpuAndFeaturesAreRecordedInLlvmNames) {
  std::unique_ptr<::tcc::runtime::Artifact> artifact =
      compile(aarch64("cortex-a76", "+i8mm"));
  ASSERT_TRUE(artifact);
  const ::tcc::artifact::CodeModule &module =
      *artifact->model().code_modules()->Get(0);
  EXPECT_EQ(module.cpu()->str(), "cortex-a76");
  std::vector<std::string> features = strings(module.cpu_features());
  for (const char *feature : {"neon", "dotprod", "fullfp16", "lse", "i8mm"})
    EXPECT_TRUE(llvm::is_contained(features, feature)) << feature;
  EXPECT_FALSE(llvm::is_contained(features, "sve"));
}

TEST_F(AArch64TargetTest, LibraryCallsAndPackedWeightsAreX86s) {
  std::unique_ptr<::tcc::runtime::Artifact> arm = compile(aarch64());
  size_t armLibraryCalls = stats.libraryCalls;
  TargetRequest x86;
  x86.target = "x86_64";
  x86.cpu = "x86-64";
  std::unique_ptr<::tcc::runtime::Artifact> intel = compile(x86);
  ASSERT_TRUE(arm && intel);
  EXPECT_GT(armLibraryCalls, 0u);
  EXPECT_EQ(armLibraryCalls, stats.libraryCalls);
  ASSERT_EQ(arm->constantBytes(), intel->constantBytes());
  EXPECT_EQ(std::memcmp(arm->constants(), intel->constants(),
                        arm->constantBytes()),
            0);
}

} // namespace
