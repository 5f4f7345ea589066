//===- CodeModule.cpp - the code segment mapped as a shared object --------===//

#include "CodeModule.h"

#include "../Artifact/Checks.h"

#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/FileWrite.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U // Linux 6.3: an executable memfd under vm.memfd_noexec
#endif

namespace tcc {
namespace runtime {
namespace detail {
namespace {

Status checkElfHeader(const uint8_t *elf, size_t size) {
  ElfW(Ehdr) header;
  if (size < sizeof(header))
    return corrupt("code segment of ", size,
                   " bytes is too small for an ELF header");
  std::memcpy(&header, elf, sizeof(header));
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return corrupt("code segment is not an ELF object");
#if defined(__x86_64__)
  constexpr int kMachine = EM_X86_64;
#elif defined(__aarch64__)
  constexpr int kMachine = EM_AARCH64;
#else
  constexpr int kMachine = -1;
#endif
  if (header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != ELFDATA2LSB || header.e_type != ET_DYN ||
      header.e_machine != kMachine)
    return Status(TCC_STATUS_FAILED_PRECONDITION,
                  cat("code segment is not a 64-bit little-endian shared "
                      "object for this host (e_machine ",
                      header.e_machine, ")"));
  return Status();
}

std::string procPath(int fd) { return cat("/proc/self/fd/", fd); }

// An unlinked file in the first usable temporary directory.
int openTempFile(std::string *errors) {
  const char *dirs[] = {std::getenv("TMPDIR"), "/tmp", "/var/tmp", "/dev/shm"};
  for (const char *dir : dirs) {
    if (!dir || !*dir)
      continue;
    int fd = ::open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0700);
    if (fd >= 0)
      return fd;
    std::string name = cat(dir, "/tcc-code-XXXXXX");
    fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd >= 0) {
      ::unlink(name.c_str());
      return fd;
    }
    *errors += cat("; ", dir, ": ", std::strerror(errno));
  }
  return -1;
}

struct WritableQuery {
  uintptr_t begin, end;
  const struct link_map *map;
  bool found = false, writable = false;
};

// Whether [begin, end) lies in a writable PT_LOAD of `map`'s object and
// outside its PT_GNU_RELRO range (made read-only after relocation).
int findWritable(struct dl_phdr_info *info, size_t, void *data) {
  auto *q = static_cast<WritableQuery *>(data);
  if (info->dlpi_addr != q->map->l_addr ||
      std::strcmp(info->dlpi_name, q->map->l_name) != 0)
    return 0;
  q->found = true;
  bool inWritableLoad = false, inRelro = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
    bool covers = q->begin >= lo && q->end <= hi;
    bool overlaps = q->begin < hi && q->end > lo;
    if (ph.p_type == PT_LOAD && (ph.p_flags & PF_W) && covers)
      inWritableLoad = true;
    if (ph.p_type == PT_GNU_RELRO && overlaps)
      inRelro = true;
  }
  q->writable = inWritableLoad && !inRelro;
  return 1;
}

} // namespace

Status CodeModule::open(int fd, const uint8_t *elf, size_t size,
                        std::unique_ptr<CodeModule> *out) {
  std::unique_ptr<CodeModule> module(new CodeModule());
  module->fd_ = fd;
  if (!writeAll(fd, elf, size))
    return Status(TCC_STATUS_IO_ERROR,
                  cat("cannot write the code: ", std::strerror(errno)));
  std::string path = procPath(fd);
  module->handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!module->handle_) {
    const char *err = ::dlerror();
    return Status(TCC_STATUS_FAILED_PRECONDITION,
                  cat("dlopen failed: ", err ? err : "unknown error"));
  }
  *out = std::move(module);
  return Status();
}

Status CodeModule::load(const uint8_t *elf, size_t size, bool forceTempFile,
                        std::unique_ptr<CodeModule> *out) {
  TCC_RETURN_IF_ERROR(checkElfHeader(elf, size));
  std::string errors;
  if (!forceTempFile) {
    int fd = ::memfd_create("tcc-model-code", MFD_CLOEXEC | MFD_EXEC);
    if (fd < 0 && errno == EINVAL) // kernel before 6.3, or MFD_EXEC refused
      fd = ::memfd_create("tcc-model-code", MFD_CLOEXEC);
    if (fd < 0) {
      errors = cat("memfd_create: ", std::strerror(errno));
    } else {
      Status status = open(fd, elf, size, out);
      if (status.ok())
        return status;
      errors = cat("memfd: ", status.message());
    }
  }
  int fd = openTempFile(&errors);
  if (fd < 0)
    return Status(TCC_STATUS_IO_ERROR,
                  cat("cannot map the code (", errors,
                      "; no temporary directory is writable)"));
  Status status = open(fd, elf, size, out);
  if (!status.ok())
    return Status(status.code(),
                  cat("cannot map the code (",
                      errors.empty() ? "" : errors + "; ",
                      "temporary file: ", status.message(), ")"));
  (*out)->fromTempFile_ = true;
  return Status();
}

CodeModule::~CodeModule() {
  // dlclose before close: while the object is loaded its /proc name must not
  // be reused.
  if (handle_)
    ::dlclose(handle_);
  if (fd_ >= 0)
    ::close(fd_);
}

Status CodeModule::resolve(const std::string &symbol, void **out) const {
  ::dlerror();
  void *address = ::dlsym(handle_, symbol.c_str());
  struct link_map *self = nullptr, *owner = nullptr;
  Dl_info info;
  if (!address || ::dlinfo(handle_, RTLD_DI_LINKMAP, &self) != 0 ||
      !::dladdr1(address, &info, reinterpret_cast<void **>(&owner),
                 RTLD_DL_LINKMAP) ||
      owner != self)
    return Status(TCC_STATUS_NOT_FOUND,
                  cat("the code does not define symbol '", symbol, "'"));
  *out = address;
  return Status();
}

Status CodeModule::fillImportTable(const std::vector<void *> &entries) const {
  void *address;
  TCC_RETURN_IF_ERROR(resolve(kImportTableSymbol, &address));
  Dl_info info;
  ElfW(Sym) *sym = nullptr;
  if (!::dladdr1(address, &info, reinterpret_cast<void **>(&sym),
                 RTLD_DL_SYMENT) ||
      !sym)
    return corrupt("cannot read the size of '", kImportTableSymbol, "'");
  size_t needed = entries.size() * sizeof(void *);
  if (ELF64_ST_TYPE(sym->st_info) != STT_OBJECT || sym->st_size < needed)
    return corrupt("'", kImportTableSymbol, "' is not an array of ",
                   entries.size(), " pointers (", sym->st_size, " bytes)");
  struct link_map *self = nullptr;
  ::dlinfo(handle_, RTLD_DI_LINKMAP, &self);
  WritableQuery query{reinterpret_cast<uintptr_t>(address),
                      reinterpret_cast<uintptr_t>(address) + needed, self};
  ::dl_iterate_phdr(findWritable, &query);
  if (!query.writable)
    return corrupt("'", kImportTableSymbol, "' is not in writable memory");
  std::memcpy(address, entries.data(), needed);
  return Status();
}

} // namespace detail
} // namespace runtime
} // namespace tcc
