//===- tcc.cpp - the tcc command ------------------------------------------===//
//
// `tcc <subcommand> [args]`. A new subcommand is one file and one line in
// kSubcommands.
//
//===----------------------------------------------------------------------===//

#include "Subcommands.h"

#include <cstdio>
#include <cstring>

using namespace tcc::tool;

namespace {

const Subcommand kSubcommands[] = {
    {"compile", "compile a model.ir into a model.bin artifact", compileMain},
    {"run", "run a compiled model on .npy inputs", runMain},
    {"inspect", "show a compiled model's signature, plan and sizes",
     inspectMain},
    {"bench", "time a compiled model", benchMain},
    {"run-ir", "run a model.ir on .npy inputs with the reference interpreter",
     runIrMain},
    {"host", "show what this machine's CPU runs (features, kernel ISA)",
     hostMain},
};

void printUsage(FILE *out) {
  std::fprintf(out, "usage: tcc <subcommand> [options]\n\nsubcommands:\n");
  for (const Subcommand &s : kSubcommands)
    std::fprintf(out, "  %-10s %s\n", s.name, s.summary);
  std::fprintf(out, "\n'tcc <subcommand> --help' describes each one.\n");
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    printUsage(stderr);
    return 1;
  }
  const char *name = argv[1];
  if (!std::strcmp(name, "--help") || !std::strcmp(name, "-h") ||
      !std::strcmp(name, "help")) {
    printUsage(stdout);
    return 0;
  }
  for (const Subcommand &s : kSubcommands)
    if (!std::strcmp(name, s.name))
      return s.main(argc - 1, argv + 1);
  std::fprintf(stderr, "tcc: error: unknown subcommand '%s'\n\n", name);
  printUsage(stderr);
  return 1;
}
