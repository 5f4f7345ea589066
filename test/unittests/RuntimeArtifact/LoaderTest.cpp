//===- LoaderTest.cpp - what the loader accepts and rejects ---------------===//
//
// Each rejection case starts from a valid model and breaks one thing, with
// hashes that match (the builder's edit hook rewrites the header before
// hashing), so the check under test is the one that must catch it.
//
//===----------------------------------------------------------------------===//

#include "TempPath.h"
#include "TestModels.h"
#include "TestStatus.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/CpuFeatures.h"

#include <gtest/gtest.h>

#include <cstring>
#include <unistd.h>

using namespace tcc::runtime;
using namespace tcc::artifact;
using namespace tcc::test;

namespace {

Status verify(const std::vector<uint8_t> &file) {
  const Model *m = nullptr;
  return verifyArtifactBytes(file.data(), file.size(), &m);
}

Status load(const std::vector<uint8_t> &file, uint32_t flags = 0) {
  tcc_model_load_options_t options;
  tcc_model_load_options_initialize(&options);
  options.flags = flags;
  tcc_model_t *model = nullptr;
  Status s(tcc_model_load_memory(file.data(), file.size(), &options, &model));
  tcc_model_release(model);
  return s;
}

std::vector<uint8_t> editedAddMul(const std::function<void(ModelT &)> &edit) {
  return addMulModel(4).finish(edit);
}

KernelCallT *call(ModelT &m, size_t step) {
  return m.plan[step]->op.AsKernelCall();
}

TEST(Loader, AcceptsValidModel) {
  EXPECT_TCC_OK(verify(addMulModel(4).finish()));
  EXPECT_TCC_OK(load(addMulModel(4).finish()));
}

TEST(Loader, LoadsFromFileAndNamesMissingFile) {
  tcc::test::TempPath temp("loader_model.bin");
  const std::string &path = temp.path;
  writeFile(path, addMulModel(4).finish());
  tcc_model_t *model = nullptr;
  ASSERT_TCC_OK(tcc_model_load_file(path.c_str(), nullptr, &model));
  EXPECT_EQ(tcc_model_input_count(model), 2u);
  tcc_model_release(model);
  EXPECT_TCC_ERROR(tcc_model_load_file("/nonexistent/m.bin", nullptr, &model),
                   TCC_STATUS_NOT_FOUND, "/nonexistent/m.bin: cannot open");
  EXPECT_TCC_ERROR(
      tcc_model_load_file(::testing::TempDir().c_str(), nullptr, &model),
      TCC_STATUS_IO_ERROR, "not a regular file");
}

TEST(Loader, ErrorsFromFileNameTheFile) {
  tcc::test::TempPath temp("loader_bad.bin");
  const std::string &path = temp.path;
  std::vector<uint8_t> file = addMulModel(4).finish();
  file.resize(20);
  writeFile(path, file);
  tcc_model_t *model = nullptr;
  EXPECT_TCC_ERROR(tcc_model_load_file(path.c_str(), nullptr, &model),
                   TCC_STATUS_DATA_LOSS, path + ": file has 20 bytes");
}

// --- Preamble and header ----------------------------------------------------

TEST(Loader, RejectsBadMagic) {
  std::vector<uint8_t> file = addMulModel(4).finish();
  file[3] = 'X';
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS, "not a tcc model");
}

TEST(Loader, RejectsOtherFormatVersionInPreamble) {
  std::vector<uint8_t> file = addMulModel(4).finish();
  file[8] = uint8_t(kArtifactFormatVersion + 1);
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_UNIMPLEMENTED,
                   "artifact format " +
                       std::to_string(kArtifactFormatVersion + 1) +
                       ", this runtime reads format " +
                       std::to_string(kArtifactFormatVersion));
}

TEST(Loader, RejectsOtherFormatVersionInHeader) {
  auto file = editedAddMul([](ModelT &m) { m.format_version = 9; });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_UNIMPLEMENTED,
                   "header format_version 9");
}

TEST(Loader, RejectsOtherKernelAbiVersion) {
  auto file = editedAddMul([](ModelT &m) { m.kernels_abi_version = 77; });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_UNIMPLEMENTED,
                   "kernel ABI version 77");
}

TEST(Loader, RejectsWrongIdentifier) {
  std::vector<uint8_t> file = addMulModel(4).finish();
  std::memcpy(file.data() + 36, "NOPE", 4);
  rehashHeader(file);
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "identifier is \"NOPE\", expected \"TCCM\"");
}

