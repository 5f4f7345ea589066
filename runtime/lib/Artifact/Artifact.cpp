//===- Artifact.cpp - reading and verifying a model file ------------------===//
//
// The order of checks matters: nothing reads a byte before the check that
// makes reading it safe has passed. The preamble comes first (sizes), then
// the header hash (so a corrupt header fails cleanly rather than by luck in
// the verifier), the identifier, the FlatBuffers verifier (every offset in
// the header in bounds), the signature when a trusted key is given (so
// nothing below reads values an attacker chose), semantic validation (every
// value consistent) and last the segment hashes.
//
//===----------------------------------------------------------------------===//

#include "tcc/runtime/Artifact.h"

#include "Checks.h"
#include "Validator.h"

#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/Signing.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace tcc {
namespace runtime {

using detail::cat;
using detail::corrupt;

size_t dtypeSize(tcc::artifact::DType dtype) {
  return tcc_dtype_size(static_cast<tcc_dtype_t>(int(dtype)));
}

namespace {

uint64_t readLE(const uint8_t *p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= uint64_t(p[i]) << (8 * i);
  return v;
}

Status readPreamble(const uint8_t *data, size_t size,
                    ArtifactPreamble *preamble) {
  if (size < kArtifactPreambleSize)
    return corrupt("file has ", size, " bytes, less than the ",
                   kArtifactPreambleSize, "-byte preamble (truncated?)");
  if (std::memcmp(data, kArtifactMagic, sizeof(kArtifactMagic)) != 0)
    return corrupt(
        "not a tcc model: the file does not start with \"TCCMODEL\"");
  preamble->formatVersion = uint32_t(readLE(data + 8, 4));
  preamble->headerSize = uint32_t(readLE(data + 12, 4));
  preamble->headerHash = readLE(data + 16, 8);
  if (preamble->formatVersion != kArtifactFormatVersion)
    return Status(TCC_STATUS_UNIMPLEMENTED,
                  cat("artifact format ", preamble->formatVersion,
                      ", this runtime reads format ", kArtifactFormatVersion,
                      preamble->formatVersion < kArtifactFormatVersion
                          ? "; recompile it with tcc compile"
                          : "; load it with a newer runtime"));
  if (readLE(data + 24, 8) != 0)
    return corrupt("preamble bytes 24..31 are not zero");
  if (preamble->headerSize < 8 || preamble->headerSize >= kMaxHeaderSize)
    return corrupt("header size ", preamble->headerSize, " is out of range");
  if (preamble->headerSize > size - kArtifactPreambleSize)
    return corrupt("header of ", preamble->headerSize, " bytes ends past the ",
                   size, "-byte file (truncated?)");
  return Status();
}

} // namespace

Status verifyArtifactBytes(const uint8_t *data, size_t size,
                           const tcc::artifact::Model **out,
                           const uint8_t *trustedKey) {
  if (reinterpret_cast<uintptr_t>(data) % 8 != 0)
    return Status(TCC_STATUS_INVALID_ARGUMENT,
                  "artifact bytes must be 8-byte aligned");
  ArtifactPreamble preamble;
  TCC_RETURN_IF_ERROR(readPreamble(data, size, &preamble));
  const uint8_t *header = data + kArtifactPreambleSize;
  if (hash64(header, preamble.headerSize) != preamble.headerHash)
    return corrupt("header hash mismatch, the header bytes are corrupt");
  if (!tcc::artifact::ModelBufferHasIdentifier(header))
    return corrupt("header identifier is \"",
                   std::string(reinterpret_cast<const char *>(header) + 4, 4),
                   "\", expected \"", tcc::artifact::ModelIdentifier(), "\"");
  flatbuffers::Verifier verifier(header, preamble.headerSize);
  if (!tcc::artifact::VerifyModelBuffer(verifier))
    return corrupt("header fails FlatBuffers verification");
  const tcc::artifact::Model *model = tcc::artifact::GetModel(header);
  if (trustedKey)
    TCC_RETURN_IF_ERROR(checkArtifactSignature(*model, data, size, trustedKey));
  detail::SegmentLayout layout;
  TCC_RETURN_IF_ERROR(
      detail::validateModel(*model, data, size, preamble.headerSize, &layout));
  TCC_RETURN_IF_ERROR(detail::checkSegmentHashes(*model, data));
  *out = model;
  return Status();
}

Status Artifact::verify(const uint8_t *trustedKey) {
  TCC_RETURN_IF_ERROR(verifyArtifactBytes(data_, size_, &model_, trustedKey));
  const auto *segments = model_->segments();
  for (uint32_t i = 0; segments && i < segments->size(); ++i) {
    const auto *s = segments->Get(i);
    if (s->kind() == tcc::artifact::SegmentKind::Constants) {
      constants_ = data_ + s->offset();
      constantBytes_ = s->size();
    }
  }
  return Status();
}

Artifact::Code Artifact::moduleCode(uint32_t module) const {
  const auto *modules = model_->code_modules();
  if (!modules || module >= modules->size())
    return Code();
  int32_t segment = modules->Get(module)->code_segment();
  if (segment < 0) // validated: otherwise a Code segment
    return Code();
  const auto *s = model_->segments()->Get(uint32_t(segment));
  return Code{data_ + s->offset(), s->size()};
}

Status Artifact::openFile(const std::string &path,
                          std::unique_ptr<Artifact> *out,
                          const tcc_allocator_t *readInto,
                          const uint8_t *trustedKey) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Status(errno == ENOENT ? TCC_STATUS_NOT_FOUND : TCC_STATUS_IO_ERROR,
                  cat(path, ": cannot open: ", std::strerror(errno)));
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    int err = errno;
    ::close(fd);
    return Status(TCC_STATUS_IO_ERROR,
                  cat(path, ": not a regular file",
                      err ? cat(" (", std::strerror(err), ")") : ""));
  }
  std::unique_ptr<Artifact> artifact(new Artifact());
  artifact->name_ = path;
  artifact->size_ = size_t(st.st_size);
  Status loaded;
  if (artifact->size_ > 0)
    loaded = readInto ? artifact->readAll(fd, *readInto) : artifact->mapAll(fd);
  ::close(fd);
  if (!loaded.ok())
    return std::move(loaded).withContext(path);
  TCC_RETURN_IF_ERROR(artifact->verify(trustedKey).withContext(path));
  *out = std::move(artifact);
  return Status();
}

