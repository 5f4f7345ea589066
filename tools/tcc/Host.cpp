//===- Host.cpp - tcc host: what this machine's CPU runs ------------------===//
//
// Prints the runtime's own answers (tcc/runtime/CpuFeatures.h), the ones the
// loader uses to accept or refuse a model, so that a refusal can be compared
// with `tcc inspect`'s list of required features.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "Json.h"
#include "Subcommands.h"

#include "tcc/runtime/CpuFeatures.h"

#include <cstdio>
#include <string>
#include <vector>

namespace tcc {
namespace tool {

namespace {

const char kHelp[] = R"(usage: tcc host [--json]

Shows what this machine's CPU runs, as the runtime decides it when it loads a
model: the architecture, each CPU feature the runtime can check (present or
absent: CPUID, with AVX and AVX-512 only where the OS saves their
registers), and the instruction set of the runtime's kernels and the eager
loops. A model loads here when its target's architecture is this one and
every feature `tcc inspect MODEL.bin` lists is present.

options:
  --json   machine-readable output with the keys arch, features (present),
           absent, isa (the best level here), active_isa (after TCC_ISA)
  --help   this text
)";

struct HostFeatures {
  std::vector<std::string> present, absent;
};

HostFeatures hostFeatures() {
  HostFeatures h;
  for (const std::string &name : runtime::knownCpuFeatures())
    (runtime::hostCpuFeature(name) == runtime::CpuFeatureState::Present
         ? h.present
         : h.absent)
        .push_back(name);
  return h;
}

std::string joined(const std::vector<std::string> &v) {
  std::string s;
  for (const std::string &name : v)
    s += " " + name;
  return s.empty() ? " none" : s;
}

} // namespace

int hostMain(int argc, char **argv) {
  const char *cmd = "host";
  CommandLine args(argc, argv);
  bool json = false;
  while (!args.done()) {
    std::string arg = args.next();
    if (arg == "--help" || arg == "-h") {
      printHelp(kHelp);
      return 0;
    }
    if (arg == "--json")
      json = true;
    else
      return fail(cmd,
                  "unexpected argument '" + arg + "' (see tcc host --help)");
  }
  HostFeatures h = hostFeatures();
  const char *isa = runtime::isaName(runtime::hostIsa());
  const char *active = runtime::isaName(runtime::activeIsa());
  if (json) {
    JsonWriter j(stdout);
    j.beginObject();
    j.key("arch");
    j.value(runtime::hostCpuArch());
    j.key("features");
    writeStringsJson(j, h.present);
    j.key("absent");
    writeStringsJson(j, h.absent);
    j.key("isa");
    j.value(isa);
    j.key("active_isa");
    j.value(active);
    j.endObject();
    j.finish();
    return 0;
  }
  std::printf("arch: %s\n", runtime::hostCpuArch());
  std::printf("features:%s\n", joined(h.present).c_str());
  std::printf("absent:%s\n", joined(h.absent).c_str());
  std::printf("kernels and eager loops: %s", isa);
  if (std::string(isa) != active)
    std::printf(" (lowered to %s by TCC_ISA)", active);
  std::printf("\n");
  return 0;
}

} // namespace tool
} // namespace tcc