TEST(Loader, RejectsHeaderHashMismatch) {
  std::vector<uint8_t> file = addMulModel(4).finish();
  file[16] ^= 1;
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS, "header hash mismatch");
}

TEST(Loader, RejectsHeaderSizes) {
  std::vector<uint8_t> file = addMulModel(4).finish();
  std::vector<uint8_t> big = file;
  big[15] = 0x7f; // header size ~2 GiB
  EXPECT_TCC_ERROR(verify(big), TCC_STATUS_DATA_LOSS, "ends past the");
  std::vector<uint8_t> tiny = file;
  std::memset(tiny.data() + 12, 0, 4);
  tiny[12] = 4;
  EXPECT_TCC_ERROR(verify(tiny), TCC_STATUS_DATA_LOSS,
                   "header size 4 is out of range");
}

TEST(Loader, RejectsGarbageHeaderThatHashesCorrectly) {
  std::vector<uint8_t> file = addMulModel(4).finish();
  // Point the root table far outside the header; the hash is made to match.
  file[32] = 0xF0;
  file[33] = file[34] = 0xFF;
  file[35] = 0x0F;
  rehashHeader(file);
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "fails FlatBuffers verification");
}

TEST(Loader, RejectsNonZeroReservedPreambleBytes) {
  std::vector<uint8_t> file = addMulModel(4).finish();
  file[30] = 1;
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS, "bytes 24..31");
}

// --- Segments
// -----------------------------------------------------------------

TEST(Loader, RejectsNonZeroPadding) {
  std::vector<uint8_t> file = addMulModel(4).finish();
  const Model *m = GetModel(file.data() + 32);
  uint64_t codeOffset = m->segments()->Get(1)->offset();
  file[codeOffset - 1] = 0xAA; // padding after the 16 constant bytes
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "segment 1 (code) padding: byte " +
                       std::to_string(codeOffset - 1) + " is not zero");
}

TEST(Loader, RejectsTrailingBytes) {
  std::vector<uint8_t> file = addMulModel(4).finish();
  file.push_back(0);
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "file has 1 bytes after the end of its last part");
}

TEST(Loader, RejectsMisplacedSegments) {
  auto shift = [](int64_t delta) {
    return editedAddMul([&](ModelT &m) {
      Segment &s = m.segments[1];
      s = Segment(s.kind(), s.offset() + delta, s.size(), s.hash());
    });
  };
  // Misaligned, overlapping the constants, and beyond the end of the file.
  EXPECT_TCC_ERROR(verify(shift(8)), TCC_STATUS_DATA_LOSS, "expected");
  EXPECT_TCC_ERROR(verify(shift(-64)), TCC_STATUS_DATA_LOSS, "expected");
  EXPECT_TCC_ERROR(verify(shift(64)), TCC_STATUS_DATA_LOSS, "expected");
}

TEST(Loader, RejectsSegmentPastEndOfFile) {
  auto file = editedAddMul([](ModelT &m) {
    Segment &s = m.segments[1];
    s = Segment(s.kind(), s.offset(), s.size() + 1, s.hash());
  });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "segment 1 (code): ends at byte");
}

TEST(Loader, RejectsOverflowingSegmentSize) {
  auto file = editedAddMul([](ModelT &m) {
    Segment &s = m.segments[1];
    s = Segment(s.kind(), s.offset(), ~uint64_t(0) - 10, s.hash());
  });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS, "overflows");
}

TEST(Loader, RejectsDuplicateAndUnknownSegmentKinds) {
  auto dup = editedAddMul([](ModelT &m) {
    Segment &s = m.segments[1];
    s = Segment(SegmentKind::Constants, s.offset(), s.size(), s.hash());
  });
  EXPECT_TCC_ERROR(verify(dup), TCC_STATUS_DATA_LOSS,
                   "a second constants segment");
  auto unknown = editedAddMul([](ModelT &m) {
    Segment &s = m.segments[1];
    s = Segment(SegmentKind(7), s.offset(), s.size(), s.hash());
  });
  EXPECT_TCC_ERROR(verify(unknown), TCC_STATUS_DATA_LOSS, "unknown kind 7");
}

TEST(Loader, RejectsSegmentHashMismatch) {
  std::vector<uint8_t> file = addMulModel(4).finish();
  const Model *m = GetModel(file.data() + 32);
  file[m->segments()->Get(0)->offset()] ^= 1;
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "segment 0 (constants): hash mismatch");
}

// --- Buffers and signatures
// ---------------------------------------------------

