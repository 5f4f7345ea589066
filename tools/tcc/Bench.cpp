//===- Bench.cpp - tcc bench: latency and throughput of a model -----------===//

#include "Bench.h"
#include "CommandLine.h"
#include "Json.h"
#include "ModelIO.h"
#include "Subcommands.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/FileWrite.h"
#include "tcc/runtime/StepKinds.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

namespace tcc {
namespace tool {

namespace {

// The help text states these limits in words.
static_assert(TCC_MAX_THREADS == 1024, "update kHelp's --threads limit");
static_assert(CommandLine::kMaxIterations == 10'000'000,
              "update kHelp's --iterations and --warmup limits");

const char kHelp[] =
    R"(usage: tcc bench MODEL.bin [--threads N] [--device NAME] [--iterations K]
                 [--warmup W]
                 [--input [NAME=]X.npy ...] [--against-ir MODEL.ir]
                 [--evict MIB] [--compare OTHER.bin] [--profile]
                 [--trace OUT.json] [--json] [--public-key FILE]

Runs MODEL.bin K times on one session after W warm-up runs and reports the
latency distribution (min, median, p90, p99, max, mean) and the throughput.
Inputs are seeded random values unless --input files are given (then every
input needs one). With --against-ir, the reference interpreter (the eager
library's kernels, op by op: what the model costs without compiling) runs
MODEL.ir on the same inputs the same number of times, and the report adds
its latency and the compiled model's speed-up over it. With --profile, K
more runs time every step of the execution plan and the report lists the
steps that take longest (what each computes, its share of the run).
With --trace, K more runs (the same ones as --profile's, when both are
given) record every plan step, and OUT.json receives them as a
Chrome/Perfetto trace (Trace Event Format: one event per step per run with
its kind, source ops, FLOPs or bytes, and thread; open it in
https://ui.perfetto.dev or chrome://tracing).
With --evict, each run (timed and profiled alike) follows a write of MIB
mebibytes of scratch memory, untimed, so that the weights and buffers start
outside the caches, as when the model runs among other work. With
--compare, OTHER.bin (a model with the same inputs, e.g. the same IR
compiled another way) runs on the same inputs and pool in alternation with
MODEL.bin, each iteration timing both (in turns first), so that a machine
whose speed drifts slows both alike; the report adds its latency, the ratio
of the medians and in how many iterations it was the faster.

options:
  --threads N        intra-op threads (default 1, at most 1024)
  --device NAME      the device to run on: cpu (default) or a plugin such
                     as cuda; fails, saying why, where it cannot be opened
  --iterations K     timed runs (default 100, at most 10000000)
  --warmup W         untimed runs first (default 10, at most 10000000)
  --input [NAME=]F   an input from a .npy file (repeat for each)
  --against-ir F     also time the interpreter on F (the model's tcc IR;
                     `tcc bench` only, not the runtime-only `tcc-run`)
  --evict MIB        write MIB MiB of scratch before each run (cold caches)
  --compare F        also time model F, alternating with MODEL.bin
  --profile          time each plan step (K more runs) and list the top 20
  --trace F          write a trace of every plan step (K more runs) to F
  --json             machine-readable output (with --profile: every step)
  --public-key FILE  load the models only if they are signed by this
                     32-byte Ed25519 public key (tcc compile --sign)
  --help             this text
)";

// Nearest-rank percentile of sorted values.
double percentile(const std::vector<double> &sorted, double p) {
  size_t rank = size_t(std::ceil(p / 100.0 * double(sorted.size())));
  return sorted[std::min(sorted.size() - 1, rank ? rank - 1 : 0)];
}

/// Writes a scratch buffer larger than the caches, so that what a model
/// run reads next comes from memory.
class CacheEvictor {
public:
  explicit CacheEvictor(int64_t mib) : bytes_(size_t(mib) << 20) {}
  bool enabled() const { return bytes_ != 0; }
  void evict() {
    if (!bytes_)
      return;
    if (scratch_.empty())
      scratch_.resize(bytes_);
    std::memset(scratch_.data(), ++fill_, scratch_.size());
  }

private:
  size_t bytes_;
  std::vector<unsigned char> scratch_;
  unsigned char fill_ = 0;
};

/// Binds `arrays` (the inputs MODEL.bin runs on) to a session of `other`,
/// whose inputs must be the same in number, dtype and shape.
runtime::Status bindSameInputs(const runtime::Model &model,
                               const runtime::Model &other,
                               runtime::Session &session,
                               const std::vector<runtime::NpyArray> &arrays) {
  if (other.inputCount() != model.inputCount())
    return runtime::Status(TCC_STATUS_INVALID_ARGUMENT,
                           "--compare: the model takes " +
                               std::to_string(other.inputCount()) +
                               " inputs, MODEL.bin " +
                               std::to_string(model.inputCount()));
  for (size_t i = 0; i < arrays.size(); ++i) {
    runtime::TensorInfo mine, theirs;
    runtime::Status s = model.input(i, &mine);
    if (s.ok())
      s = other.input(i, &theirs);
    if (!s.ok())
      return s;
    if (mine.dtype != theirs.dtype || mine.shape != theirs.shape)
      return runtime::Status(TCC_STATUS_INVALID_ARGUMENT,
                             "--compare: input " + std::to_string(i) + " is " +
                                 describeTensor(theirs.dtype, theirs.shape) +
                                 ", in MODEL.bin " +
                                 describeTensor(mine.dtype, mine.shape));
    if (!(s = session.bindInput(i, arrays[i].data.data(),
                                arrays[i].data.size()))
             .ok())
      return s;
  }
  return runtime::Status();
}

struct StepTime {
  uint32_t step;
  double msPerRun;
};

/// Runs `session` `iterations` more times with step profiling (the steps
/// by time, longest first, into `out`) and/or tracing (written to
/// `tracePath`), so that the timed runs stay uninstrumented.
runtime::Status instrumentedRuns(runtime::Session &session, int64_t iterations,
                                 CacheEvictor &evictor, bool profile,
                                 const std::string &tracePath,
                                 std::vector<StepTime> *out) {
  bool trace = !tracePath.empty();
  runtime::Status s = session.setProfiling(profile);
  if (s.ok())
    s = session.setTracing(trace);
  for (int64_t i = 0; s.ok() && i < iterations; ++i) {
    evictor.evict();
    s = session.run();
  }
  if (s.ok() && trace)
    s = session.writeTrace(tracePath);
  std::vector<uint64_t> ns;
  uint64_t runs = 0;
  if (s.ok() && profile)
    s = session.stepTimes(&ns, &runs);
  if (!s.ok())
    return s;
  (void)session.setProfiling(false);
  (void)session.setTracing(false);
  for (uint32_t i = 0; i < ns.size(); ++i)
    out->push_back({i, double(ns[i]) / 1e6 / double(runs ? runs : 1)});
  std::stable_sort(out->begin(), out->end(),
                   [](const StepTime &a, const StepTime &b) {
                     return a.msPerRun > b.msPerRun;
                   });
  return runtime::Status();
}

std::string joined(const std::vector<std::string> &parts) {
  std::string out;
  for (const std::string &p : parts)
    out += (out.empty() ? "" : ", ") + p;
  return out;
}

void printProfile(const artifact::Model &m,
                  const std::vector<StepTime> &steps) {
  double total = 0;
  for (const StepTime &t : steps)
    total += t.msPerRun;
  std::printf("\nplan steps by time (%zu steps, %.4f ms per run in steps):\n",
              steps.size(), total);
  std::printf("%6s %10s %7s %7s %8s %7s  %s\n", "step", "ms/run", "%",
              "cum %", "GFLOP/s", "GB/s", "what [source ops]");
  double cumulative = 0;
  size_t shown = 0;
  for (const StepTime &t : steps) {
    if (shown++ == 20) {
      std::printf("%6s %10.4f %6.1f%% %6.1f%% %8s %7s  (%zu more steps)\n",
                  "...", total - cumulative,
                  total > 0 ? 100 * (total - cumulative) / total : 0.0, 100.0,
                  "", "", steps.size() - 20);
      break;
    }
    cumulative += t.msPerRun;
    runtime::StepDescription step = runtime::describeStep(m, t.step);
    // GEMMs and convolutions: their rate, to read against the machine's
    // peak; generated kernels and copies: the bytes of their buffers over
    // time, to read against its memory bandwidth.
    double flops = step.flops, bytes = step.bytes;
    char rate[16] = "", bandwidth[16] = "";
    if (flops > 0 && t.msPerRun > 0)
      std::snprintf(rate, sizeof rate, "%.1f", flops / (t.msPerRun * 1e6));
    if (bytes > 0 && t.msPerRun > 0)
      std::snprintf(bandwidth, sizeof bandwidth, "%.1f",
                    bytes / (t.msPerRun * 1e6));
    std::printf("%6u %10.4f %6.1f%% %6.1f%% %8s %7s  %s [%s]\n", t.step,
                t.msPerRun, total > 0 ? 100 * t.msPerRun / total : 0.0,
                total > 0 ? 100 * cumulative / total : 0.0, rate, bandwidth,
                step.summary.c_str(), joined(step.sourceOps).c_str());
  }
}

void writeProfileJson(JsonWriter &j, const artifact::Model &m,
                      const std::vector<StepTime> &steps) {
  j.beginArray();
  for (const StepTime &t : steps) {
    runtime::StepDescription step = runtime::describeStep(m, t.step);
    j.beginObject();
    j.key("step");
    j.value(int64_t(t.step));
    j.key("op");
    j.value(step.kind);
    j.key("what");
    j.value(step.summary);
    j.key("source_ops");
    j.beginInlineArray();
    for (const std::string &op : step.sourceOps)
      j.value(op);
    j.endArray();
    j.key("ms_per_run");
    j.value(t.msPerRun);
    j.key("flops");
    j.value(step.flops);
    j.key("bytes");
    j.value(step.bytes);
    j.endObject();
  }
  j.endArray();
}

} // namespace

int runBench(int argc, char **argv, const InterpreterTimer &timeInterpreter) {
  const char *cmd = "bench";
  CommandLine args(argc, argv);
  std::string path, value, error, irPath, comparePath, tracePath,
      publicKeyPath;
  std::vector<NamedPath> inputs;
  std::string deviceName;
  int64_t threads = 1, iterations = 100, warmup = 10, evictMib = 0;
  bool json = false, profile = false;
  while (!args.done()) {
    std::string arg = args.next();
    if (arg == "--help" || arg == "-h") {
      printHelp(kHelp);
      return 0;
    }
    if (arg == "--json") {
      json = true;
    } else if (arg == "--profile") {
      profile = true;
    } else if (args.option(arg, "--device", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      deviceName = value;
    } else if (args.option(arg, "--public-key", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      publicKeyPath = value;
    } else if (args.option(arg, "--threads", &value, &error)) {
      if (!error.empty() ||
          !CommandLine::parsePositive(value, "--threads", &threads, &error,
                                      TCC_MAX_THREADS))
        return fail(cmd, error);
    } else if (args.option(arg, "--iterations", &value, &error)) {
      if (!error.empty() ||
          !CommandLine::parsePositive(value, "--iterations", &iterations,
                                      &error, CommandLine::kMaxIterations))
        return fail(cmd, error);
    } else if (args.option(arg, "--warmup", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      if (value != "0" &&
          !CommandLine::parsePositive(value, "--warmup", &warmup, &error,
                                      CommandLine::kMaxIterations))
        return fail(cmd, error);
      if (value == "0")
        warmup = 0;
    } else if (args.option(arg, "--evict", &value, &error)) {
      if (!error.empty() ||
          !CommandLine::parsePositive(value, "--evict", &evictMib, &error))
        return fail(cmd, error);
      if (evictMib > (int64_t(1) << 20))
        return fail(cmd, "--evict " + value + " MiB is more than 1 TiB");
    } else if (args.option(arg, "--trace", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      tracePath = value;
    } else if (args.option(arg, "--compare", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      comparePath = value;
    } else if (args.option(arg, "--against-ir", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      if (!timeInterpreter)
        return fail(cmd, "--against-ir needs the reference interpreter, which "
                         "this runtime-only tool lacks: use `tcc bench`");
      irPath = value;
    } else if (args.option(arg, "--input", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      inputs.push_back(parseNamedPath(value));
    } else if (arg.size() > 1 && arg[0] == '-') {
      return fail(cmd, "unknown option '" + arg + "' (see tcc bench --help)");
    } else if (path.empty()) {
      path = arg;
    } else {
      return fail(cmd, "unexpected argument '" + arg + "'");
    }
  }
  if (path.empty())
    return fail(cmd, "no model given (usage: tcc bench MODEL.bin)");
  if (!tracePath.empty() && runtime::isSameFile(tracePath, path))
    return fail(cmd, "--trace " + tracePath + " is the model itself");

  // The device first: without it nothing else can run.
  runtime::Device device;
  if (!deviceName.empty()) {
    runtime::Status opened = runtime::Device::open(deviceName, &device);
    if (!opened.ok())
      return fail(cmd, "--device " + deviceName + ": " + opened.message());
  }
  TrustedKey trusted;
  runtime::Model model;
  runtime::Status s = readTrustedKey(publicKeyPath, &trusted);
  if (s.ok())
    s = runtime::Model::loadFile(path, &model, 0, trusted.data());
  if (!s.ok())
    return fail(cmd, s.message());
  runtime::Pool pool;
  if (threads > 1 && !(s = runtime::Pool::create(int(threads), &pool)).ok())
    return fail(cmd, s.message());
  runtime::Session session;
  if (!(s = model.createSession(pool ? pool.parallel() : nullptr, &session,
                                device))
           .ok())
    return fail(cmd, s.message());
  std::vector<runtime::NpyArray> arrays;
  if (inputs.empty()) {
    s = bindRandomInputs(model, session, /*seed=*/0, &arrays);
  } else {
    std::vector<std::string> paths;
    if ((s = assignInputs(model, inputs, &paths)).ok())
      s = bindNpyInputs(model, session, paths, &arrays);
  }
  if (!s.ok())
    return fail(cmd, s.message());

  runtime::Model other;
  runtime::Session otherSession;
  if (!comparePath.empty()) {
    if (!(s = runtime::Model::loadFile(comparePath, &other, 0,
                                       trusted.data()))
             .ok() ||
        !(s = other.createSession(pool ? pool.parallel() : nullptr,
                                  &otherSession))
             .ok() ||
        !(s = bindSameInputs(model, other, otherSession, arrays)).ok())
      return fail(cmd, s.message());
  }

  for (int64_t i = 0; i < warmup; ++i)
    if (!(s = session.run()).ok() ||
        (otherSession && !(s = otherSession.run()).ok()))
      return fail(cmd, s.message());
  using Clock = std::chrono::steady_clock;
  CacheEvictor evictor(evictMib);
  std::vector<double> ms, otherMs;
  ms.reserve(size_t(iterations));
  double total = 0; // seconds in runs: throughput leaves eviction out
  auto timeRun = [&](runtime::Session &run, double *runMs) {
    evictor.evict();
    auto t0 = Clock::now();
    runtime::Status status = run.run();
    *runMs = std::chrono::duration<double, std::milli>(Clock::now() - t0)
                 .count();
    return status;
  };
  int64_t otherFaster = 0;
  for (int64_t i = 0; i < iterations; ++i) {
    double mine = 0, theirs = 0;
    // With --compare, the two take turns going first.
    if (otherSession && i % 2 == 1 &&
        !(s = timeRun(otherSession, &theirs)).ok())
      return fail(cmd, s.message());
    if (!(s = timeRun(session, &mine)).ok())
      return fail(cmd, s.message());
    if (otherSession && i % 2 == 0 &&
        !(s = timeRun(otherSession, &theirs)).ok())
      return fail(cmd, s.message());
    ms.push_back(mine);
    total += mine / 1e3;
    if (otherSession) {
      otherMs.push_back(theirs);
      otherFaster += theirs < mine;
    }
  }
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  double mean = 0;
  for (double v : ms)
    mean += v / double(ms.size());
  double throughput = double(iterations) / total;

  std::vector<StepTime> stepTimes;
  std::unique_ptr<runtime::Artifact> artifact;
  if (profile || !tracePath.empty()) {
    // The descriptions come from the artifact itself (as tcc inspect reads
    // it); the loaded model only runs.
    if ((profile && !(s = runtime::Artifact::openFile(path, &artifact)).ok()) ||
        !(s = instrumentedRuns(session, iterations, evictor, profile,
                               tracePath, &stepTimes))
             .ok())
      return fail(cmd, s.message());
  }

  double interpreterP50 = 0;
  if (!irPath.empty()) {
    std::vector<double> interpreterMs;
    error = timeInterpreter(irPath, arrays, int(threads), warmup, iterations,
                            [&] { evictor.evict(); }, &interpreterMs);
    if (!error.empty())
      return fail(cmd, error.rfind(irPath, 0) == 0 ? error
                                                    : irPath + ": " + error);
    std::sort(interpreterMs.begin(), interpreterMs.end());
    interpreterP50 = percentile(interpreterMs, 50);
  }

  std::vector<double> otherSorted = otherMs;
  std::sort(otherSorted.begin(), otherSorted.end());
  double otherP50 = otherSorted.empty() ? 0 : percentile(otherSorted, 50);
  double ratio = otherSorted.empty() ? 0 : otherP50 / percentile(sorted, 50);
  const std::pair<const char *, double> stats[] = {
      {"min", sorted.front()},         {"p50", percentile(sorted, 50)},
      {"p90", percentile(sorted, 90)}, {"p99", percentile(sorted, 99)},
      {"max", sorted.back()},          {"mean", mean}};
  if (json) {
    JsonWriter j(stdout);
    j.beginObject();
    j.key("model");
    j.value(path);
    j.key("threads");
    j.value(threads);
    j.key("iterations");
    j.value(iterations);
    j.key("warmup");
    j.value(warmup);
    j.key("evict_mib");
    j.value(evictMib);
    j.key("latency_ms");
    j.beginObject();
    for (auto [name, v] : stats) {
      j.key(name);
      j.value(v);
    }
    j.endObject();
    j.key("throughput_per_s");
    j.value(throughput);
    if (!irPath.empty()) {
      j.key("interpreter_p50_ms");
      j.value(interpreterP50);
      j.key("speedup_over_interpreter");
      j.value(interpreterP50 / percentile(sorted, 50));
    }
    if (!comparePath.empty()) {
      j.key("compare");
      j.beginObject();
      j.key("model");
      j.value(comparePath);
      j.key("p50_ms");
      j.value(otherP50);
      j.key("p50_ratio");
      j.value(ratio);
      j.key("faster_iterations");
      j.value(otherFaster);
      j.endObject();
    }
    if (!tracePath.empty()) {
      j.key("trace");
      j.value(tracePath);
    }
    if (profile) {
      j.key("profile");
      writeProfileJson(j, artifact->model(), stepTimes);
    }
    j.endObject();
    j.finish();
    return 0;
  }
  std::printf("%s: %lld iterations after %lld warm-up, %lld thread%s",
              path.c_str(), (long long)iterations, (long long)warmup,
              (long long)threads, threads == 1 ? "" : "s");
  if (evictor.enabled())
    std::printf(", caches evicted before each run (%lld MiB written)",
                (long long)evictMib);
  std::printf("\n");
  std::printf("latency ms:");
  for (auto [name, v] : stats)
    std::printf(" %s %.4f", name, v);
  std::printf("\nthroughput: %.1f runs/s\n", throughput);
  if (!comparePath.empty())
    std::printf("%s, alternating: p50 %.4f ms; its p50 / this p50 %.3f; "
                "faster in %lld of %lld iterations\n",
                comparePath.c_str(), otherP50, ratio, (long long)otherFaster,
                (long long)iterations);
  if (!irPath.empty())
    std::printf("interpreter (eager kernels) on %s: p50 %.4f ms; compiled "
                "is %.2fx faster\n",
                irPath.c_str(), interpreterP50,
                interpreterP50 / percentile(sorted, 50));
  if (!tracePath.empty())
    std::printf("trace of %lld runs written to %s\n", (long long)iterations,
                tracePath.c_str());
  if (profile)
    printProfile(artifact->model(), stepTimes);
  return 0;
}

int runtimeBenchMain(int argc, char **argv) {
  return runBench(argc, argv, InterpreterTimer());
}

} // namespace tool
} // namespace tcc
