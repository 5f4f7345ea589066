//===- CommandLine.cpp - argument helpers for tcc subcommands -------------===//

#include "CommandLine.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tcc {
namespace tool {

bool CommandLine::option(const std::string &arg, const char *name,
                         std::string *value, std::string *error) {
  size_t n = std::strlen(name);
  if (arg.compare(0, n, name) != 0)
    return false;
  if (arg.size() > n && arg[n] == '=') {
    *value = arg.substr(n + 1);
    return true;
  }
  if (arg.size() != n)
    return false;
  if (done()) {
    *error = std::string(name) + " needs a value";
    return true;
  }
  *value = next();
  return true;
}

bool CommandLine::parsePositive(const std::string &text, const char *name,
                                int64_t *out, std::string *error,
                                int64_t max) {
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || v < 1) {
    *error = std::string(name) + " '" + text + "' is not a positive integer";
    return false;
  }
  if (v > max) {
    *error = std::string(name) + " " + text + " is more than " +
             std::to_string(max);
    return false;
  }
  *out = v;
  return true;
}

const char *toolName = "tcc";

int fail(const char *cmd, const std::string &message) {
  std::fprintf(stderr, "%s %s: error: %s\n", toolName, cmd, message.c_str());
  return 1;
}

void printHelp(const char *help) {
  // Help texts are written for `tcc`; the runtime-only tool names itself.
  const char *prefix = "usage: tcc ";
  size_t n = std::strlen(prefix);
  if (std::strncmp(help, prefix, n) == 0) {
    std::printf("usage: %s ", toolName);
    help += n;
  }
  std::fputs(help, stdout);
}

} // namespace tool
} // namespace tcc