TEST(Loader, RejectsByteSizeThatDisagreesWithShape) {
  auto file = editedAddMul([](ModelT &m) { m.buffers[3]->byte_size = 12; });
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "buffer 3: byte_size 12 but f32[4] takes 16 bytes");
}

TEST(Loader, RejectsOversizedAndNegativeShapes) {
  auto huge = editedAddMul([](ModelT &m) {
    m.buffers[4]->shape = {int64_t(1) << 40, int64_t(1) << 40};
  });
  EXPECT_TCC_ERROR(verify(huge), TCC_STATUS_DATA_LOSS,
                   "buffer 4: shape [1099511627776,1099511627776] of f32 "
                   "overflows 64-bit sizes");
  auto negative = editedAddMul([](ModelT &m) { m.inputs[1]->shape = {-3}; });
  EXPECT_TCC_ERROR(verify(negative), TCC_STATUS_DATA_LOSS,
                   "input 1 'y': dimension 0 of shape [-3] is negative");
  // Large but consistent: the arena cannot hold it.
  auto big = editedAddMul([](ModelT &m) {
    m.buffers[4]->shape = {int64_t(1) << 40};
    m.buffers[4]->byte_size = uint64_t(1) << 42;
  });
  EXPECT_TCC_ERROR(verify(big), TCC_STATUS_DATA_LOSS,
                   "exceed its arena region of 16 bytes");
}

TEST(Loader, RejectsUnknownDTypeAndStorage) {
  auto dtype = editedAddMul([](ModelT &m) { m.buffers[4]->dtype = DType(42); });
  EXPECT_TCC_ERROR(verify(dtype), TCC_STATUS_DATA_LOSS,
                   "buffer 4: unknown dtype 42");
  auto storage =
      editedAddMul([](ModelT &m) { m.buffers[4]->storage = Storage(9); });
  EXPECT_TCC_ERROR(verify(storage), TCC_STATUS_DATA_LOSS,
                   "buffer 4: unknown storage 9");
}

TEST(Loader, RejectsBuffersOutsideTheirRegion) {
  auto arena = editedAddMul([](ModelT &m) { m.buffers[4]->offset = 4; });
  EXPECT_TCC_ERROR(verify(arena), TCC_STATUS_DATA_LOSS,
                   "buffer 4: bytes [4, 4+16) exceed its arena region");
  auto constant = editedAddMul([](ModelT &m) { m.buffers[3]->offset = 8; });
  EXPECT_TCC_ERROR(verify(constant), TCC_STATUS_DATA_LOSS,
                   "buffer 3: bytes [8, 8+16) exceed its constants region of "
                   "16 bytes");
  auto overflow =
      editedAddMul([](ModelT &m) { m.buffers[4]->offset = ~uint64_t(0) - 7; });
  EXPECT_TCC_ERROR(verify(overflow), TCC_STATUS_DATA_LOSS, "exceed its arena");
  auto misaligned = editedAddMul([](ModelT &m) {
    m.memory_spaces[0]->arena_bytes = 64;
    m.buffers[4]->offset = 2;
  });
  EXPECT_TCC_ERROR(verify(misaligned), TCC_STATUS_DATA_LOSS,
                   "buffer 4: offset 2 is not aligned");
}

TEST(Loader, RejectsOutOfRangeIndices) {
  auto input = editedAddMul([](ModelT &m) { m.buffers[0]->index = 5; });
  EXPECT_TCC_ERROR(verify(input), TCC_STATUS_DATA_LOSS,
                   "buffer 0: input index 5 out of range (the model has 2)");
  auto spec = editedAddMul([](ModelT &m) { m.outputs[0]->buffer = 99; });
  EXPECT_TCC_ERROR(verify(spec), TCC_STATUS_DATA_LOSS,
                   "output 'z': buffer index 99 out of range (5 buffers)");
  auto kernel = editedAddMul([](ModelT &m) { call(m, 1)->kernel = 2; });
  EXPECT_TCC_ERROR(verify(kernel), TCC_STATUS_DATA_LOSS,
                   "plan step 1 (KernelCall): kernel index 2 out of range");
  auto binding = editedAddMul([](ModelT &m) { call(m, 0)->bindings[2] = 5; });
  EXPECT_TCC_ERROR(verify(binding), TCC_STATUS_DATA_LOSS,
                   "plan step 0 (KernelCall): binding 2: buffer index 5 out of "
                   "range");
}

