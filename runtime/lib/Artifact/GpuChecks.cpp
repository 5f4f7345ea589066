//===- GpuChecks.cpp - validation of cuda modules and GPU launches --------===//

#include "GpuChecks.h"

#include "Checks.h"

#include "tcc/runtime/ArtifactFormat.h"

#include <cstring>
#include <map>
#include <set>
#include <utility>

namespace tcc {
namespace runtime {
namespace detail {

using namespace tcc::artifact;

bool isCudaArchName(const std::string &arch) {
  if (arch.size() < 5 || arch.size() > 6 || arch.compare(0, 3, "sm_") != 0)
    return false;
  for (size_t i = 3; i < arch.size(); ++i)
    if (arch[i] < '0' || arch[i] > '9')
      return false;
  return arch[3] != '0';
}

namespace {

bool contains(const uint8_t *bytes, uint64_t size, const std::string &text) {
  if (text.size() > size)
    return false;
  const char *begin = reinterpret_cast<const char *>(bytes);
  for (uint64_t i = 0; i + text.size() <= size; ++i)
    if (std::memcmp(begin + i, text.data(), text.size()) == 0)
      return true;
  return false;
}

// Whether the bytes look like their format: a cubin is an ELF file; PTX is
// text that declares its version and its target architecture.
Status checkImageBytes(const CudaImage &image, const std::string &what,
                       const uint8_t *bytes, uint64_t size) {
  const std::string arch = image.arch()->str();
  if (image.format() == CudaImageFormat::Cubin) {
    static const uint8_t kElf[] = {0x7f, 'E', 'L', 'F'};
    if (size < sizeof(kElf) || std::memcmp(bytes, kElf, sizeof(kElf)) != 0)
      return corrupt(what, ": the cubin is not an ELF file");
    return Status();
  }
  if (std::memchr(bytes, 0, size))
    return corrupt(what, ": the PTX contains a NUL byte");
  if (!contains(bytes, size, ".version "))
    return corrupt(what, ": the PTX has no .version directive");
  if (!contains(bytes, size, ".target " + arch))
    return corrupt(what, ": the PTX is not for ", arch,
                   " (no '.target ", arch, "')");
  return Status();
}

} // namespace

Status checkCudaImages(const Model &model, uint32_t index,
                       const uint8_t *file, std::vector<int> &owner) {
  const CodeModule *module = model.code_modules()->Get(index);
  std::string what = cat("code module ", index);
  const bool isCuda = module->kind()->str() == kCudaModuleKind;
  const CudaCode *cuda = module->cuda();
  if (!isCuda) {
    if (cuda)
      return corrupt(what, ": a '", module->kind()->str(),
                     "' module with CUDA images");
    return Status();
  }
  what += " (cuda)";
  if (module->code_segment() != -1)
    return corrupt(what, ": has a code segment; a cuda module's code is in "
                         "its images");
  const auto *images = cuda ? cuda->images() : nullptr;
  if (!images || images->size() == 0)
    return corrupt(what, ": no PTX or cubin images");
  const auto *segments = model.segments();
  uint32_t numSegments = segments ? segments->size() : 0;
  std::set<std::pair<std::string, CudaImageFormat>> seen;
  std::set<std::string> archs, withPtx;
  for (uint32_t i = 0; i < images->size(); ++i) {
    const CudaImage *image = images->Get(i);
    std::string where = cat(what, ", image ", i);
    const char *arch = image->arch()->c_str();
    if (std::strlen(arch) != image->arch()->size() || !isCudaArchName(arch))
      return corrupt(where, ": '", arch,
                     "' is not a GPU architecture (sm_80, sm_90, ...)");
    if (image->format() != CudaImageFormat::Ptx &&
        image->format() != CudaImageFormat::Cubin)
      return corrupt(where, ": unknown image format ", int(image->format()));
    where += cat(" (", arch, " ", EnumNameCudaImageFormat(image->format()), ")");
    if (!seen.insert({arch, image->format()}).second)
      return corrupt(where, ": a second image of this architecture and format");
    archs.insert(arch);
    if (image->format() == CudaImageFormat::Ptx)
      withPtx.insert(arch);
    uint32_t segment = image->segment();
    if (segment >= numSegments)
      return corrupt(where, ": segment ", segment, " out of range (",
                     numSegments, " segments)");
    const Segment *s = segments->Get(segment);
    if (s->kind() != SegmentKind::Code)
      return corrupt(where, ": segment ", segment, " is not a code segment");
    if (owner[segment] != -1)
      return corrupt(where, ": segment ", segment,
                     " is already the code of module ", owner[segment]);
    owner[segment] = int(index);
    TCC_RETURN_IF_ERROR(
        checkImageBytes(*image, where, file + s->offset(), s->size()));
  }
  for (const std::string &arch : archs)
    if (!withPtx.count(arch))
      return corrupt(what, ": ", arch,
                     " has a cubin but no PTX (the PTX is always kept)");
  return Status();
}

Status checkGpuLaunches(const Model &model, uint32_t index) {
  const Kernel *kernel = model.kernels()->Get(index);
  const CodeModule *module = model.code_modules()->Get(kernel->code_module());
  std::string what = cat("kernel ", index, " '", kernel->symbol()->str(), "'");
  const auto *launches = kernel->gpu_launches();
  if (module->kind()->str() != kCudaModuleKind) {
    if (launches)
      return corrupt(what, ": GPU launches in a '", module->kind()->str(),
                     "' module");
    return Status();
  }
  if (!launches || launches->size() == 0)
    return corrupt(what, ": a kernel of a cuda module with no launches");
  if (kernel->tiles() != 1)
    return corrupt(what, ": a GPU kernel runs as 1 tile, not ",
                   kernel->tiles());
  for (uint32_t i = 0; i < launches->size(); ++i) {
    const GpuLaunch *launch = launches->Get(i);
    std::string where = cat(what, ", launch ", i);
    const char *function = launch->function()->c_str();
    if (std::strlen(function) != launch->function()->size() || !*function)
      return corrupt(where, ": the function name is empty or contains a NUL "
                            "byte");
    const auto *grid = launch->grid();
    const auto *block = launch->block();
    if (!grid || grid->size() != 3 || !block || block->size() != 3)
      return corrupt(where, ": grid and block must have 3 dimensions each");
    uint64_t threads = 1;
    for (uint32_t d = 0; d < 3; ++d) {
      if (grid->Get(d) == 0 || block->Get(d) == 0)
        return corrupt(where, ": a grid or block dimension is 0");
      threads *= block->Get(d);
    }
    // CUDA's limits: 2^31-1 blocks in x, 65535 in y and z.
    if (grid->Get(0) > 0x7fffffffu || grid->Get(1) > 65535u ||
        grid->Get(2) > 65535u)
      return corrupt(where, ": grid [", grid->Get(0), ",", grid->Get(1), ",",
                     grid->Get(2), "] exceeds CUDA's limits");
    if (threads > kCudaMaxThreadsPerBlock)
      return corrupt(where, ": ", threads, " threads per block (at most ",
                     kCudaMaxThreadsPerBlock, ")");
    const auto *args = launch->args();
    for (uint32_t a = 0; args && a < args->size(); ++a)
      if (args->Get(a) >= kernel->num_bindings())
        return corrupt(where, ": parameter ", a, " is binding ", args->Get(a),
                       " of the kernel's ", kernel->num_bindings());
  }
  return Status();
}

} // namespace detail
} // namespace runtime
} // namespace tcc
