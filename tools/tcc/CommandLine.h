//===- CommandLine.h - argument helpers for tcc subcommands -----*- C++ -*-===//

#ifndef TCC_TOOLS_TCC_COMMANDLINE_H
#define TCC_TOOLS_TCC_COMMANDLINE_H

#include "tcc/runtime/tcc_runtime.h"

#include <cstdint>
#include <string>

namespace tcc {
namespace tool {

// Walks argv of one subcommand, reporting errors as "tcc <cmd>: error: ...".
class CommandLine {
public:
  CommandLine(int argc, char **argv) : argc_(argc), argv_(argv) {}

  bool done() const { return i_ >= argc_; }
  // The current argument, then moves past it.
  std::string next() { return argv_[i_++]; }

  // True when `arg` is `--name=value` or `--name` followed by a value; sets
  // *value. A `--name` without a value sets *error.
  bool option(const std::string &arg, const char *name, std::string *value,
              std::string *error);

  // Parses a positive count for `name`, at most `max`, or sets *error.
  static bool parsePositive(const std::string &text, const char *name,
                            int64_t *out, std::string *error,
                            int64_t max = INT64_MAX);

  // The limits on counts the runtime verbs take.
  static constexpr int64_t kMaxIterations = 10'000'000;

private:
  int argc_;
  char **argv_;
  int i_ = 1; // argv[0] is the subcommand
};

// The tool running: "tcc" or "tcc-run" (set by dispatchSubcommand).
extern const char *toolName;

// Prints "<tool> <cmd>: error: <message>" to stderr and returns 1.
int fail(const char *cmd, const std::string &message);

// Prints a subcommand's help text (which begins "usage: tcc ...") to stdout,
// naming the tool that runs.
void printHelp(const char *help);

} // namespace tool
} // namespace tcc

#endif