TEST(Loader, RejectsSignatureThatDoesNotMatchItsBuffer) {
  auto wrong = editedAddMul([](ModelT &m) { m.inputs[0]->buffer = 1; });
  EXPECT_TCC_ERROR(verify(wrong), TCC_STATUS_DATA_LOSS,
                   "input 'x': buffer 1 is not input 0");
  auto dtype = editedAddMul([](ModelT &m) { m.inputs[0]->dtype = DType::I32; });
  EXPECT_TCC_ERROR(verify(dtype), TCC_STATUS_DATA_LOSS,
                   "buffer 0: dtype f32 differs from its input's");
}

TEST(Loader, RejectsDuplicateAndEmptyNames) {
  auto dup = editedAddMul([](ModelT &m) { m.inputs[1]->name = "x"; });
  EXPECT_TCC_ERROR(verify(dup), TCC_STATUS_DATA_LOSS,
                   "input 1 'x': another input has the same name");
  auto empty = editedAddMul([](ModelT &m) { m.outputs[0]->name = ""; });
  EXPECT_TCC_ERROR(verify(empty), TCC_STATUS_DATA_LOSS,
                   "output 0: name is empty");
  auto nul = editedAddMul(
      [](ModelT &m) { m.outputs[0]->name = std::string("a\0b", 3); });
  EXPECT_TCC_ERROR(verify(nul), TCC_STATUS_DATA_LOSS, "contains a NUL byte");
}

// --- Plan steps
// -----------------------------------------------------------------

TEST(Loader, RejectsBadKernelCalls) {
  auto count = editedAddMul([](ModelT &m) { call(m, 0)->bindings.pop_back(); });
  EXPECT_TCC_ERROR(verify(count), TCC_STATUS_DATA_LOSS,
                   "2 bindings but kernel 'tcc_test_add_f32' takes 3");
  auto symbol =
      editedAddMul([](ModelT &m) { m.kernels[0]->symbol = "bad name"; });
  EXPECT_TCC_ERROR(verify(symbol), TCC_STATUS_DATA_LOSS,
                   "kernel 0: symbol is not a valid name");
}

TEST(Loader, RejectsMisalignedVectors) {
  // The verifier only checks a vector's 4-byte length field; moving buffer
  // 0's shape vector by 4 bytes leaves its 8-byte elements misaligned.
  std::vector<uint8_t> file = addMulModel(4).finish();
  const Model *m = GetModel(file.data() + 32);
  const auto *table =
      reinterpret_cast<const flatbuffers::Table *>(m->buffers()->Get(0));
  size_t field = size_t(table->GetAddressOf(Buffer::VT_SHAPE) - file.data());
  uint32_t offset;
  std::memcpy(&offset, &file[field], 4);
  offset += 4;
  std::memcpy(&file[field], &offset, 4);
  rehashHeader(file);
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "shape vector is misaligned");
  // And the bytes themselves must be aligned.
  std::vector<uint64_t> storage(file.size() / 8 + 1);
  auto *shifted = reinterpret_cast<uint8_t *>(storage.data()) + 4;
  const Model *out = nullptr;
  EXPECT_TCC_ERROR(verifyArtifactBytes(shifted, 100, &out),
                   TCC_STATUS_INVALID_ARGUMENT, "must be 8-byte aligned");
}

TEST(Loader, RejectsStepWithoutOperation) {
  // `op` is required: the verifier rejects its absence. (FlatBufferBuilder
  // refuses to write such a table, so the field's vtable entry is zeroed.)
  std::vector<uint8_t> file = addMulModel(4).finish();
  const Model *m = GetModel(file.data() + 32);
  const auto *step = reinterpret_cast<const uint8_t *>(m->plan()->Get(0));
  int32_t toVtable;
  std::memcpy(&toVtable, step, 4);
  size_t entry = size_t(step - toVtable - file.data()) + Step::VT_OP;
  file[entry] = file[entry + 1] = 0;
  rehashHeader(file);
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "fails FlatBuffers verification");
}

TEST(Loader, RejectsUnknownStepType) {
  // The verifier accepts union types it does not know (forward
  // compatibility); the validator must not.
  std::vector<uint8_t> file = addMulModel(4).finish();
  const Model *m = GetModel(file.data() + 32);
  const auto *table =
      reinterpret_cast<const flatbuffers::Table *>(m->plan()->Get(1));
  const uint8_t *type = table->GetAddressOf(Step::VT_OP_TYPE);
  ASSERT_NE(type, nullptr);
  file[size_t(type - file.data())] = 9;
  rehashHeader(file);
  EXPECT_TCC_ERROR(verify(file), TCC_STATUS_DATA_LOSS,
                   "plan step 1: unknown operation type 9");
}

