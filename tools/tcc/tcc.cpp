//===- tcc.cpp - the tcc command ------------------------------------------===//
//
// `tcc <subcommand> [args]`. A new subcommand is one file and one line in
// kSubcommands (and in tcc-run.cpp's, if it needs only the runtime).
//
//===----------------------------------------------------------------------===//

#include "Subcommands.h"

#include <iterator>

using namespace tcc::tool;

namespace {

const Subcommand kSubcommands[] = {
    {"compile", "compile a model.ir (or model.onnx) into a model.bin artifact",
     compileMain},
    {"import", "import an ONNX model into a model.ir", importMain},
    {"quantize", "calibrate a model.ir and rewrite it to int8 (accuracy budget)",
     quantizeMain},
    {"run", "run a compiled model on .npy inputs", runMain},
    {"inspect", "show a compiled model's signature, plan and sizes",
     inspectMain},
    {"bench", "time a compiled model", benchMain},
    {"run-ir", "run a model.ir on .npy inputs with the reference interpreter",
     runIrMain},
    {"host", "show what this machine's CPU runs (features, kernel ISA)",
     hostMain},
    {"viz", "draw a model.ir's graph (SVG through Graphviz, or DOT)", vizMain},
};

} // namespace

int main(int argc, char **argv) {
  return dispatchSubcommand("tcc", kSubcommands, std::size(kSubcommands), argc,
                            argv);
}
