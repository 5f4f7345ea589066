//===- Validator.cpp - semantic checks of a verified header ---------------===//
//
// Everything here reads a header that passed the FlatBuffers verifier, so
// every table and vector access is in bounds; what remains untrusted is the
// values. Each check names the entity at fault in its message.
//
// The trust rules (docs/reliability.md, "Trust model of artifacts"): with
// hashes anyone can recompute, a forged header must not make the runtime
// crash, hang or write where it should not. So, for every step (its kind's
// validate, with StepChecks.h):
//  - every region it reads or writes lies inside its buffer, sized from the
//    step's own arguments, with overflow-checked arithmetic;
//  - it writes only arena buffers and outputs, never inputs or constants;
//  - a kernel call's buffers hold what its kernel declares (bytes, written
//    or not) and it runs the kernel's tiles; symbols are unique per module
//    (checkKernels), so the declarations describe the code that runs;
//  - a library call's output shares no memory with its operands, and
//    sgemm's output batches are disjoint, bounding its work by its output.
// What the code of an unsigned artifact does is beyond any check here.
//
//===----------------------------------------------------------------------===//

#include "Validator.h"

#include "Checks.h"
#include "GpuChecks.h"
#include "StepChecks.h"

#include "../Steps/StepKind.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/StepKinds.h"
#include "tcc/runtime/kernels.h"