ArtifactBuilder gemmModel(const std::function<void(SgemmT &)> &edit) {
  // c[2x3] = a[2x4] * w[4x3] + bias[3], w and bias constants.
  ArtifactBuilder b;
  uint32_t a = b.addInput("a", DType::F32, {2, 4});
  uint32_t c = b.addOutput("c", DType::F32, {2, 3});
  std::vector<float> w(12, 0.5f), bias(3, 1.0f);
  uint32_t wb = b.addConstantBuffer(DType::F32, {4, 3}, w.data());
  uint32_t bb = b.addConstantBuffer(DType::F32, {3}, bias.data());
  SgemmT g;
  g.a = a;
  g.b = wb;
  g.c = c;
  g.m = 2;
  g.n = 3;
  g.k = 4;
  g.lda = 4;
  g.ldb = 3;
  g.ldc = 3;
  g.epilogue = std::make_unique<EpilogueT>();
  g.epilogue->bias = int32_t(bb);
  edit(g);
  OpUnion op;
  op.Set(std::move(g));
  b.addStep(std::move(op));
  return b;
}

TEST(Loader, ChecksSgemmAccessesAgainstBuffers) {
  EXPECT_TCC_OK(verify(gemmModel([](SgemmT &) {}).finish()));
  EXPECT_TCC_ERROR(verify(gemmModel([](SgemmT &g) { g.k = 5; }).finish()),
                   TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Sgemm): a: leading dimension 4 is less than "
                   "5 columns");
  EXPECT_TCC_ERROR(
      verify(gemmModel([](SgemmT &g) { g.lda = 5; }).finish()),
      TCC_STATUS_DATA_LOSS,
      "plan step 0 (Sgemm): a: accesses 9 elements but the buffer has 8");
  // Batch stride 0 broadcasts a and b; c's stride makes a second matrix
  // (BindingChecksTest: c's batches may not overlap).
  EXPECT_TCC_ERROR(verify(gemmModel([](SgemmT &g) {
                            g.batch = 2;
                            g.c_batch_stride = 6;
                          }).finish()),
                   TCC_STATUS_DATA_LOSS,
                   "c: accesses 12 elements but the buffer has 6");
  EXPECT_TCC_ERROR(
      verify(gemmModel([](SgemmT &g) { g.trans_b = true; }).finish()),
      TCC_STATUS_DATA_LOSS, "b: leading dimension 3 is less than 4 columns");
  EXPECT_TCC_ERROR(
      verify(gemmModel([](SgemmT &g) { g.c = g.b; }).finish()),
      TCC_STATUS_DATA_LOSS,
      "c: written but stored in constants (only arena and outputs are "
      "writable)");
}

TEST(Loader, ChecksSgemmParameters) {
  EXPECT_TCC_ERROR(verify(gemmModel([](SgemmT &g) { g.m = -1; }).finish()),
                   TCC_STATUS_DATA_LOSS, "negative size");
  EXPECT_TCC_ERROR(verify(gemmModel([](SgemmT &g) { g.batch = 0; }).finish()),
                   TCC_STATUS_DATA_LOSS, "batch 0 is less than 1");
  EXPECT_TCC_ERROR(verify(gemmModel([](SgemmT &g) {
                            g.m = int64_t(1) << 40;
                            g.n = int64_t(1) << 40;
                          }).finish()),
                   TCC_STATUS_DATA_LOSS, "size overflows");
  EXPECT_TCC_ERROR(
      verify(gemmModel([](SgemmT &g) { g.epilogue->bias = 9; }).finish()),
      TCC_STATUS_DATA_LOSS, "epilogue bias: buffer index 9 out of range");
  EXPECT_TCC_ERROR(
      verify(gemmModel([](SgemmT &g) { g.epilogue->residual = 3; }).finish()),
      TCC_STATUS_DATA_LOSS,
      "epilogue residual: accesses 6 elements but the "
      "buffer has 3");
  EXPECT_TCC_ERROR(verify(gemmModel([](SgemmT &g) {
                            g.epilogue->activation = Activation(99);
                          }).finish()),
                   TCC_STATUS_DATA_LOSS, "unknown activation 99");
  EXPECT_TCC_ERROR(
      verify(gemmModel([](SgemmT &g) { g.b_packed = true; }).finish()),
      TCC_STATUS_DATA_LOSS, "packed b: dtype f32, expected u8");
}

