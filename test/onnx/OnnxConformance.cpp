//===- OnnxConformance.cpp - ONNX's backend test cases through tcc --------===//
//
// Runs the cases write-cases.py wrote (OUTDIR/manifest.json) each in a child
// process of its own, so that a crash or a hang costs one case, not the
// run: the child reports its progress stage by stage over a pipe, and the
// parent kills it at the time limit.
//
//===----------------------------------------------------------------------===//

#include "CaseRunner.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tcc::conformance;

namespace {

const char kUsage[] =
    R"(usage: tcc-onnx-conformance CASES_DIR [--shard I/N] [--filter REGEX]
           [--timeout SECONDS] [--results FILE] [--expected FILE] [-v]

Runs each case of CASES_DIR/manifest.json (test/onnx/write-cases.py) through
import -> reference interpreter and import -> compile -> runtime, comparing
every output with ONNX's expected one at the case's tolerance.

  --shard I/N        only the cases whose index modulo N is I-1
  --filter REGEX     only the cases whose name matches
  --timeout SECONDS  the limit per case (default 120); past it the case fails
  --results FILE     one JSON object per case (JSON lines)
  --expected FILE    the cases that must pass, one name a line ('#' starts a
                     comment): exits 1 when one of them does not, and lists
                     the cases that pass without being listed
  -v                 a line per case
)";

struct Options {
  std::string casesDir, resultsPath, expectedPath;
  int shard = 1, shards = 1;
  double timeout = 120;
  std::optional<llvm::Regex> filter;
  bool verbose = false;
};

[[noreturn]] void die(const std::string &message) {
  std::fprintf(stderr, "tcc-onnx-conformance: %s\n", message.c_str());
  std::exit(2);
}

Options parseArgs(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 == argc)
        die(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (arg == "--shard") {
      std::string v = value();
      if (std::sscanf(v.c_str(), "%d/%d", &o.shard, &o.shards) != 2 ||
          o.shards < 1 || o.shard < 1 || o.shard > o.shards)
        die("--shard " + v + " is not I/N with 1 <= I <= N");
    } else if (arg == "--filter") {
      o.filter.emplace(value());
      std::string error;
      if (!o.filter->isValid(error))
        die("--filter: " + error);
    } else if (arg == "--timeout") {
      o.timeout = std::atof(value().c_str());
      if (o.timeout <= 0)
        die("--timeout needs a positive number of seconds");
    } else if (arg == "--results") {
      o.resultsPath = value();
    } else if (arg == "--expected") {
      o.expectedPath = value();
    } else if (arg == "-v") {
      o.verbose = true;
    } else if (!arg.empty() && arg[0] != '-' && o.casesDir.empty()) {
      o.casesDir = arg;
    } else {
      die("unknown argument '" + arg + "' (see --help)");
    }
  }
  if (o.casesDir.empty())
    die("no CASES_DIR (see --help)");
  return o;
}

std::vector<CaseSpec> readManifest(const std::string &dir) {
  std::string path = dir + "/manifest.json";
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    die("cannot read " + path + " (write it with test/onnx/write-cases.py)");
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    die(path + ": " + llvm::toString(json.takeError()));
  std::vector<CaseSpec> cases;
  const llvm::json::Array *entries = json->getAsArray();
  if (!entries)
    die(path + " is not a JSON array");
  for (const llvm::json::Value &entry : *entries) {
    const llvm::json::Object *o = entry.getAsObject();
    auto name = o ? o->getString("name") : std::nullopt;
    auto caseDir = o ? o->getString("dir") : std::nullopt;
    if (!name || !caseDir)
      die(path + ": an entry without a name or dir");
    CaseSpec spec;
    spec.name = name->str();
    spec.kind = o->getString("kind").value_or("").str();
    spec.dir = dir + "/" + caseDir->str();
    spec.rtol = o->getNumber("rtol").value_or(spec.rtol);
    spec.atol = o->getNumber("atol").value_or(spec.atol);
    spec.note = o->getString("note").value_or("").str();
    spec.convertedFromOpset = o->getInteger("converted_from_opset").value_or(0);
    cases.push_back(std::move(spec));
  }
  return cases;
}

