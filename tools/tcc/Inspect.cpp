//===- Inspect.cpp - tcc inspect: what a compiled model holds -------------===//
//
// Reads the artifact with every structural check (no code is mapped and the
// host CPU is not required), then prints its signature, plan and sizes as
// text or JSON.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "Json.h"
#include "ModelIO.h"
#include "Subcommands.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/Signing.h"
#include "tcc/runtime/StepKinds.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>

namespace tcc {
namespace tool {

using namespace tcc::artifact;

namespace {

/// The layer a source op belongs to when `tcc quantize` made it int8: its
/// location is loc("NAME int8"...) (docs/quantization.md).
std::string int8LayerOf(const std::string &op) {
  const std::string open = "loc(\"", suffix = " int8\"";
  size_t begin = op.find(open);
  if (begin == std::string::npos)
    return "";
  begin += open.size();
  size_t end = op.find(suffix, begin);
  if (end == std::string::npos || op.find('"', begin) != end + 5)
    return "";
  return op.substr(begin, end - begin);
}

const char kHelp[] = R"(usage: tcc inspect MODEL.bin [--json] [--public-key FILE]

Verifies MODEL.bin (structure, sizes, hashes; no code is run) and shows its
inputs and outputs, the execution plan (one entry per step, with the source
ops each computes), the memory plan, the sizes of its parts and whether it
is signed, by which public key (64 hex digits). For a model `tcc quantize`
made, the layers that run in int8 (their ops' loc("NAME int8")).

options:
  --json   machine-readable output with the keys inputs, outputs, kernels,
           buffers, arena_bytes, intermediate_bytes (all arena buffers
           without reuse), constant_bytes, code_bytes, file_bytes,
           target, cpu, cpu_features, imports (those of code module 0),
           code_modules, memory_spaces, version, format_version,
           runs_on_host, signed_by (the public key in hex; "" unsigned),
           signature_checked
  --public-key FILE
           refuse the model unless it is signed by this 32-byte Ed25519
           public key (tcc compile --sign); the signature is checked
  --help   this text
)";

std::vector<int64_t> shapeOf(const flatbuffers::Vector<int64_t> *shape) {
  return shape ? std::vector<int64_t>(shape->begin(), shape->end())
               : std::vector<int64_t>();
}

std::string tensorText(DType dtype, const flatbuffers::Vector<int64_t> *shape) {
  return describeTensor(tcc_dtype_t(dtype), shapeOf(shape));
}

std::string str(const flatbuffers::String *s) { return s ? s->str() : ""; }

std::vector<std::string> strings(
    const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>> *v) {
  std::vector<std::string> out;
  for (uint32_t i = 0; v && i < v->size(); ++i)
    out.push_back(v->Get(i)->str());
  return out;
}

uint32_t moduleCount(const Model &m) {
  return m.code_modules() ? m.code_modules()->size() : 0;
}

/// A CPU module's triple, CPU and features, or another kind's name and
/// architecture.
std::string targetText(const CodeModule &module) {
  if (const CudaCode *cuda = module.cuda()) {
    // "cuda sm_80 (ptx, cubin), sm_90 (ptx)"
    std::string text = str(module.kind());
    std::string arch;
    for (uint32_t i = 0; cuda->images() && i < cuda->images()->size(); ++i) {
      const CudaImage *image = cuda->images()->Get(i);
      bool same = image->arch()->str() == arch;
      arch = image->arch()->str();
      text += same ? ", " : (i ? "), " : " ") + arch + " (";
      text += image->format() == CudaImageFormat::Cubin ? "cubin" : "ptx";
    }
    return text + (arch.empty() ? "" : ")");
  }
  if (str(module.kind()) != runtime::kCpuModuleKind)
    return str(module.kind()) + " " + str(module.gpu_arch());
  if (!module.target_triple() || module.target_triple()->size() == 0)
    return "host (no code)";
  std::string features;
  for (const std::string &f : strings(module.cpu_features()))
    features += " " + f;
  return str(module.target_triple()) + ", cpu " + str(module.cpu()) +
         ", features:" + (features.empty() ? " none" : features);
}

/// The bytes of module `index`'s code: its code segment's, or its images'.
uint64_t moduleCodeBytes(const runtime::Artifact &a, uint32_t index) {
  uint64_t total = a.moduleCode(index).size;
  const CudaCode *cuda = a.model().code_modules()->Get(index)->cuda();
  for (uint32_t i = 0; cuda && cuda->images() && i < cuda->images()->size();
       ++i)
    total += a.model().segments()->Get(cuda->images()->Get(i)->segment())
                 ->size();
  return total;
}

uint64_t codeBytes(const runtime::Artifact &a) {
  uint64_t total = 0;
  for (uint32_t i = 0; i < moduleCount(a.model()); ++i)
    total += moduleCodeBytes(a, i);
  return total;
}

uint64_t arenaBytes(const Model &m) {
  uint64_t total = 0;
  for (uint32_t i = 0; m.memory_spaces() && i < m.memory_spaces()->size(); ++i)
    total += m.memory_spaces()->Get(i)->arena_bytes();
  return total;
}

/// The bytes of every arena buffer together: what the intermediate tensors
/// would take without the memory plan's reuse.
uint64_t intermediateBytes(const Model &m) {
  uint64_t total = 0;
  for (uint32_t i = 0; m.buffers() && i < m.buffers()->size(); ++i)
    if (m.buffers()->Get(i)->storage() == Storage::Arena)
      total += m.buffers()->Get(i)->byte_size();
  return total;
}

const char *storageName(Storage s) {
  switch (s) {
  case Storage::Arena:
    return "arena";
  case Storage::Constant:
    return "constant";
  case Storage::Input:
    return "input";
  case Storage::Output:
    return "output";
  }
  return "?";
}

void writeTensorsJson(
    JsonWriter &j,
    const flatbuffers::Vector<flatbuffers::Offset<TensorSpec>> *specs) {
  j.beginArray();
  for (uint32_t i = 0; specs && i < specs->size(); ++i) {
    const TensorSpec *t = specs->Get(i);
    j.beginObject();
    j.key("name");
    j.value(t->name()->str());
    j.key("dtype");
    j.value(tcc_dtype_name(tcc_dtype_t(t->dtype())));
    j.key("shape");
    j.beginInlineArray();
    for (int64_t d : shapeOf(t->shape()))
      j.value(d);
    j.endArray();
    j.endObject();
  }
  j.endArray();
}

/// A step as its kind describes it (tcc/runtime/StepKinds.h): index, kind,
/// the kind's own fields, source ops, and where it runs.
void writeStepJson(JsonWriter &j, const Model &m, uint32_t index) {
  runtime::StepDescription step = runtime::describeStep(m, index);
  j.beginObject();
  j.key("index");
  j.value(uint64_t(index));
  j.key("op");
  j.value(step.kind);
  for (const runtime::StepField &field : step.fields) {
    j.key(field.key);
    switch (field.type) {
    case runtime::StepField::Type::Int:
      j.value(field.number);
      break;
    case runtime::StepField::Type::Bool:
      j.value(field.number != 0);
      break;
    case runtime::StepField::Type::String:
      j.value(field.text);
      break;
    case runtime::StepField::Type::IntList:
      j.beginInlineArray();
      for (int64_t v : field.list)
        j.value(v);
      j.endArray();
      break;
    }
  }
  j.key("source_ops");
  writeStringsJson(j, step.sourceOps);
  j.key("code_module");
  j.value(uint64_t(m.plan()->Get(index)->code_module()));
  if (const KernelCall *call = m.plan()->Get(index)->op_as_KernelCall())
    if (const auto *launches = m.kernels()->Get(call->kernel())->gpu_launches()) {
      // A GPU kernel's launches: the PTX function, grid and block sizes,
      // and the call's bindings that are its parameters.
      j.key("gpu_launches");
      j.beginArray();
      for (const GpuLaunch *launch : *launches) {
        j.beginObject();
        j.key("function");
        j.value(str(launch->function()));
        for (auto [key, values] : {std::pair("grid", launch->grid()),
                                   std::pair("block", launch->block()),
                                   std::pair("args", launch->args())}) {
          j.key(key);
          j.beginInlineArray();
          for (uint32_t k = 0; values && k < values->size(); ++k)
            j.value(uint64_t(values->Get(k)));
          j.endArray();
        }
        j.key("shared_bytes");
        j.value(uint64_t(launch->shared_bytes()));
        j.endObject();
      }
      j.endArray();
    }
  j.endObject();
}

void writeModulesJson(JsonWriter &j, const runtime::Artifact &a) {
  const Model &m = a.model();
  j.beginArray();
  for (uint32_t i = 0; i < moduleCount(m); ++i) {
    const CodeModule *module = m.code_modules()->Get(i);
    j.beginObject();
    for (auto [k, v] : {std::pair("kind", module->kind()),
                        std::pair("target", module->target_triple()),
                        std::pair("cpu", module->cpu()),
                        std::pair("gpu_arch", module->gpu_arch())}) {
      j.key(k);
      j.value(str(v));
    }
    j.key("cpu_features");
    writeStringsJson(j, strings(module->cpu_features()));
    j.key("imports");
    writeStringsJson(j, strings(module->imports()));
    j.key("code_bytes");
    j.value(moduleCodeBytes(a, i));
    if (const CudaCode *cuda = module->cuda()) {
      // Where each image lies in the file, for tools that extract them.
      j.key("images");
      j.beginArray();
      for (uint32_t k = 0; cuda->images() && k < cuda->images()->size(); ++k) {
        const CudaImage *image = cuda->images()->Get(k);
        const Segment *segment = m.segments()->Get(image->segment());
        j.beginObject();
        j.key("arch");
        j.value(str(image->arch()));
        j.key("format");
        j.value(std::string(
            image->format() == CudaImageFormat::Cubin ? "cubin" : "ptx"));
        j.key("offset");
        j.value(uint64_t(segment->offset()));
        j.key("bytes");
        j.value(uint64_t(segment->size()));
        j.endObject();
      }
      j.endArray();
    }
    j.endObject();
  }
  j.endArray();
}

void writeSpacesJson(JsonWriter &j, const Model &m) {
  j.beginArray();
  for (uint32_t i = 0; m.memory_spaces() && i < m.memory_spaces()->size();
       ++i) {
    const MemorySpace *space = m.memory_spaces()->Get(i);
    j.beginObject();
    j.key("kind");
    j.value(space->kind() == MemoryKind::Host ? "host" : "device");
    if (space->kind() != MemoryKind::Host) {
      j.key("code_module");
      j.value(uint64_t(space->code_module()));
    }
    j.key("arena_bytes");
    j.value(uint64_t(space->arena_bytes()));
    j.endObject();
  }
  j.endArray();
}

// The signer's public key in hex, "" when unsigned (the validator checked
// the table's sizes).
std::string signer(const Model &m) {
  return m.signature() ? runtime::publicKeyHex(m.signature()->public_key()->Data())
                       : "";
}

void printJson(const runtime::Artifact &a, const runtime::Status &host,
               bool checked) {
  const Model &m = a.model();
  JsonWriter j(stdout);
  j.beginObject();
  j.key("signed_by");
  j.value(signer(m));
  j.key("signature_checked");
  j.value(checked);
  j.key("version");
  j.value(m.tcc_version() ? m.tcc_version()->str() : "");
  j.key("format_version");
  j.value(uint64_t(m.format_version()));
  const CodeModule *first = moduleCount(m) ? m.code_modules()->Get(0) : nullptr;
  j.key("target");
  j.value(first ? str(first->target_triple()) : "");
  j.key("cpu");
  j.value(first ? str(first->cpu()) : "");
  j.key("cpu_features");
  writeStringsJson(j, strings(first ? first->cpu_features() : nullptr));
  j.key("code_modules");
  writeModulesJson(j, a);
  j.key("memory_spaces");
  writeSpacesJson(j, m);
  j.key("runs_on_host");
  j.value(host.ok());
  j.key("inputs");
  writeTensorsJson(j, m.inputs());
  j.key("outputs");
  writeTensorsJson(j, m.outputs());
  j.key("kernels");
  j.beginArray();
  for (uint32_t i = 0; m.plan() && i < m.plan()->size(); ++i)
    writeStepJson(j, m, i);
  j.endArray();
  j.key("buffers");
  j.beginArray();
  for (uint32_t i = 0; m.buffers() && i < m.buffers()->size(); ++i) {
    const Buffer *b = m.buffers()->Get(i);
    j.beginObject();
    j.key("dtype");
    j.value(tcc_dtype_name(tcc_dtype_t(b->dtype())));
    j.key("shape");
    j.beginInlineArray();
    for (int64_t d : shapeOf(b->shape()))
      j.value(d);
    j.endArray();
    j.key("storage");
    j.value(storageName(b->storage()));
    // Inputs and outputs by index; a view into one (a slice a matmul reads
    // in place) also has its byte offset there.
    const bool bound =
        b->storage() == Storage::Input || b->storage() == Storage::Output;
    if (bound) {
      j.key("index");
      j.value(uint64_t(b->index()));
    }
    if (!bound || b->offset() != 0) {
      j.key("offset");
      j.value(uint64_t(b->offset()));
    }
    j.key("byte_size");
    j.value(uint64_t(b->byte_size()));
    if (b->space() != 0) {
      j.key("space");
      j.value(uint64_t(b->space()));
    }
    j.endObject();
  }
  j.endArray();
  j.key("imports");
  writeStringsJson(j, strings(first ? first->imports() : nullptr));
  j.key("arena_bytes");
  j.value(arenaBytes(m));
  j.key("intermediate_bytes");
  j.value(intermediateBytes(m));
  j.key("constant_bytes");
  j.value(uint64_t(a.constantBytes()));
  j.key("code_bytes");
  j.value(codeBytes(a));
  j.key("file_bytes");
  j.value(uint64_t(a.fileSize()));
  j.endObject();
  j.finish();
}

void printText(const runtime::Artifact &a, const runtime::Status &host,
               bool checked) {
  const Model &m = a.model();
  std::printf("%s: tcc model, format %u, tcc %s\n", a.name().c_str(),
              m.format_version(), str(m.tcc_version()).c_str());
  // One target line per code module, numbered when there are several.
  for (uint32_t i = 0; i < moduleCount(m); ++i)
    std::printf("target%s: %s\n",
                moduleCount(m) > 1 ? (" " + std::to_string(i)).c_str() : "",
                targetText(*m.code_modules()->Get(i)).c_str());
  std::printf("runs on this host: %s\n",
              host.ok() ? "yes" : ("no (" + host.message() + ")").c_str());
  if (m.signature())
    std::printf("signed: by ed25519 public key %s (%s)\n", signer(m).c_str(),
                checked ? "checked against --public-key"
                        : "not checked, no --public-key given");
  else
    std::printf("signed: no\n");
  for (auto [title, specs] :
       {std::pair("inputs", m.inputs()), std::pair("outputs", m.outputs())}) {
    std::printf("%s:\n", title);
    for (uint32_t i = 0; specs && i < specs->size(); ++i)
      std::printf(
          "  %u %s: %s\n", i, specs->Get(i)->name()->c_str(),
          tensorText(specs->Get(i)->dtype(), specs->Get(i)->shape()).c_str());
  }
  uint32_t steps = m.plan() ? m.plan()->size() : 0;
  std::printf("plan: %u step%s\n", steps, steps == 1 ? "" : "s");
  std::vector<std::string> int8Layers;
  for (uint32_t i = 0; i < steps; ++i) {
    runtime::StepDescription step = runtime::describeStep(m, i);
    std::printf("  %u %s\n", i, step.summary.c_str());
    for (const std::string &op : step.sourceOps) {
      std::printf("      %s\n", op.c_str());
      std::string layer = int8LayerOf(op);
      if (!layer.empty() && std::find(int8Layers.begin(), int8Layers.end(),
                                      layer) == int8Layers.end())
        int8Layers.push_back(layer);
    }
  }
  if (!int8Layers.empty()) {
    std::string names;
    for (const std::string &layer : int8Layers)
      names += (names.empty() ? "" : ", ") + layer;
    std::printf("int8 layers (tcc quantize): %s\n", names.c_str());
  }
  for (uint32_t i = 0; i < moduleCount(m); ++i) {
    std::string imports;
    for (const std::string &s : strings(m.code_modules()->Get(i)->imports()))
      imports += " " + s;
    if (!imports.empty())
      std::printf("imports%s:%s\n",
                  moduleCount(m) > 1 ? (" " + std::to_string(i)).c_str() : "",
                  imports.c_str());
  }
  std::printf("memory: arena %llu bytes for %llu bytes of intermediate "
              "tensors, %u buffers\n",
              (unsigned long long)arenaBytes(m),
              (unsigned long long)intermediateBytes(m),
              m.buffers() ? m.buffers()->size() : 0);
  // The spaces one by one once there is more than the host arena.
  uint32_t spaces = m.memory_spaces() ? m.memory_spaces()->size() : 0;
  for (uint32_t i = 0; spaces > 1 && i < spaces; ++i) {
    const MemorySpace *space = m.memory_spaces()->Get(i);
    std::printf("  space %u: %s, arena %llu bytes\n", i,
                space->kind() == MemoryKind::Host
                    ? "host"
                    : ("device of module " +
                       std::to_string(space->code_module()))
                          .c_str(),
                (unsigned long long)space->arena_bytes());
  }
  std::printf("sizes: constants %llu bytes, code %llu bytes, file %llu bytes\n",
              (unsigned long long)a.constantBytes(),
              (unsigned long long)codeBytes(a),
              (unsigned long long)a.fileSize());
}

} // namespace

int inspectMain(int argc, char **argv) {
  const char *cmd = "inspect";
  CommandLine args(argc, argv);
  std::string path, value, error, publicKeyPath;
  bool json = false;
  while (!args.done()) {
    std::string arg = args.next();
    if (arg == "--help" || arg == "-h") {
      printHelp(kHelp);
      return 0;
    }
    if (arg == "--json") {
      json = true;
    } else if (args.option(arg, "--public-key", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      publicKeyPath = value;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return fail(cmd, "unknown option '" + arg + "' (see tcc inspect --help)");
    } else if (path.empty()) {
      path = arg;
    } else {
      return fail(cmd, "unexpected argument '" + arg + "'");
    }
  }
  if (path.empty())
    return fail(cmd, "no model given (usage: tcc inspect MODEL.bin [--json])");
  TrustedKey trusted;
  std::unique_ptr<runtime::Artifact> artifact;
  runtime::Status s = readTrustedKey(publicKeyPath, &trusted);
  if (s.ok())
    s = runtime::Artifact::openFile(path, &artifact, nullptr, trusted.data());
  if (!s.ok())
    return fail(cmd, s.message());
  runtime::Status host = runtime::checkModelRunsHere(artifact->model());
  if (json)
    printJson(*artifact, host, trusted.given);
  else
    printText(*artifact, host, trusted.given);
  return 0;
}

} // namespace tool
} // namespace tcc
