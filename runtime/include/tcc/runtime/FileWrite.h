//===- FileWrite.h - writing a user's file whole or not at all --*- C++ -*-===//
//
// Every file tcc writes for a user (artifacts, .npy outputs, checkpoints)
// goes through writeFileAtomically: the bytes go to a new file beside the
// target, are flushed to disk, and replace the target by rename, so a failed
// or interrupted write leaves the old file as it was and no partial file
// under its name. A target that exists and is not a regular file (a
// terminal, a pipe, /dev/null) is written in place, since it cannot be
// replaced; a symbolic link is followed, so the file it names is replaced.
// Header-only (POSIX), so the eager library, the runtime and the tools share
// it without a link dependency.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_FILEWRITE_H
#define TCC_RUNTIME_FILEWRITE_H

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace tcc {
namespace runtime {

/// Writes all of `data` to `fd`, resuming after partial writes and signals;
/// false with errno set on failure.
inline bool writeAll(int fd, const void *data, size_t size) {
  const char *p = static_cast<const char *>(data);
  while (size > 0) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= size_t(n);
  }
  return true;
}

namespace file_write_detail {

inline std::string ioError(const std::string &path, const char *what,
                           int error) {
  return path + ": " + what + ": " + std::strerror(error);
}

inline std::string writeInPlace(const std::string &path, const void *data,
                                size_t size) {
  int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0)
    return ioError(path, "cannot open", errno);
  bool ok = writeAll(fd, data, size);
  int error = errno;
  ::close(fd);
  return ok ? std::string() : ioError(path, "write failed", error);
}

} // namespace file_write_detail

/// Writes `size` bytes at `data` to `path` as described above. Returns ""
/// or an error naming the path and the system's reason.
inline std::string writeFileAtomically(const std::string &path,
                                       const void *data, size_t size) {
  using namespace file_write_detail;
  std::string target = path;
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    char resolved[PATH_MAX];
    if (!::realpath(path.c_str(), resolved))
      return ioError(path, "cannot follow the link", errno);
    target = resolved;
  }
  if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return writeInPlace(target, data, size);

  // A new name beside the target (same file system, so rename is atomic).
  static std::atomic<unsigned> counter{0};
  std::string temp;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    temp = target + ".tmp-" + std::to_string(::getpid()) + "-" +
           std::to_string(counter++);
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST)
      return ioError(path, "cannot create", errno);
  }
  if (fd < 0)
    return ioError(path, "cannot create", EEXIST);
  bool ok = writeAll(fd, data, size) && ::fsync(fd) == 0;
  int error = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    error = errno;
  }
  if (ok && ::rename(temp.c_str(), target.c_str()) != 0) {
    ::unlink(temp.c_str());
    return ioError(path, "cannot replace", errno);
  }
  if (!ok) {
    ::unlink(temp.c_str());
    return ioError(path, "write failed", error);
  }
  return std::string();
}

/// Whether `a` and `b` name one existing file (through links, other
/// spellings or hard links): a tool refuses to write its output over one of
/// its inputs.
inline bool isSameFile(const std::string &a, const std::string &b) {
  struct stat sa, sb;
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 &&
         sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_FILEWRITE_H