#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace tcc {
namespace runtime {
namespace detail {
namespace {

using namespace tcc::artifact;
using flatbuffers::Offset;
using flatbuffers::String;
using flatbuffers::Vector;

std::string shapeString(const Vector<int64_t> *shape) {
  std::string s = "[";
  if (shape)
    for (uint32_t i = 0; i < shape->size(); ++i)
      s += cat(i ? "," : "", shape->Get(i));
  return s + "]";
}

bool sameShape(const Vector<int64_t> *a, const Vector<int64_t> *b) {
  uint32_t na = a ? a->size() : 0, nb = b ? b->size() : 0;
  if (na != nb)
    return false;
  for (uint32_t i = 0; i < na; ++i)
    if (a->Get(i) != b->Get(i))
      return false;
  return true;
}

// A string without embedded NULs, so C callers see all of it.
bool isCleanString(const String *s) {
  return s && std::strlen(s->c_str()) == s->size();
}

bool isSymbolName(const String *s) {
  if (!isCleanString(s) || s->size() == 0)
    return false;
  for (uint32_t i = 0; i < s->size(); ++i) {
    char c = s->c_str()[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
              c == '.' || c == '$' || (i > 0 && c >= '0' && c <= '9');
    if (!ok)
      return false;
  }
  return true;
}

// Whether a vector's elements are aligned for reading. The FlatBuffers
// verifier only checks the alignment of a vector's length field, so a
// crafted header could place 8-byte elements at 4-byte boundaries.
template <typename T> bool elementsAligned(const Vector<T> *v, size_t align) {
  return !v || reinterpret_cast<uintptr_t>(v->Data()) % align == 0;
}

// Product of a shape's dimensions times the element size, checked.
Status shapeBytes(const Vector<int64_t> *shape, DType dtype,
                  const std::string &what, uint64_t *outBytes) {
  if (!elementsAligned(shape, alignof(int64_t)))
    return corrupt(what, ": shape vector is misaligned");
  uint64_t elemSize = dtypeSize(dtype);
  if (elemSize == 0)
    return corrupt(what, ": unknown dtype ", int(dtype));
  uint64_t bytes = elemSize;
  if (shape) {
    for (uint32_t i = 0; i < shape->size(); ++i) {
      int64_t dim = shape->Get(i);
      if (dim < 0)
        return corrupt(what, ": dimension ", i, " of shape ",
                       shapeString(shape), " is negative");
      if (!checkedMul(bytes, uint64_t(dim), &bytes))
        return corrupt(what, ": shape ", shapeString(shape), " of ",
                       dtypeName(dtype), " overflows 64-bit sizes");
    }
  }
  *outBytes = bytes;
  return Status();
}

class Validator {
public:
  Validator(const Model &model, const uint8_t *file, size_t fileSize,
            size_t headerSize)
      : m_(model), file_(file), fileSize_(fileSize), headerSize_(headerSize) {}

  Status run(SegmentLayout *layout) {
    TCC_RETURN_IF_ERROR(checkVersions());
    TCC_RETURN_IF_ERROR(checkSegments(layout));
    constantBytes_ = layout->constantsSize;
    check_.setConstants(file_ + layout->constantsOffset);
    TCC_RETURN_IF_ERROR(checkCodeModules());
    TCC_RETURN_IF_ERROR(checkMemorySpaces());
    TCC_RETURN_IF_ERROR(checkSpecs(m_.inputs(), "input", &inputBytes_));
    TCC_RETURN_IF_ERROR(checkSpecs(m_.outputs(), "output", &outputBytes_));
    TCC_RETURN_IF_ERROR(checkBuffers());
    TCC_RETURN_IF_ERROR(checkSpecBuffers(m_.inputs(), Storage::Input));
    TCC_RETURN_IF_ERROR(checkSpecBuffers(m_.outputs(), Storage::Output));
    TCC_RETURN_IF_ERROR(checkKernels());
    TCC_RETURN_IF_ERROR(checkPlan());
    TCC_RETURN_IF_ERROR(checkSignatureTable(m_));
    return checkStrings();
  }

private:
  Status checkVersions() {
    if (m_.format_version() != kArtifactFormatVersion)
      return Status(TCC_STATUS_UNIMPLEMENTED,
                    cat("header format_version ", m_.format_version(),
                        " differs from the runtime's ",
                        kArtifactFormatVersion));
    if (m_.kernels_abi_version() != TCC_KERNELS_ABI_VERSION)
      return Status(TCC_STATUS_UNIMPLEMENTED,
                    cat("model needs kernel ABI version ",
                        m_.kernels_abi_version(), ", the runtime provides ",
                        TCC_KERNELS_ABI_VERSION));
    return Status();
  }

  Status checkZero(uint64_t begin, uint64_t end, const std::string &what) {
    for (uint64_t i = begin; i < end; ++i)
      if (file_[i] != 0)
        return corrupt(what, ": byte ", i, " is not zero");
    return Status();
  }

  Status checkSegments(SegmentLayout *layout) {
    uint64_t headerEnd = kArtifactPreambleSize + uint64_t(headerSize_);
    uint64_t paddedEnd = alignToArtifact(headerEnd);
    if (paddedEnd > fileSize_)
      return corrupt("file ends at byte ", fileSize_,
                     " inside the padding after the header (truncated?)");
    TCC_RETURN_IF_ERROR(checkZero(headerEnd, paddedEnd, "header padding"));
    uint64_t end = paddedEnd;
    bool seenConstants = false;
    const auto *segments = m_.segments();
    if (!elementsAligned(segments, alignof(uint64_t)))
      return corrupt("segment table is misaligned");
    for (uint32_t i = 0; segments && i < segments->size(); ++i) {
      const Segment *s = segments->Get(i);
      std::string what = cat("segment ", i);
      if (s->kind() != SegmentKind::Constants && s->kind() != SegmentKind::Code)
        return corrupt(what, ": unknown kind ", int(s->kind()));
      const char *kind =
          s->kind() == SegmentKind::Constants ? "constants" : "code";
      what += cat(" (", kind, ")");
      if (s->kind() == SegmentKind::Constants) {
        if (seenConstants)
          return corrupt(what, ": a second ", kind, " segment");
        seenConstants = true;
      }
      if (s->size() == 0)
        return corrupt(what, ": empty (an empty segment is omitted)");
      uint64_t expected = alignToArtifact(end);
      if (s->offset() != expected)
        return corrupt(what, ": offset ", s->offset(), ", expected ", expected,
                       " (segments follow each other at 64-byte boundaries)");
      uint64_t segEnd;
      if (!checkedAdd(s->offset(), s->size(), &segEnd))
        return corrupt(what, ": offset + size overflows");
      if (segEnd > fileSize_)
        return corrupt(what, ": ends at byte ", segEnd, " but the file has ",
                       fileSize_, " bytes (truncated?)");
      TCC_RETURN_IF_ERROR(checkZero(end, s->offset(), what + " padding"));
      if (s->kind() == SegmentKind::Constants) {
        layout->constantsOffset = s->offset();
        layout->constantsSize = s->size();
      }
      end = segEnd;
    }
    if (fileSize_ != end)
      return corrupt("file has ", fileSize_ - end,
                     " bytes after the end of its last part at byte ", end);
    return Status();
  }

  // Each module names its loader and owns its code segment, if any (a cuda
  // module: its images' segments); every code segment belongs to exactly
  // one module. Whether a device loads the
  // kind is the loader's question (checkModelRunsHere), so tools can
  // inspect models for other targets.
  Status checkCodeModules() {
    const auto *modules = m_.code_modules();
    const auto *segments = m_.segments();
    uint32_t numSegments = segments ? segments->size() : 0;
    std::vector<int> owner(numSegments, -1);
    for (uint32_t i = 0; modules && i < modules->size(); ++i) {
      const CodeModule *module = modules->Get(i);
      std::string what = cat("code module ", i);
      if (!isCleanString(module->kind()) || module->kind()->size() == 0)
        return corrupt(what, ": kind is empty or contains a NUL byte");
      for (const auto *s : {module->target_triple(), module->cpu(),
                            module->gpu_arch()})
        if (s && !isCleanString(s))
          return corrupt(what, ": a target string contains a NUL byte");
      const auto *features = module->cpu_features();
      for (uint32_t j = 0; features && j < features->size(); ++j)
        if (!isCleanString(features->Get(j)))
          return corrupt(what, ": cpu feature ", j, " contains a NUL byte");
      const auto *imports = module->imports();
      for (uint32_t j = 0; imports && j < imports->size(); ++j)
        if (!isSymbolName(imports->Get(j)))
          return corrupt(what, ": import ", j, ": not a valid symbol name");
      TCC_RETURN_IF_ERROR(checkCudaImages(m_, i, file_, owner));
      int32_t segment = module->code_segment();
      if (segment == -1)
        continue;
      if (segment < 0 || uint32_t(segment) >= numSegments)
        return corrupt(what, ": code segment ", segment, " out of range (",
                       numSegments, " segments)");
      if (segments->Get(uint32_t(segment))->kind() != SegmentKind::Code)
        return corrupt(what, ": segment ", segment, " is not a code segment");
      if (owner[uint32_t(segment)] != -1)
        return corrupt(what, ": segment ", segment,
                       " is already the code of module ",
                       owner[uint32_t(segment)]);
      owner[uint32_t(segment)] = int(i);
    }
    for (uint32_t i = 0; i < numSegments; ++i)
      if (segments->Get(i)->kind() == SegmentKind::Code && owner[i] == -1)
        return corrupt("segment ", i, " (code): no code module uses it");
    return Status();
  }

  Status checkMemorySpaces() {
    const auto *spaces = m_.memory_spaces();
    for (uint32_t i = 0; spaces && i < spaces->size(); ++i) {
      const MemorySpace *space = spaces->Get(i);
      if (space->kind() != MemoryKind::Host &&
          space->kind() != MemoryKind::Device)
        return corrupt("memory space ", i, ": unknown kind ",
                       int(space->kind()));
      if (space->kind() == MemoryKind::Device &&
          space->code_module() >= numModules())
        return corrupt("memory space ", i, ": code module ", space->code_module(),
                       " out of range (", numModules(), " code modules)");
    }
    return Status();
  }

  uint32_t numModules() const {
    return m_.code_modules() ? m_.code_modules()->size() : 0;
  }

  Status checkSpecs(const Vector<Offset<TensorSpec>> *specs, const char *kind,
                    std::vector<uint64_t> *bytes) {
    std::set<std::string> names;
    for (uint32_t i = 0; specs && i < specs->size(); ++i) {
      const TensorSpec *spec = specs->Get(i);
      std::string what = cat(kind, " ", i);
      if (!isCleanString(spec->name()) || spec->name()->size() == 0)
        return corrupt(what, ": name is empty or contains a NUL byte");
      what += cat(" '", spec->name()->str(), "'");
      if (!names.insert(spec->name()->str()).second)
        return corrupt(what, ": another ", kind, " has the same name");
      uint64_t b = 0;
      TCC_RETURN_IF_ERROR(shapeBytes(spec->shape(), spec->dtype(), what, &b));
      bytes->push_back(b);
    }
    return Status();
  }

  Status checkBuffers() {
    const auto *buffers = m_.buffers();
    for (uint32_t i = 0; buffers && i < buffers->size(); ++i) {
      const Buffer *b = buffers->Get(i);
      std::string what = cat("buffer ", i);
      uint64_t bytes = 0;
      TCC_RETURN_IF_ERROR(shapeBytes(b->shape(), b->dtype(), what, &bytes));
      if (bytes != b->byte_size())
        return corrupt(what, ": byte_size ", b->byte_size(), " but ",
                       dtypeName(b->dtype()), shapeString(b->shape()),
                       " takes ", bytes, " bytes");
      uint32_t numSpaces = m_.memory_spaces() ? m_.memory_spaces()->size() : 0;
      if (b->space() >= numSpaces)
        return corrupt(what, ": memory space ", b->space(), " out of range (",
                       numSpaces, " memory spaces)");
      const MemorySpace *space = m_.memory_spaces()->Get(b->space());
      bool bound =
          b->storage() == Storage::Input || b->storage() == Storage::Output;
      if (bound && space->kind() != MemoryKind::Host)
        return corrupt(what, ": ", storageName(b->storage()),
                       " buffers are host memory, but memory space ",
                       b->space(), " is device memory");
      uint64_t region = 0;
      switch (b->storage()) {
      case Storage::Arena:
        region = space->arena_bytes();
        break;
      case Storage::Constant:
        region = constantBytes_;
        break;
      case Storage::Input:
      case Storage::Output: {
        bool in = b->storage() == Storage::Input;
        const auto *specs = in ? m_.inputs() : m_.outputs();
        const auto &sizes = in ? inputBytes_ : outputBytes_;
        if (b->index() >= sizes.size())
          return corrupt(what, ": ", storageName(b->storage()), " index ",
                         b->index(), " out of range (the model has ",
                         sizes.size(), ")");
        if (specs->Get(b->index())->dtype() != b->dtype())
          return corrupt(what, ": dtype ", dtypeName(b->dtype()),
                         " differs from its ", storageName(b->storage()), "'s");
        region = sizes[b->index()];
        break;
      }
      default:
        return corrupt(what, ": unknown storage ", int(b->storage()));
      }
      uint64_t end;
      if (!checkedAdd(b->offset(), bytes, &end) || end > region)
        return corrupt(what, ": bytes [", b->offset(), ", ", b->offset(), "+",
                       bytes, ") exceed its ", storageName(b->storage()),
                       " region of ", region, " bytes");
      if (b->offset() % dtypeSize(b->dtype()) != 0)
        return corrupt(what, ": offset ", b->offset(),
                       " is not aligned to its element size");
    }
    return Status();
  }

  // Each input/output names a buffer that is exactly it.
  Status checkSpecBuffers(const Vector<Offset<TensorSpec>> *specs,
                          Storage storage) {
    for (uint32_t i = 0; specs && i < specs->size(); ++i) {
      const TensorSpec *spec = specs->Get(i);
      std::string what =
          cat(storageName(storage), " '", spec->name()->str(), "'");
      const Buffer *b = nullptr;
      TCC_RETURN_IF_ERROR(check_.buffer(spec->buffer(), what, &b));
      if (b->storage() != storage || b->index() != i || b->offset() != 0 ||
          !sameShape(b->shape(), spec->shape()))
        return corrupt(what, ": buffer ", spec->buffer(), " is not ",
                       storageName(storage), " ", i, " with shape ",
                       shapeString(spec->shape()));
    }
    return Status();
  }

  // Each kernel declares every binding and at least one tile, and its
  // symbol names no other kernel of its module: a call then runs the code
  // whose declarations its step was checked against.
  Status checkKernels() {
    const auto *kernels = m_.kernels();
    std::set<std::pair<uint32_t, std::string>> symbols;
    for (uint32_t i = 0; kernels && i < kernels->size(); ++i) {
      const Kernel *kernel = kernels->Get(i);
      if (!isSymbolName(kernel->symbol()))
        return corrupt("kernel ", i, ": symbol is not a valid name");
      if (kernel->code_module() >= numModules())
        return corrupt("kernel ", i, ": code module ", kernel->code_module(),
                       " out of range (", numModules(), " code modules)");
      std::string what = cat("kernel ", i, " '", kernel->symbol()->str(), "'");
      if (!symbols.insert({kernel->code_module(), kernel->symbol()->str()})
               .second)
        return corrupt(what, ": another kernel of code module ",
                       kernel->code_module(), " has the same symbol");
      const auto *declared = kernel->bindings();
      if (!elementsAligned(declared, alignof(uint64_t)))
        return corrupt(what, ": binding declarations are misaligned");
      uint32_t numDeclared = declared ? declared->size() : 0;
      if (numDeclared != kernel->num_bindings())
        return corrupt(what, ": declares ", numDeclared, " of its ",
                       kernel->num_bindings(),
                       " bindings (written by an older tcc? recompile it)");
      if (kernel->tiles() < 1)
        return corrupt(what, ": tiles ", kernel->tiles(), " is less than 1");
      TCC_RETURN_IF_ERROR(checkGpuLaunches(m_, i));
    }
    return Status();
  }

  // Names shown to users must be printable in full.
  Status checkStrings() {
    if (m_.tcc_version() && !isCleanString(m_.tcc_version()))
      return corrupt("the version string contains a NUL byte");
    return Status();
  }

  Status checkPlan() {
    const auto *plan = m_.plan();
    for (uint32_t i = 0; plan && i < plan->size(); ++i) {
      const Step *step = plan->Get(i);
      std::string where = cat("plan step ", i);
      if (!isCleanString(step->kind()))
        return corrupt(where, ": kind contains a NUL byte");
      const StepKind *kind = findStepKind(step->op_type());
      // A kind this runtime does not know comes from a newer writer; a
      // known kind with an unknown op type is a damaged header.
      if (!kind && !isStepKindName(step->kind()->str()))
        return Status(TCC_STATUS_UNIMPLEMENTED,
                      cat(where, ": step kind '", step->kind()->str(),
                          "' is not known to this runtime (it runs ",
                          knownStepKinds(), ")"));
      if (!kind)
        return corrupt(where, ": unknown operation type ",
                       int(step->op_type()));
      if (step->kind()->str() != kind->name)
        return corrupt(where, ": kind '", step->kind()->str(),
                       "' but its op is a ", kind->name);
      if (step->code_module() >= numModules())
        return corrupt(where, ": code module ", step->code_module(),
                       " out of range (", numModules(), " code modules)");
      TCC_RETURN_IF_ERROR(kind->validate(
          check_, *step, cat(where, " (", EnumNameOp(step->op_type()), ")")));
    }
    return Status();
  }

  const Model &m_;
  StepChecker check_{m_};
  const uint8_t *file_;
  size_t fileSize_;
  size_t headerSize_;
  uint64_t constantBytes_ = 0;
  std::vector<uint64_t> inputBytes_, outputBytes_;
};

} // namespace

Status validateModel(const Model &model, const uint8_t *file, size_t fileSize,
                     size_t headerSize, SegmentLayout *layout) {
  *layout = SegmentLayout();
  return Validator(model, file, fileSize, headerSize).run(layout);
}

Status checkSegmentHashes(const Model &model, const uint8_t *file) {
  const auto *segments = model.segments();
  for (uint32_t i = 0; segments && i < segments->size(); ++i) {
    const Segment *s = segments->Get(i);
    uint64_t actual = hash64(file + s->offset(), s->size());
    if (actual != s->hash())
      return corrupt("segment ", i, " (",
                     s->kind() == SegmentKind::Code ? "code" : "constants",
                     "): hash mismatch, the bytes are corrupt");
  }
  return Status();
}

} // namespace detail
} // namespace runtime
} // namespace tcc