ArtifactBuilder convModel(const std::function<void(Conv2dT &)> &edit) {
  // NCHW 1x2x5x5 input, 4x2x3x3 weights, stride 1, pad 1 -> 1x4x5x5.
  ArtifactBuilder b;
  uint32_t in = b.addInput("in", DType::F32, {1, 2, 5, 5});
  uint32_t out = b.addOutput("out", DType::F32, {1, 4, 5, 5});
  std::vector<float> w(4 * 2 * 9, 0.25f);
  uint32_t wb = b.addConstantBuffer(DType::F32, {4, 2, 3, 3}, w.data());
  Conv2dT c;
  c.input = in;
  c.weight = wb;
  c.output = out;
  c.batch = 1;
  c.in_channels = 2;
  c.in_height = 5;
  c.in_width = 5;
  c.out_channels = 4;
  c.kernel_height = 3;
  c.kernel_width = 3;
  c.stride_h = c.stride_w = 1;
  c.pad_h = c.pad_w = 1;
  c.dilation_h = c.dilation_w = 1;
  c.groups = 1;
  edit(c);
  OpUnion op;
  op.Set(std::move(c));
  b.addStep(std::move(op));
  return b;
}

TEST(Loader, ChecksConv2dAgainstBuffers) {
  EXPECT_TCC_OK(verify(convModel([](Conv2dT &) {}).finish()));
  EXPECT_TCC_ERROR(
      verify(convModel([](Conv2dT &c) { c.pad_h = 2; }).finish()),
      TCC_STATUS_DATA_LOSS,
      "plan step 0 (Conv2d): output: accesses 140 elements but the buffer "
      "has 100");
  EXPECT_TCC_ERROR(
      verify(convModel([](Conv2dT &c) { c.in_channels = 3; }).finish()),
      TCC_STATUS_DATA_LOSS,
      "input: accesses 75 elements but the buffer has 50");
  EXPECT_TCC_ERROR(verify(convModel([](Conv2dT &c) { c.groups = 3; }).finish()),
                   TCC_STATUS_DATA_LOSS,
                   "channels 2->4 are not divisible by groups 3");
  EXPECT_TCC_ERROR(
      verify(convModel([](Conv2dT &c) { c.stride_w = 0; }).finish()),
      TCC_STATUS_DATA_LOSS, "less than 1");
  EXPECT_TCC_ERROR(
      verify(convModel([](Conv2dT &c) { c.dilation_h = 4; }).finish()),
      TCC_STATUS_DATA_LOSS,
      "the dilated kernel (9) is larger than the padded input (7)");
  EXPECT_TCC_ERROR(verify(convModel([](Conv2dT &c) {
                            c.dilation_w = int64_t(1) << 62;
                          }).finish()),
                   TCC_STATUS_DATA_LOSS, "spatial sizes overflow");
  EXPECT_TCC_ERROR(verify(convModel([](Conv2dT &c) {
                            c.workspace = int32_t(c.weight);
                          }).finish()),
                   TCC_STATUS_DATA_LOSS, "workspace is not in the arena");
  EXPECT_TCC_ERROR(
      verify(convModel([](Conv2dT &c) { c.output = c.input; }).finish()),
      TCC_STATUS_DATA_LOSS, "output: written but stored in input");
}

// NHWC 1x5x5x2 input, 4 filters 3x3, pad 1, weights packed into `bytes`
// bytes (tcc_conv2d_packed_weight_size: 64 + 4 * 18 * 32) in `storage`.
std::vector<uint8_t> packedConvModel(bool nhwc, int64_t bytes,
                                     bool inArena = false) {
  ArtifactBuilder b = convModel([](Conv2dT &) {});
  uint32_t packed =
      inArena ? b.addArenaBuffer(DType::U8, {bytes}, 0)
              : b.addConstantBuffer(DType::U8, {bytes},
                                    std::vector<uint8_t>(size_t(bytes)).data());
  return b.finish([&](ModelT &m) {
    Conv2dT &c = *m.plan[0]->op.AsConv2d();
    c.nhwc = nhwc;
    c.weight = packed;
    c.weight_packed = true;
  });
}

