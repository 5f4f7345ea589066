//===- Subcommands.h - the tcc command's subcommands ------------*- C++ -*-===//
//
// Each subcommand is one file with one entry point; tcc.cpp lists them. A
// subcommand that needs the compiler (MLIR) lives in its own file too, so the
// runtime-only ones keep linking nothing but libtcc_runtime.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TOOLS_TCC_SUBCOMMANDS_H
#define TCC_TOOLS_TCC_SUBCOMMANDS_H

namespace tcc {
namespace tool {

// argv[0] is the subcommand's name; returns the process exit code.
using SubcommandMain = int (*)(int argc, char **argv);

struct Subcommand {
  const char *name;
  const char *summary;
  SubcommandMain main;
};

int compileMain(int argc, char **argv);
int runMain(int argc, char **argv);
int inspectMain(int argc, char **argv);
int benchMain(int argc, char **argv);
int runIrMain(int argc, char **argv);
int hostMain(int argc, char **argv);

} // namespace tool
} // namespace tcc

#endif
