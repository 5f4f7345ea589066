//===- Subcommands.h - the tcc command's subcommands ------------*- C++ -*-===//
//
// Each subcommand is one file with one entry point. tcc.cpp lists them all
// for `tcc`; tcc-run.cpp lists the runtime-only ones (run, inspect, bench,
// host) for `tcc-run`, which links nothing but libtcc_runtime. A subcommand
// that needs the compiler (MLIR) or the eager library lives in its own file.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TOOLS_TCC_SUBCOMMANDS_H
#define TCC_TOOLS_TCC_SUBCOMMANDS_H

#include <cstddef>

namespace tcc {
namespace tool {

// argv[0] is the subcommand's name; returns the process exit code.
using SubcommandMain = int (*)(int argc, char **argv);

struct Subcommand {
  const char *name;
  const char *summary;
  SubcommandMain main;
};

/// Runs the subcommand that argv[1] names from `table` (or prints `tool`'s
/// usage); returns the process exit code.
int dispatchSubcommand(const char *tool, const Subcommand *table,
                       size_t count, int argc, char **argv);

int compileMain(int argc, char **argv);
int importMain(int argc, char **argv);
int quantizeMain(int argc, char **argv);
int runMain(int argc, char **argv);
int inspectMain(int argc, char **argv);
int benchMain(int argc, char **argv);
int runIrMain(int argc, char **argv);
int hostMain(int argc, char **argv);
int vizMain(int argc, char **argv);
// bench without --against-ir (the runtime-only tool's).
int runtimeBenchMain(int argc, char **argv);

} // namespace tool
} // namespace tcc

#endif