TEST(Loader, ChecksPackedConv2dWeights) {
  const int64_t size = 64 + 4 * 18 * 32;
  EXPECT_TCC_OK(verify(packedConvModel(true, size)));
  EXPECT_TCC_ERROR(verify(packedConvModel(false, size)), TCC_STATUS_DATA_LOSS,
                   "packed weight: this convolution takes no packed weights");
  EXPECT_TCC_ERROR(verify(packedConvModel(true, size - 4)),
                   TCC_STATUS_DATA_LOSS,
                   "packed weight: accesses 2368 elements but the buffer has "
                   "2364");
  EXPECT_TCC_ERROR(verify(packedConvModel(true, size, /*inArena=*/true)),
                   TCC_STATUS_DATA_LOSS, "packed weight: must be a constant");
  EXPECT_TCC_ERROR(verify(convModel([](Conv2dT &c) {
                            c.nhwc = true;
                            c.weight_packed = true;
                          }).finish()),
                   TCC_STATUS_DATA_LOSS,
                   "packed weight: dtype f32, expected u8");
}

TEST(Loader, ChecksCopies) {
  auto copyModel = [](uint32_t src, uint32_t dst, uint64_t bytes) {
    ArtifactBuilder b;
    b.addInput("x", DType::F32, {4});
    b.addOutput("y", DType::F32, {2});
    CopyT copy;
    copy.src = src;
    copy.dst = dst;
    copy.bytes = bytes;
    OpUnion op;
    op.Set(std::move(copy));
    b.addStep(std::move(op));
    return b.finish();
  };
  EXPECT_TCC_OK(verify(copyModel(0, 1, 8)));
  EXPECT_TCC_ERROR(verify(copyModel(0, 1, 16)), TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Copy): copies 16 bytes between buffers of 16 "
                   "and 8 bytes");
  EXPECT_TCC_ERROR(verify(copyModel(1, 0, 4)), TCC_STATUS_DATA_LOSS,
                   "dst: written but stored in input");
  EXPECT_TCC_ERROR(verify(copyModel(0, 2, 4)), TCC_STATUS_DATA_LOSS,
                   "dst: buffer index 2 out of range");
}

// --- Host checks and code
// -------------------------------------------------------

TEST(Loader, RejectsOtherArchitecture) {
  auto file = editedAddMul(
      [](ModelT &m) { m.code_modules[0]->target_triple = "riscv64-unknown-linux-gnu"; });
  EXPECT_TCC_OK(verify(file)); // inspectable anywhere
  EXPECT_TCC_ERROR(load(file), TCC_STATUS_FAILED_PRECONDITION,
                   "model targets 'riscv64-unknown-linux-gnu'");
}

// The two CPU targets refuse each other's code, naming both sides (this
// suite also runs on the AArch64 runtime under qemu).
TEST(Loader, RejectsTheOtherCpuTarget) {
  std::string host = tcc::runtime::hostCpuArch();
  std::string other = host == "aarch64" ? "x86_64-unknown-linux-gnu"
                                        : "aarch64-unknown-linux-gnu";
  auto file = editedAddMul(
      [&](ModelT &m) { m.code_modules[0]->target_triple = other; });
  EXPECT_TCC_ERROR(load(file), TCC_STATUS_FAILED_PRECONDITION,
                   "model targets '" + other + "' but this host is " + host);
}

TEST(Loader, RejectsCpuFeaturesItCannotCheck) {
  auto file = editedAddMul([](ModelT &m) { m.code_modules[0]->cpu_features = {"warp-drive"}; });
  EXPECT_TCC_ERROR(load(file), TCC_STATUS_UNIMPLEMENTED,
                   "requires CPU feature 'warp-drive', which this runtime "
                   "cannot check");
}

// The loader accepts a feature exactly when the runtime's one definition
// (CpuFeatures.h) says the host has it; that definition is tested on
// described CPUs in CpuFeaturesTest and against LLVM's reading of this host
// in CpuTargetTest.
TEST(Loader, CpuFeatureChecksFollowTheRuntimesDefinition) {
  std::vector<std::string> known = knownCpuFeatures();
#if defined(__x86_64__) || defined(__aarch64__) // the architectures with tables
  ASSERT_FALSE(known.empty());
#endif
  for (const std::string &feature : known) {
    auto file = editedAddMul([&](ModelT &m) { m.code_modules[0]->cpu_features = {feature}; });
    Status s = load(file);
    if (hostCpuFeature(feature) == CpuFeatureState::Present)
      EXPECT_TRUE(s.ok()) << feature << ": " << s.toString();
    else
      EXPECT_TRUE(isError(std::move(s), TCC_STATUS_FAILED_PRECONDITION,
                          "'" + feature + "', which this CPU lacks"))
          << feature;
  }
}