Status Artifact::mapAll(int fd) {
  // A private read-only mapping: constants are used in place and pages load
  // on demand. (Another process truncating the file while it is mapped
  // would raise SIGBUS; artifacts are not expected to change in place.)
  void *p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED)
    return Status(TCC_STATUS_IO_ERROR, cat("cannot map: ", std::strerror(errno)));
  data_ = static_cast<const uint8_t *>(p);
  mapped_ = true;
  return Status();
}

Status Artifact::allocateData(const tcc_allocator_t &allocator) {
  allocator_ = allocator;
  if (!allocator_.alloc || !allocator_.free)
    return Status(TCC_STATUS_INVALID_ARGUMENT, "allocator lacks alloc/free");
  if (size_ == 0)
    return Status();
  // Aligned: FlatBuffers and the kernels read aligned scalars.
  data_ = static_cast<const uint8_t *>(
      allocator_.alloc(allocator_.self, size_, kArtifactAlignment));
  if (!data_)
    return Status(TCC_STATUS_RESOURCE_EXHAUSTED,
                  cat("cannot allocate ", size_, " bytes for the model"));
  return Status(); // the destructor frees data_ from here on
}

Status Artifact::readAll(int fd, const tcc_allocator_t &allocator) {
  TCC_RETURN_IF_ERROR(allocateData(allocator));
  auto *buffer = const_cast<uint8_t *>(data_);
  for (size_t done = 0; done < size_;) {
    ssize_t n = ::read(fd, buffer + done, size_ - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return Status(TCC_STATUS_IO_ERROR,
                    n < 0 ? cat("cannot read: ", std::strerror(errno))
                          : cat("the file ended after ", done, " of ", size_,
                                " bytes"));
    done += size_t(n);
  }
  return Status();
}

Status Artifact::fromMemory(const void *data, size_t size,
                            const tcc_allocator_t *allocator,
                            std::unique_ptr<Artifact> *out,
                            const uint8_t *trustedKey) {
  if (!data && size)
    return Status(TCC_STATUS_INVALID_ARGUMENT, "model data is NULL");
  std::unique_ptr<Artifact> artifact(new Artifact());
  artifact->name_ = "<memory>";
  artifact->size_ = size;
  // Copied: the caller keeps ownership of its bytes.
  TCC_RETURN_IF_ERROR(artifact->allocateData(
      allocator ? *allocator : tcc_allocator_system()));
  if (size > 0)
    std::memcpy(const_cast<uint8_t *>(artifact->data_), data, size);
  TCC_RETURN_IF_ERROR(
      artifact->verify(trustedKey).withContext(artifact->name_));
  *out = std::move(artifact);
  return Status();
}

Artifact::~Artifact() {
  if (!data_)
    return;
  if (mapped_)
    ::munmap(const_cast<uint8_t *>(data_), size_);
  else
    allocator_.free(allocator_.self, const_cast<uint8_t *>(data_));
}

} // namespace runtime
} // namespace tcc
