//===- ArtifactBuilder.cpp - writes model files ---------------------------===//

#include "tcc/runtime/ArtifactBuilder.h"

#include "FileLayout.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/StepKinds.h"
#include "tcc/runtime/kernels.h"

#include <algorithm>
#include <cstring>

namespace tcc {
namespace runtime {

using namespace tcc::artifact;

namespace {

uint64_t bytesOf(DType dtype, const std::vector<int64_t> &shape) {
  uint64_t n = dtypeSize(dtype);
  for (int64_t d : shape)
    n *= uint64_t(d);
  return n;
}

void padTo(std::vector<uint8_t> &bytes, size_t alignment) {
  bytes.resize((bytes.size() + alignment - 1) / alignment * alignment, 0);
}

} // namespace

std::string hostTargetTriple() {
#if defined(__x86_64__)
  return "x86_64-unknown-linux-gnu";
#elif defined(__aarch64__)
  return "aarch64-unknown-linux-gnu";
#else
  return "unknown-unknown-linux-gnu";
#endif
}

ArtifactBuilder::ArtifactBuilder() {
  model_.format_version = kArtifactFormatVersion;
  model_.kernels_abi_version = TCC_KERNELS_ABI_VERSION;
  model_.target_triple = hostTargetTriple();
}

uint32_t ArtifactBuilder::addBuffer(DType dtype, std::vector<int64_t> shape,
                                    Storage storage, uint64_t offset,
                                    uint32_t index, uint32_t space) {
  auto buffer = std::make_unique<BufferT>();
  buffer->dtype = dtype;
  buffer->byte_size = bytesOf(dtype, shape);
  buffer->shape = std::move(shape);
  buffer->storage = storage;
  buffer->offset = offset;
  buffer->index = index;
  buffer->space = space;
  model_.buffers.push_back(std::move(buffer));
  return uint32_t(model_.buffers.size() - 1);
}

uint32_t ArtifactBuilder::addArenaBuffer(DType dtype,
                                         std::vector<int64_t> shape,
                                         uint64_t offset) {
  uint64_t end = offset + bytesOf(dtype, shape);
  if (end > model_.arena_bytes)
    model_.arena_bytes = end;
  return addBuffer(dtype, std::move(shape), Storage::Arena, offset);
}

uint64_t ArtifactBuilder::appendConstants(const void *bytes, size_t size,
                                          size_t alignment) {
  padTo(constants_, alignment);
  uint64_t offset = constants_.size();
  const auto *p = static_cast<const uint8_t *>(bytes);
  constants_.insert(constants_.end(), p, p + size);
  return offset;
}

uint32_t ArtifactBuilder::addConstantBuffer(DType dtype,
                                            std::vector<int64_t> shape,
                                            const void *bytes,
                                            size_t alignment) {
  uint64_t offset = appendConstants(bytes, bytesOf(dtype, shape), alignment);
  return addBuffer(dtype, std::move(shape), Storage::Constant, offset);
}

uint32_t
ArtifactBuilder::addSpec(std::vector<std::unique_ptr<TensorSpecT>> &specs,
                         Storage storage, const std::string &name, DType dtype,
                         std::vector<int64_t> shape) {
  auto spec = std::make_unique<TensorSpecT>();
  spec->name = name;
  spec->dtype = dtype;
  spec->shape = shape;
  spec->buffer =
      addBuffer(dtype, std::move(shape), storage, 0, uint32_t(specs.size()));
  specs.push_back(std::move(spec));
  return specs.back()->buffer;
}

uint32_t ArtifactBuilder::addInput(const std::string &name, DType dtype,
                                   std::vector<int64_t> shape) {
  return addSpec(model_.inputs, Storage::Input, name, dtype, std::move(shape));
}

uint32_t ArtifactBuilder::addOutput(const std::string &name, DType dtype,
                                    std::vector<int64_t> shape) {
  return addSpec(model_.outputs, Storage::Output, name, dtype,
                 std::move(shape));
}

uint32_t ArtifactBuilder::addKernel(const std::string &symbol,
                                    std::vector<KernelBinding> bindings,
                                    int64_t tiles,
                                    std::vector<std::string> sourceOps,
                                    uint32_t module) {
  auto kernel = std::make_unique<KernelT>();
  kernel->symbol = symbol;
  kernel->num_bindings = uint32_t(bindings.size());
  kernel->bindings = std::move(bindings);
  kernel->tiles = tiles;
  kernel->source_ops = std::move(sourceOps);
  kernel->code_module = module;
  model_.kernels.push_back(std::move(kernel));
  return uint32_t(model_.kernels.size() - 1);
}

void ArtifactBuilder::addKernelCall(uint32_t kernel,
                                    std::vector<uint32_t> bindings,
                                    std::vector<std::string> sourceOps) {
  KernelCallT call;
  call.kernel = kernel;
  call.bindings = std::move(bindings);
  call.tiles = kernel < model_.kernels.size() ? model_.kernels[kernel]->tiles : 1;
  OpUnion op;
  op.Set(std::move(call));
  uint32_t module =
      kernel < model_.kernels.size() ? model_.kernels[kernel]->code_module : 0;
  addStep(std::move(op), std::move(sourceOps), module);
}

void ArtifactBuilder::addStep(OpUnion op, std::vector<std::string> sourceOps,
                              uint32_t module) {
  auto step = std::make_unique<StepT>();
  const char *kind = stepKindName(op.type);
  step->kind = kind ? kind : "";
  step->op = std::move(op);
  step->source_ops = std::move(sourceOps);
  step->code_module = module;
  model_.plan.push_back(std::move(step));
}

uint32_t ArtifactBuilder::addCodeModule(
    const CodeModuleT &module, std::vector<uint8_t> code,
    std::vector<std::vector<uint8_t>> images) {
  moreModules_.push_back(module);
  moreCode_.push_back(std::move(code));
  moreImages_.push_back(std::move(images));
  return uint32_t(moreModules_.size());
}

uint32_t ArtifactBuilder::addMemorySpace(MemoryKind kind, uint64_t arenaBytes,
                                         uint32_t module) {
  MemorySpaceT space;
  space.kind = kind;
  space.code_module = module;
  space.arena_bytes = arenaBytes;
  moreSpaces_.push_back(space);
  return uint32_t(moreSpaces_.size());
}

std::vector<uint8_t>
ArtifactBuilder::finish(const std::function<void(ModelT &)> &edit) const {
  ModelT model = model_;
  auto first = std::make_unique<CodeModuleT>();
  first->kind = kCpuModuleKind;
  first->target_triple = model_.target_triple;
  first->cpu = model_.cpu;
  first->cpu_features = model_.cpu_features;
  first->imports = model_.imports;
  model.code_modules.clear();
  model.code_modules.push_back(std::move(first));
  for (const CodeModuleT &m : moreModules_)
    model.code_modules.push_back(std::make_unique<CodeModuleT>(m));
  auto host = std::make_unique<MemorySpaceT>();
  host->kind = MemoryKind::Host;
  host->arena_bytes = model_.arena_bytes;
  model.memory_spaces.clear();
  model.memory_spaces.push_back(std::move(host));
  for (const MemorySpaceT &s : moreSpaces_)
    model.memory_spaces.push_back(std::make_unique<MemorySpaceT>(s));

  // Segments: the constants, then each module's code in module order.
  std::vector<SegmentBytes> payloads;
  model.segments.clear();
  auto addSegment = [&](SegmentKind kind, const std::vector<uint8_t> &bytes) {
    model.segments.emplace_back(kind, 0, bytes.size(),
                                hash64(bytes.data(), bytes.size()));
    payloads.push_back({bytes.data(), bytes.size()});
    return int32_t(model.segments.size() - 1);
  };
  if (!constants_.empty())
    addSegment(SegmentKind::Constants, constants_);
  for (size_t i = 0; i < model.code_modules.size(); ++i) {
    const std::vector<uint8_t> &code = i ? moreCode_[i - 1] : code_;
    model.code_modules[i]->code_segment =
        code.empty() ? -1 : addSegment(SegmentKind::Code, code);
    if (i == 0 || !model.code_modules[i]->cuda)
      continue;
    auto &images = model.code_modules[i]->cuda->images;
    const auto &bytes = moreImages_[i - 1];
    for (size_t j = 0; j < images.size() && j < bytes.size(); ++j)
      images[j]->segment = uint32_t(addSegment(SegmentKind::Code, bytes[j]));
  }
  return detail::writeArtifactFile(model, payloads, edit);
}

namespace detail {

std::vector<uint8_t>
writeArtifactFile(ModelT &model, const std::vector<SegmentBytes> &payloads,
                  const std::function<void(ModelT &)> &edit) {
  auto pack = [](const ModelT &m) {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(Model::Pack(fbb, &m), ModelIdentifier());
    return std::vector<uint8_t>(fbb.GetBufferPointer(),
                                fbb.GetBufferPointer() + fbb.GetSize());
  };
  // Segments follow the header, each at the next multiple of 64. The values
  // of a struct vector do not change the header's size, so one packing
  // tells where they land.
  auto layOut = [&](ModelT &m) {
    uint64_t offset = alignToArtifact(kArtifactPreambleSize + pack(m).size());
    for (Segment &s : m.segments) {
      s = Segment(s.kind(), offset, s.size(), s.hash());
      offset = alignToArtifact(offset + s.size());
    }
  };
  layOut(model);
  if (edit) {
    std::vector<Segment> planned = model.segments;
    edit(model);
    // Unless the edit rewrote the segment table itself, follow a header
    // whose size it changed.
    auto same = [](const Segment &a, const Segment &b) {
      return a.kind() == b.kind() && a.offset() == b.offset() &&
             a.size() == b.size() && a.hash() == b.hash();
    };
    if (model.segments.size() == planned.size() &&
        std::equal(planned.begin(), planned.end(), model.segments.begin(),
                   same))
      layOut(model);
  }
  std::vector<uint8_t> header = pack(model);

  std::vector<uint8_t> file(kArtifactPreambleSize);
  ArtifactPreamble preamble;
  preamble.formatVersion = kArtifactFormatVersion;
  preamble.headerSize = uint32_t(header.size());
  preamble.headerHash = hash64(header.data(), header.size());
  encodePreamble(preamble, file.data());
  file.insert(file.end(), header.begin(), header.end());
  padTo(file, kArtifactAlignment);
  for (size_t i = 0; i < payloads.size(); ++i) {
    if (i)
      padTo(file, kArtifactAlignment);
    file.insert(file.end(), payloads[i].data,
                payloads[i].data + payloads[i].size);
  }
  return file;
}

} // namespace detail

} // namespace runtime
} // namespace tcc
