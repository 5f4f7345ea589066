//===- Validator.cpp - semantic checks of a verified header ---------------===//
//
// Everything here reads a header that passed the FlatBuffers verifier, so
// every table and vector access is in bounds; what remains untrusted is the
// values. Each check names the entity at fault in its message.
//
//===----------------------------------------------------------------------===//

#include "Validator.h"

#include "Checks.h"
#include "Conv2dArgs.h"

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

const char *dtypeName(DType d) {
  return tcc_dtype_name(static_cast<tcc_dtype_t>(d));
}

const char *storageName(Storage s) {
  switch (s) {
  case Storage::Arena:
    return "arena";
  case Storage::Constant:
    return "constants";
  case Storage::Input:
    return "input";
  case Storage::Output:
    return "output";
  }
  return "unknown storage";
}

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

// Elements spanned by `batch` matrices of rows x cols with row stride `ld`
// and batch stride `batchStride` (all validated non-negative): the largest
// element index touched plus one, or 0 when nothing is touched.
Status matrixSpan(int64_t batch, int64_t rows, int64_t cols, int64_t ld,
                  int64_t batchStride, const std::string &what, uint64_t *out) {
  *out = 0;
  if (batch == 0 || rows == 0 || cols == 0)
    return Status();
  if (ld < cols)
    return corrupt(what, ": leading dimension ", ld, " is less than ", cols,
                   " columns");
  uint64_t a, b, span;
  if (!checkedMul(uint64_t(batch - 1), uint64_t(batchStride), &a) ||
      !checkedMul(uint64_t(rows - 1), uint64_t(ld), &b) ||
      !checkedAdd(a, b, &span) || !checkedAdd(span, uint64_t(cols), &span))
    return corrupt(what, ": extent overflows 64-bit sizes");
  *out = span;
  return Status();
}

