//===- Dispatch.cpp - choosing a subcommand from argv ---------------------===//

#include "CommandLine.h"
#include "Subcommands.h"

#include <cstdio>
#include <cstring>

namespace tcc {
namespace tool {

namespace {

void printUsage(FILE *out, const char *tool, const Subcommand *table,
                size_t count) {
  std::fprintf(out, "usage: %s <subcommand> [options]\n\nsubcommands:\n", tool);
  for (size_t i = 0; i < count; ++i)
    std::fprintf(out, "  %-10s %s\n", table[i].name, table[i].summary);
  std::fprintf(out, "\n'%s <subcommand> --help' describes each one.\n", tool);
}

} // namespace

int dispatchSubcommand(const char *tool, const Subcommand *table, size_t count,
                       int argc, char **argv) {
  toolName = tool;
  if (argc < 2) {
    printUsage(stderr, tool, table, count);
    return 1;
  }
  const char *name = argv[1];
  if (!std::strcmp(name, "--help") || !std::strcmp(name, "-h") ||
      !std::strcmp(name, "help")) {
    printUsage(stdout, tool, table, count);
    return 0;
  }
  for (size_t i = 0; i < count; ++i)
    if (!std::strcmp(name, table[i].name))
      return table[i].main(argc - 1, argv + 1);
  std::fprintf(stderr, "%s: error: unknown subcommand '%s'\n\n", tool, name);
  printUsage(stderr, tool, table, count);
  return 1;
}

} // namespace tool
} // namespace tcc