TEST(Loader, ChecksEveryListedFeature) {
  // Every feature this host has, then one nobody can check, then the
  // present ones again: the load fails on the one in the middle.
  std::vector<std::string> present;
  for (const std::string &feature : knownCpuFeatures())
    if (hostCpuFeature(feature) == CpuFeatureState::Present)
      present.push_back(feature);
  auto ok = editedAddMul([&](ModelT &m) { m.code_modules[0]->cpu_features = present; });
  EXPECT_TCC_OK(load(ok));
  std::vector<std::string> listed = present;
  listed.push_back("warp-drive");
  listed.insert(listed.end(), present.begin(), present.end());
  auto bad = editedAddMul([&](ModelT &m) { m.code_modules[0]->cpu_features = listed; });
  EXPECT_TCC_ERROR(load(bad), TCC_STATUS_UNIMPLEMENTED,
                   "requires CPU feature 'warp-drive'");
}

TEST(Loader, RejectsMissingKernelSymbol) {
  auto file =
      editedAddMul([](ModelT &m) { m.kernels[1]->symbol = "tcc_test_nope"; });
  EXPECT_TCC_OK(verify(file));
  EXPECT_TCC_ERROR(load(file), TCC_STATUS_NOT_FOUND,
                   "kernel 1: the code does not define symbol 'tcc_test_nope'");
}

TEST(Loader, RejectsSymbolsOfTheCodesDependencies) {
  // memcpy is found by dlsym through the object's libc dependency.
  ArtifactBuilder b = addMulModel(4);
  b.setCode(testKernelsWithLibc());
  auto file = b.finish([](ModelT &m) { m.kernels[0]->symbol = "memcpy"; });
  EXPECT_TCC_ERROR(load(file), TCC_STATUS_NOT_FOUND,
                   "kernel 0: the code does not define symbol 'memcpy'");
}

TEST(Loader, RejectsKernelsWithoutCode) {
  ArtifactBuilder b = addMulModel(4);
  b.setCode({});
  EXPECT_TCC_ERROR(load(b.finish()), TCC_STATUS_DATA_LOSS,
                   "the model has kernels or imports but no code segment");
}

TEST(Loader, RejectsCodeThatIsNotASharedObject) {
  ArtifactBuilder b = addMulModel(4);
  b.setCode(std::vector<uint8_t>(100, 0x90));
  EXPECT_TCC_ERROR(load(b.finish()), TCC_STATUS_DATA_LOSS,
                   "code segment is not an ELF object");
}

TEST(Loader, ChecksImports) {
  EXPECT_TCC_OK(load(expModel(3).finish()));
  auto unknown =
      expModel(3).finish([](ModelT &m) { m.code_modules[0]->imports = {"launch_missiles"}; });
  EXPECT_TCC_ERROR(load(unknown), TCC_STATUS_UNIMPLEMENTED,
                   "the code imports 'launch_missiles', which this runtime "
                   "does not provide");
  auto tooMany = expModel(3).finish([](ModelT &m) {
    m.code_modules[0]->imports = {"expf", "logf"};
  });
  EXPECT_TCC_ERROR(load(tooMany), TCC_STATUS_DATA_LOSS,
                   "'tcc_imports' is not an array of 2 pointers (8 bytes)");
  ArtifactBuilder readOnly = expModel(3);
  readOnly.setCode(testKernelsWithLibc());
  auto file = readOnly.finish(
      [](ModelT &m) { m.kernels[0]->symbol = "tcc_test_copy_f32"; });
  EXPECT_TCC_ERROR(load(file), TCC_STATUS_DATA_LOSS,
                   "'tcc_imports' is not in writable memory");
}

TEST(Loader, MapsCodeFromATemporaryFileToo) {
  EXPECT_TCC_OK(
      load(addMulModel(4).finish(), TCC_MODEL_LOAD_FLAG_CODE_FROM_TEMP_FILE));
}

TEST(Loader, LoadsManyModelsAtOnceEachWithItsOwnCode) {
  // Distinct code objects must not be confused with each other even when
  // their memfds come and go (dlopen caches objects by name).
  std::vector<tcc_model_t *> models;
  for (int i = 0; i < 20; ++i) {
    tcc_model_t *m = nullptr;
    auto file = addMulModel(i + 1).finish();
    ASSERT_TCC_OK(tcc_model_load_memory(file.data(), file.size(), nullptr, &m));
    models.push_back(m);
    if (i % 3 == 0) {
      tcc_model_release(models.front());
      models.erase(models.begin());
    }
  }
  for (tcc_model_t *m : models)
    tcc_model_release(m);
}

} // namespace