llvm::json::Object toJson(const CaseResult &r) {
  return llvm::json::Object{{"status", r.status},
                            {"stage", r.stage},
                            {"error", r.error},
                            {"ops", llvm::json::Array(r.ops)},
                            {"float", r.floatData},
                            {"fixed_inputs", r.fixedInputs}};
}

CaseResult fromJson(const llvm::json::Object &o) {
  CaseResult r;
  r.status = o.getString("status").value_or(kCrashed).str();
  r.stage = o.getString("stage").value_or("").str();
  r.error = o.getString("error").value_or("").str();
  if (const llvm::json::Array *ops = o.getArray("ops"))
    for (const llvm::json::Value &op : *ops)
      r.ops.push_back(op.getAsString().value_or("").str());
  r.floatData = o.getBoolean("float").value_or(false);
  r.fixedInputs = o.getBoolean("fixed_inputs").value_or(false);
  return r;
}

void writeLine(int fd, const CaseResult &r) {
  std::string line;
  llvm::raw_string_ostream os(line);
  os << llvm::json::Value(toJson(r)) << "\n";
  os.flush();
  for (size_t done = 0; done < line.size();) {
    ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n <= 0)
      _exit(3);
    done += n;
  }
}

/// The last non-empty line of `text`.
std::string lastLine(const std::string &text) {
  size_t end = text.find_last_not_of("\n ");
  if (end == std::string::npos)
    return "";
  size_t begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1,
                     end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

/// Runs `spec` in a child process, at most `timeout` seconds.
CaseResult runIsolated(const CaseSpec &spec, double timeout) {
  int results[2], output[2];
  if (::pipe(results) || ::pipe(output))
    die(std::string("pipe: ") + std::strerror(errno));
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = ::fork();
  if (pid < 0)
    die(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(results[0]);
    ::close(output[0]);
    ::dup2(output[1], 1);
    ::dup2(output[1], 2);
    CaseResult r = runCase(spec, [&](const CaseResult &p) {
      writeLine(results[1], p);
    });
    writeLine(results[1], r);
    std::fflush(stdout);
    _exit(0);
  }
  ::close(results[1]);
  ::close(output[1]);

  std::string resultText, outputText;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(int64_t(timeout * 1000));
  bool timedOut = false;
  pollfd fds[2] = {{results[0], POLLIN, 0}, {output[0], POLLIN, 0}};
  std::string *texts[2] = {&resultText, &outputText};
  int open = 2;
  while (open > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    if (::poll(fds, 2, int(left)) < 0 && errno != EINTR)
      die(std::string("poll: ") + std::strerror(errno));
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !fds[i].revents)
        continue;
      char buffer[4096];
      ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        texts[i]->append(buffer, n);
        // Keep the tail only: the last result line, the last messages.
        if (texts[i]->size() > (1 << 16))
          texts[i]->erase(0, texts[i]->size() - (1 << 15));
      } else {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  if (timedOut)
    ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  for (pollfd &fd : fds)
    if (fd.fd >= 0)
      ::close(fd.fd);

  CaseResult r;
  r.status = kCrashed;
  std::string last = lastLine(resultText);
  if (llvm::Expected<llvm::json::Value> json = llvm::json::parse(last)) {
    if (const llvm::json::Object *o = json->getAsObject())
      r = fromJson(*o);
  } else {
    llvm::consumeError(json.takeError());
  }
  if (timedOut) {
    r.status = kTimeout;
    char limit[64];
    std::snprintf(limit, sizeof limit, "no result after %g s", timeout);
    r.error = limit;
  } else if (r.status == kCrashed) {
    std::string why = WIFSIGNALED(status)
                          ? "killed by signal " + std::to_string(WTERMSIG(status))
                          : "exited with status " +
                                std::to_string(WEXITSTATUS(status));
    std::string message = lastLine(outputText);
    r.error = message.empty() ? why : why + ": " + message.substr(0, 300);
  }
  return r;
}

std::set<std::string> readExpected(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    die("cannot read " + path);
  std::set<std::string> names;
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    line.erase(0, line.find_first_not_of(" \t"));
    if (!line.empty())
      names.insert(line);
  }
  return names;
}

} // namespace

