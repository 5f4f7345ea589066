//===- tcc-run.cpp - the runtime-only tool --------------------------------===//
//
// `tcc-run <subcommand> [args]`: the subcommands that need nothing but
// libtcc_runtime, for machines that run models but do not compile them (it
// is installed with the runtime package). `tcc` has the same ones and more.
//
//===----------------------------------------------------------------------===//

#include "Subcommands.h"

#include <iterator>

using namespace tcc::tool;

namespace {

const Subcommand kSubcommands[] = {
    {"run", "run a compiled model on .npy inputs", runMain},
    {"inspect", "show a compiled model's signature, plan and sizes",
     inspectMain},
    {"bench", "time a compiled model", runtimeBenchMain},
    {"host", "show what this machine's CPU runs (features, kernel ISA)",
     hostMain},
};

} // namespace

int main(int argc, char **argv) {
  return dispatchSubcommand("tcc-run", kSubcommands, std::size(kSubcommands),
                            argc, argv);
}
