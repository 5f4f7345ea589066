//===- FileWriteTest.cpp - a user's file is written whole or not at all ---===//

#include "TestStatus.h"

#include "tcc/runtime/FileWrite.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace tcc::runtime;

namespace {

/// A fresh directory, removed with what is in it.
struct TempDir {
  std::string path;
  TempDir() {
    char name[] = "/tmp/tcc-filewrite-XXXXXX";
    path = ::mkdtemp(name);
  }
  ~TempDir() { std::system(("rm -rf " + path).c_str()); }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    DIR *dir = ::opendir(path.c_str());
    while (dirent *e = dir ? ::readdir(dir) : nullptr)
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
        names.push_back(e->d_name);
    if (dir)
      ::closedir(dir);
    return names;
  }
};

std::string contents(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Status write(const std::string &path, const std::string &text) {
  std::string error = writeFileAtomically(path, text.data(), text.size());
  return error.empty() ? Status() : Status(TCC_STATUS_IO_ERROR, error);
}

} // namespace

TEST(FileWrite, CreatesAndReplacesLeavingNothingElse) {
  TempDir dir;
  std::string file = dir.path + "/model.bin";
  EXPECT_TCC_OK(write(file, "first"));
  EXPECT_EQ(contents(file), "first");
  EXPECT_TCC_OK(write(file, "second, longer"));
  EXPECT_EQ(contents(file), "second, longer");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"model.bin"});
}

TEST(FileWrite, AFailedWriteKeepsTheOldFile) {
  // The file size limit makes the write fail part of the way through, as a
  // full disk would.
  TempDir dir;
  std::string file = dir.path + "/model.bin";
  ASSERT_TCC_OK(write(file, "the old model"));
  struct rlimit saved;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  struct rlimit small = saved;
  small.rlim_cur = 100;
  auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  Status s = write(file, std::string(4096, 'x'));
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, oldHandler);
  EXPECT_TCC_ERROR(std::move(s), TCC_STATUS_IO_ERROR,
                   file + ": write failed: ");
  EXPECT_EQ(contents(file), "the old model");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"model.bin"});
}

TEST(FileWrite, ErrorsNameThePath) {
  TempDir dir;
  std::string missing = dir.path + "/no/such/dir/model.bin";
  EXPECT_TCC_ERROR(write(missing, "x"), TCC_STATUS_IO_ERROR,
                   missing + ": cannot create: ");
  // A directory is not replaced by a file.
  EXPECT_TCC_ERROR(write(dir.path, "x"), TCC_STATUS_IO_ERROR,
                   dir.path + ": cannot open: ");
  struct stat st;
  ASSERT_EQ(::stat(dir.path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
}

TEST(FileWrite, LinksAreFollowedAndDevicesWrittenInPlace) {
  TempDir dir;
  std::string file = dir.path + "/weights.bin";
  std::string link = dir.path + "/latest.bin";
  ASSERT_TCC_OK(write(file, "v1"));
  ASSERT_EQ(::symlink(file.c_str(), link.c_str()), 0);
  EXPECT_TCC_OK(write(link, "v2"));
  struct stat st;
  ASSERT_EQ(::lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link itself was replaced";
  EXPECT_EQ(contents(file), "v2");

  EXPECT_TCC_OK(write("/dev/null", "discarded"));
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}