Status checkedProduct(std::initializer_list<int64_t> factors,
                      const std::string &what, uint64_t *out) {
  uint64_t p = 1;
  for (int64_t f : factors)
    if (f < 0 || !checkedMul(p, uint64_t(f), &p))
      return corrupt(what, ": size overflows 64-bit sizes");
  *out = p;
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
    TCC_RETURN_IF_ERROR(checkCodeModules());
    TCC_RETURN_IF_ERROR(checkMemorySpaces());
    TCC_RETURN_IF_ERROR(checkSpecs(m_.inputs(), "input", &inputBytes_));
    TCC_RETURN_IF_ERROR(checkSpecs(m_.outputs(), "output", &outputBytes_));
    TCC_RETURN_IF_ERROR(checkBuffers());
    TCC_RETURN_IF_ERROR(checkSpecBuffers(m_.inputs(), Storage::Input));
    TCC_RETURN_IF_ERROR(checkSpecBuffers(m_.outputs(), Storage::Output));
    TCC_RETURN_IF_ERROR(checkKernels());
    TCC_RETURN_IF_ERROR(checkPlan());
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

  // Each module names its loader and owns its code segment, if any; every
  // code segment belongs to exactly one module. Whether this runtime has a
  // loader for the kind is the executor's question (checkHostSupports), so
  // tools can inspect models for other targets.
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
      TCC_RETURN_IF_ERROR(buffer(spec->buffer(), what, &b));
      if (b->storage() != storage || b->index() != i || b->offset() != 0 ||
          !sameShape(b->shape(), spec->shape()))
        return corrupt(what, ": buffer ", spec->buffer(), " is not ",
                       storageName(storage), " ", i, " with shape ",
                       shapeString(spec->shape()));
    }
    return Status();
  }

  Status checkKernels() {
    const auto *kernels = m_.kernels();
    for (uint32_t i = 0; kernels && i < kernels->size(); ++i) {
      if (!isSymbolName(kernels->Get(i)->symbol()))
        return corrupt("kernel ", i, ": symbol is not a valid name");
      if (kernels->Get(i)->code_module() >= numModules())
        return corrupt("kernel ", i, ": code module ",
                       kernels->Get(i)->code_module(), " out of range (",
                       numModules(), " code modules)");
    }
    return Status();
  }

  // Names shown to users must be printable in full.
  Status checkStrings() {
    if (m_.tcc_version() && !isCleanString(m_.tcc_version()))
      return corrupt("the version string contains a NUL byte");
    return Status();
  }

  Status buffer(int64_t index, const std::string &what, const Buffer **out) {
    uint32_t n = m_.buffers() ? m_.buffers()->size() : 0;
    if (index < 0 || uint64_t(index) >= n)
      return corrupt(what, ": buffer index ", index, " out of range (", n,
                     " buffers)");
    *out = m_.buffers()->Get(uint32_t(index));
    return Status();
  }

  static Status requireDType(const Buffer *b, DType dtype,
                             const std::string &what) {
    if (b->dtype() != dtype)
      return corrupt(what, ": dtype ", dtypeName(b->dtype()), ", expected ",
                     dtypeName(dtype));
    return Status();
  }

  static Status requireWritable(const Buffer *b, const std::string &what) {
    if (b->storage() != Storage::Arena && b->storage() != Storage::Output)
      return corrupt(what, ": written but stored in ",
                     storageName(b->storage()),
                     " (only arena and outputs are writable)");
    return Status();
  }

  static Status requireElements(const Buffer *b, uint64_t needed,
                                const std::string &what) {
    uint64_t has = b->byte_size() / dtypeSize(b->dtype());
    if (needed > has)
      return corrupt(what, ": accesses ", needed,
                     " elements but the buffer has ", has);
    return Status();
  }

  Status checkPlan() {
    const auto *plan = m_.plan();
    for (uint32_t i = 0; plan && i < plan->size(); ++i) {
      const Step *step = plan->Get(i);
      std::string where = cat("plan step ", i);
      if (!isCleanString(step->kind()))
        return corrupt(where, ": kind contains a NUL byte");
      const char *known = stepKindName(step->op_type());
      // A kind this runtime does not know comes from a newer writer; a
      // known kind with an unknown op type is a damaged header.
      if (!known && !isStepKindName(step->kind()->str()))
        return Status(TCC_STATUS_UNIMPLEMENTED,
                      cat(where, ": step kind '", step->kind()->str(),
                          "' is not known to this runtime (it runs ",
                          knownStepKinds(), ")"));
      if (!known)
        return corrupt(where, ": unknown operation type ",
                       int(step->op_type()));
      if (step->kind()->str() != known)
        return corrupt(where, ": kind '", step->kind()->str(),
                       "' but its op is a ", known);
      if (step->code_module() >= numModules())
        return corrupt(where, ": code module ", step->code_module(),
                       " out of range (", numModules(), " code modules)");
      switch (step->op_type()) {
      case Op::KernelCall:
        TCC_RETURN_IF_ERROR(checkKernelCall(
            *step->op_as_KernelCall(), step->code_module(), where + " (KernelCall)"));
        break;
      case Op::Sgemm:
        TCC_RETURN_IF_ERROR(
            checkSgemm(*step->op_as_Sgemm(), where + " (Sgemm)"));
        break;
      case Op::Conv2d:
        TCC_RETURN_IF_ERROR(
            checkConv2d(*step->op_as_Conv2d(), where + " (Conv2d)"));
        break;
      case Op::Copy:
        TCC_RETURN_IF_ERROR(checkCopy(*step->op_as_Copy(), where + " (Copy)"));
        break;
      default:
        return corrupt(where, ": unknown operation type ",
                       int(step->op_type()));
      }
    }
    return Status();
  }

  Status checkKernelCall(const KernelCall &call, uint32_t module,
                         const std::string &where) {
    uint32_t numKernels = m_.kernels() ? m_.kernels()->size() : 0;
    if (call.kernel() >= numKernels)
      return corrupt(where, ": kernel index ", call.kernel(), " out of range (",
                     numKernels, " kernels)");
    const Kernel *kernel = m_.kernels()->Get(call.kernel());
    if (kernel->code_module() != module)
      return corrupt(where, ": runs on code module ", module, " but kernel '",
                     kernel->symbol()->str(), "' is in module ",
                     kernel->code_module());
    uint32_t numBindings = call.bindings() ? call.bindings()->size() : 0;
    if (numBindings != kernel->num_bindings())
      return corrupt(where, ": ", numBindings, " bindings but kernel '",
                     kernel->symbol()->str(), "' takes ",
                     kernel->num_bindings());
    for (uint32_t j = 0; j < numBindings; ++j) {
      const Buffer *b = nullptr;
      TCC_RETURN_IF_ERROR(
          buffer(call.bindings()->Get(j), cat(where, ": binding ", j), &b));
    }
    if (call.tiles() < 1)
      return corrupt(where, ": tiles ", call.tiles(), " is less than 1");
    return Status();
  }

  Status checkEpilogue(const Epilogue *e, uint64_t biasElements,
                       uint64_t outputSpan, const std::string &where) {
    if (!e)
      return Status();
    if (uint8_t(e->activation()) > uint8_t(Activation::MAX))
      return corrupt(where, ": unknown activation ", int(e->activation()));
    if (e->bias() != -1) {
      const Buffer *b = nullptr;
      std::string what = where + ": epilogue bias";
      TCC_RETURN_IF_ERROR(buffer(e->bias(), what, &b));
      TCC_RETURN_IF_ERROR(requireDType(b, DType::F32, what));
      TCC_RETURN_IF_ERROR(requireElements(b, biasElements, what));
    }
    if (e->residual() != -1) {
      const Buffer *b = nullptr;
      std::string what = where + ": epilogue residual";
      TCC_RETURN_IF_ERROR(buffer(e->residual(), what, &b));
      TCC_RETURN_IF_ERROR(requireDType(b, DType::F32, what));
      TCC_RETURN_IF_ERROR(requireElements(b, outputSpan, what));
    }
    return Status();
  }

  Status checkSgemm(const Sgemm &g, const std::string &where) {
    for (int64_t v :
         {g.m(), g.n(), g.k(), g.lda(), g.ldb(), g.ldc(), g.a_batch_stride(),
          g.b_batch_stride(), g.c_batch_stride()})
      if (v < 0)
        return corrupt(where, ": negative size, leading dimension or stride");
    if (g.batch() < 1)
      return corrupt(where, ": batch ", g.batch(), " is less than 1");
    // Sizes fit the kernels' int64 arithmetic with room to spare.
    uint64_t mnk = 0;
    TCC_RETURN_IF_ERROR(checkedProduct({g.m(), g.n(), g.k(), 4}, where, &mnk));

    const Buffer *a = nullptr, *b = nullptr, *c = nullptr;
    TCC_RETURN_IF_ERROR(buffer(g.a(), where + ": a", &a));
    TCC_RETURN_IF_ERROR(buffer(g.b(), where + ": b", &b));
    TCC_RETURN_IF_ERROR(buffer(g.c(), where + ": c", &c));
    TCC_RETURN_IF_ERROR(requireDType(a, DType::F32, where + ": a"));
    TCC_RETURN_IF_ERROR(requireDType(c, DType::F32, where + ": c"));
    TCC_RETURN_IF_ERROR(requireWritable(c, where + ": c"));

    uint64_t span = 0;
    TCC_RETURN_IF_ERROR(matrixSpan(g.batch(), g.trans_a() ? g.k() : g.m(),
                                   g.trans_a() ? g.m() : g.k(), g.lda(),
                                   g.a_batch_stride(), where + ": a", &span));
    TCC_RETURN_IF_ERROR(requireElements(a, span, where + ": a"));

    if (g.b_packed()) {
      std::string what = where + ": packed b";
      TCC_RETURN_IF_ERROR(requireDType(b, DType::U8, what));
      if (b->storage() != Storage::Constant && b->storage() != Storage::Arena)
        return corrupt(what, ": must be in the constants or the arena");
      if (b->offset() % kArtifactAlignment != 0 ||
          g.b_batch_stride() % int64_t(kArtifactAlignment) != 0)
        return corrupt(what, ": offset and batch stride must be multiples of ",
                       kArtifactAlignment);
      uint64_t packed = tcc_sgemm_packed_b_size(g.k(), g.n()), first;
      if (!checkedMul(uint64_t(g.batch() - 1), uint64_t(g.b_batch_stride()),
                      &first) ||
          !checkedAdd(first, packed, &span))
        return corrupt(what, ": extent overflows 64-bit sizes");
      TCC_RETURN_IF_ERROR(requireElements(b, span, what));
    } else {
      TCC_RETURN_IF_ERROR(requireDType(b, DType::F32, where + ": b"));
      TCC_RETURN_IF_ERROR(matrixSpan(g.batch(), g.trans_b() ? g.n() : g.k(),
                                     g.trans_b() ? g.k() : g.n(), g.ldb(),
                                     g.b_batch_stride(), where + ": b", &span));
      TCC_RETURN_IF_ERROR(requireElements(b, span, where + ": b"));
    }

    TCC_RETURN_IF_ERROR(matrixSpan(g.batch(), g.m(), g.n(), g.ldc(),
                                   g.c_batch_stride(), where + ": c", &span));
    TCC_RETURN_IF_ERROR(requireElements(c, span, where + ": c"));
    const Epilogue *e = g.epilogue();
    return checkEpilogue(e, e && e->bias_per_row() ? g.m() : g.n(), span,
                         where);
  }

  Status checkConv2d(const Conv2d &c, const std::string &where) {
    for (int64_t v :
         {c.batch(), c.in_channels(), c.in_height(), c.in_width(),
          c.out_channels(), c.kernel_height(), c.kernel_width(), c.stride_h(),
          c.stride_w(), c.dilation_h(), c.dilation_w(), c.groups()})
      if (v < 1)
        return corrupt(where, ": a size, stride, dilation or group count is "
                              "less than 1");
    if (c.pad_h() < 0 || c.pad_w() < 0)
      return corrupt(where, ": negative padding");
    if (c.in_channels() % c.groups() != 0 || c.out_channels() % c.groups() != 0)
      return corrupt(where, ": channels ", c.in_channels(), "->",
                     c.out_channels(), " are not divisible by groups ",
                     c.groups());
    int64_t outSize[2];
    const int64_t in[2] = {c.in_height(), c.in_width()};
    const int64_t pad[2] = {c.pad_h(), c.pad_w()};
    const int64_t dil[2] = {c.dilation_h(), c.dilation_w()};
    const int64_t ker[2] = {c.kernel_height(), c.kernel_width()};
    const int64_t stride[2] = {c.stride_h(), c.stride_w()};
    for (int d = 0; d < 2; ++d) {
      uint64_t padded, effective;
      if (!checkedMul(uint64_t(pad[d]), 2, &padded) ||
          !checkedAdd(padded, uint64_t(in[d]), &padded) ||
          !checkedMul(uint64_t(dil[d]), uint64_t(ker[d] - 1), &effective) ||
          padded > uint64_t(INT64_MAX) || effective >= uint64_t(INT64_MAX))
        return corrupt(where, ": spatial sizes overflow");
      effective += 1;
      if (effective > padded)
        return corrupt(where, ": the dilated kernel (", effective,
                       ") is larger than the padded input (", padded, ")");
      outSize[d] = int64_t((padded - effective) / uint64_t(stride[d]) + 1);
    }
    uint64_t inputElems = 0, weightElems = 0, outputElems = 0;
    TCC_RETURN_IF_ERROR(checkedProduct(
        {c.batch(), c.in_channels(), c.in_height(), c.in_width()}, where,
        &inputElems));
    TCC_RETURN_IF_ERROR(
        checkedProduct({c.out_channels(), c.in_channels() / c.groups(),
                        c.kernel_height(), c.kernel_width()},
                       where, &weightElems));
    TCC_RETURN_IF_ERROR(
        checkedProduct({c.batch(), c.out_channels(), outSize[0], outSize[1]},
                       where, &outputElems));

    const Buffer *input = nullptr, *weight = nullptr, *output = nullptr;
    TCC_RETURN_IF_ERROR(buffer(c.input(), where + ": input", &input));
    TCC_RETURN_IF_ERROR(buffer(c.weight(), where + ": weight", &weight));
    TCC_RETURN_IF_ERROR(buffer(c.output(), where + ": output", &output));
    TCC_RETURN_IF_ERROR(requireDType(input, DType::F32, where + ": input"));
    TCC_RETURN_IF_ERROR(requireDType(output, DType::F32, where + ": output"));
    TCC_RETURN_IF_ERROR(requireWritable(output, where + ": output"));
    TCC_RETURN_IF_ERROR(requireElements(input, inputElems, where + ": input"));
    if (c.weight_packed()) {
      std::string what = where + ": packed weight";
      TCC_RETURN_IF_ERROR(requireDType(weight, DType::U8, what));
      if (weight->storage() != Storage::Constant)
        return corrupt(what, ": must be a constant");
      if (weight->offset() % kArtifactAlignment != 0)
        return corrupt(what, ": offset must be a multiple of ",
                       kArtifactAlignment);
      tcc_conv2d_args args = conv2dArgs(c);
      uint64_t packed = tcc_conv2d_packed_weight_size(&args);
      if (packed == 0)
        return corrupt(what, ": this convolution takes no packed weights");
      TCC_RETURN_IF_ERROR(requireElements(weight, packed, what));
    } else {
      TCC_RETURN_IF_ERROR(requireDType(weight, DType::F32, where + ": weight"));
      TCC_RETURN_IF_ERROR(
          requireElements(weight, weightElems, where + ": weight"));
    }
    TCC_RETURN_IF_ERROR(
        requireElements(output, outputElems, where + ": output"));
    if (c.workspace() != -1) {
      const Buffer *w = nullptr;
      TCC_RETURN_IF_ERROR(buffer(c.workspace(), where + ": workspace", &w));
      if (w->storage() != Storage::Arena)
        return corrupt(where, ": workspace is not in the arena");
      if (w->offset() % kArtifactAlignment != 0)
        return corrupt(where, ": workspace offset is not a multiple of ",
                       kArtifactAlignment);
    }
    return checkEpilogue(c.epilogue(), uint64_t(c.out_channels()), outputElems,
                         where);
  }

  Status checkCopy(const Copy &copy, const std::string &where) {
    const Buffer *src = nullptr, *dst = nullptr;
    TCC_RETURN_IF_ERROR(buffer(copy.src(), where + ": src", &src));
    TCC_RETURN_IF_ERROR(buffer(copy.dst(), where + ": dst", &dst));
    TCC_RETURN_IF_ERROR(requireWritable(dst, where + ": dst"));
    if (copy.bytes() > src->byte_size() || copy.bytes() > dst->byte_size())
      return corrupt(where, ": copies ", copy.bytes(),
                     " bytes between buffers"
                     " of ",
                     src->byte_size(), " and ", dst->byte_size(), " bytes");
    return Status();
  }

  const Model &m_;
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