int main(int argc, char **argv) {
  Options options = parseArgs(argc, argv);
  std::vector<CaseSpec> cases = readManifest(options.casesDir);
  std::set<std::string> expected;
  if (!options.expectedPath.empty())
    expected = readExpected(options.expectedPath);

  std::unique_ptr<llvm::raw_fd_ostream> results;
  if (!options.resultsPath.empty()) {
    std::error_code ec;
    results = std::make_unique<llvm::raw_fd_ostream>(options.resultsPath, ec);
    if (ec)
      die("cannot write " + options.resultsPath + ": " + ec.message());
  }

  int failures = 0;
  std::set<std::string> names;
  std::map<std::string, int> counts;
  int inScope = 0, inScopePassed = 0, floatInScope = 0, floatPassed = 0;
  std::vector<std::string> newlyPassing;
  auto start = std::chrono::steady_clock::now();
  for (size_t index = 0; index < cases.size(); ++index) {
    const CaseSpec &spec = cases[index];
    names.insert(spec.name);
    if (int(index % options.shards) != options.shard - 1 ||
        (options.filter && !options.filter->match(spec.name)))
      continue;
    auto caseStart = std::chrono::steady_clock::now();
    CaseResult r = runIsolated(spec, options.timeout);
    double seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - caseStart)
                         .count();
    bool passed = r.status == kPassed;
    ++counts[r.status];
    if (r.status != kOutOfScope) {
      ++inScope;
      inScopePassed += passed;
      floatInScope += r.floatData;
      floatPassed += r.floatData && passed;
    }
    if (results) {
      llvm::json::Object line = toJson(r);
      line["name"] = spec.name;
      line["kind"] = spec.kind;
      line["ms"] = int64_t(std::llround(seconds * 1000));
      if (spec.convertedFromOpset)
        line["converted_from_opset"] = spec.convertedFromOpset;
      *results << llvm::json::Value(std::move(line)) << "\n";
      results->flush();
    }
    std::string detail = r.status + (r.stage.empty() ? "" : " in " + r.stage) +
                         (r.error.empty() ? "" : ": " + r.error);
    std::string where = r.stage.empty() ? "" : r.stage + ": ";
    if (expected.count(spec.name) && !passed) {
      std::printf("FAIL (listed as passing) %s: %s\n", spec.name.c_str(),
                  detail.c_str());
      ++failures;
    } else if (options.verbose) {
      std::printf("%-18s %s (%.2f s)%s%s\n", r.status.c_str(),
                  spec.name.c_str(), seconds, passed ? "" : ": ",
                  passed ? "" : (where + r.error).c_str());
    }
    if (passed && !options.expectedPath.empty() && !expected.count(spec.name))
      newlyPassing.push_back(spec.name);
  }
  for (const std::string &name : expected)
    if (!names.count(name)) {
      std::printf("FAIL: %s lists %s, which is no case of the manifest\n",
                  options.expectedPath.c_str(), name.c_str());
      ++failures;
    }
  for (const std::string &name : newlyPassing)
    std::printf("newly passes (add it to %s): %s\n",
                options.expectedPath.c_str(), name.c_str());

  double total = std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - start)
                     .count();
  std::printf("shard %d/%d:", options.shard, options.shards);
  for (const auto &[status, count] : counts)
    std::printf(" %s %d,", status.c_str(), count);
  std::printf(" in scope %d/%d passed (float %d/%d), %.0f s\n", inScopePassed,
              inScope, floatPassed, floatInScope, total);
  if (failures)
    std::printf("%d case(s) listed as passing did not pass\n", failures);
  return failures ? 1 : 0;
}
