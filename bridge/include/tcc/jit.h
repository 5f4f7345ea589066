//===- jit.h - Tracing eager programs into tcc IR, and running it -*- C++ -*-//
//
// The bridge between eager tensors and the tcc dialect:
//
//   auto traced = tcc::jit::trace(model, {x});   // runs model once, records
//   traced.save("model.ir");                     // MLIR text, weights inside
//   auto y = tcc::jit::Interpreter::load("model.ir").run({x});
//
// `trace` accepts a module holder (`nn::Linear fc(4, 2)`), a module
// shared_ptr, any object with a `forward` member, or a plain callable, taking
// the example inputs as separate Tensor arguments (or one
// `std::vector<Tensor>`) and returning a Tensor, a vector of Tensors, or a
// tuple/pair of Tensors. Parameters and buffers of objects that offer
// `named_parameters()` / `named_buffers()` become constants named after them.
//
// The Interpreter (tcc/jit/Interpreter.h, its own library tcc::interpreter)
// executes any function of a tcc module with the eager ops (the reference
// semantics of the dialect). tcc::jit::compile (tcc/jit/Compile.h, included
// below) traces, compiles and runs a program in-process.
//
// This header includes nothing from MLIR or LLVM; the implementation keeps
// the MLIR module behind a pointer.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_JIT_H
#define TCC_JIT_H

#include "tcc/jit/Interpreter.h"
#include "tcc/tcc.h"

#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tcc {
namespace jit {

struct TraceOptions {
  /// Names of the function's arguments (default input0, input1, ...).
  std::vector<std::string> input_names;
  /// Names of the function's results (default output0, output1, ...).
  std::vector<std::string> output_names;
  /// Name of the traced function.
  std::string function_name = "forward";
  /// Data-dependent reads while tracing (item(), data_ptr()) fail the trace
  /// instead of adding a warning.
  bool strict = false;
  /// Print each warning to stderr as it happens (they are also kept in
  /// TracedGraph::warnings()).
  bool print_warnings = true;
};

struct TracedGraphAccess;

/// A traced program: a tcc module with one function.
class TracedGraph {
public:
  TracedGraph(TracedGraph &&) noexcept;
  TracedGraph &operator=(TracedGraph &&) noexcept;
  ~TracedGraph();

  /// Writes MLIR text (weights as dense_resource blobs in the same file).
  void save(const std::string &path) const;
  /// Writes MLIR bytecode.
  void save_bytecode(const std::string &path) const;
  /// The MLIR text.
  std::string str() const;

  /// Runs the traced function with the reference interpreter.
  std::vector<Tensor> run(const std::vector<Tensor> &inputs) const;
  std::vector<Tensor> operator()(const std::vector<Tensor> &inputs) const {
    return run(inputs);
  }

  const std::string &function_name() const;
  Signature signature() const;
  /// Warnings raised while tracing (data-dependent reads, ...).
  const std::vector<std::string> &warnings() const;

private:
  friend class Interpreter;
  friend class TraceSession;
  friend struct TracedGraphAccess;
  TracedGraph(std::shared_ptr<const ModuleState> state, std::string function,
              std::vector<std::string> warnings);

  std::shared_ptr<const ModuleState> state_;
  std::string function_;
  std::vector<std::string> warnings_;
};

/// An Interpreter of the traced graph's module (declared in
/// tcc/jit/Interpreter.h, which knows nothing of tracing).
inline Interpreter::Interpreter(const TracedGraph &graph)
    : Interpreter(graph.state_) {}

/// Records one run of a program (see trace() below). Used by the template;
/// it installs an op observer for its lifetime.
class TraceSession {
public:
  TraceSession(const std::vector<Tensor> &inputs, TraceOptions options);
  ~TraceSession();
  TraceSession(const TraceSession &) = delete;
  TraceSession &operator=(const TraceSession &) = delete;

  /// Names a parameter or buffer, so its constant is called `name`.
  void name_constant(const std::string &name, const Tensor &tensor);
  /// Starts recording (on this thread).
  void start();
  /// Stops recording and builds the graph returning `outputs`.
  TracedGraph finish(const std::vector<Tensor> &outputs);

private:
  struct State;
  std::unique_ptr<State> state_;
};

namespace detail {

// --- Finding the module behind a holder or pointer ------------------------

template <class T, class = void> struct Pointee { using type = void; };
template <class T>
struct Pointee<T, std::enable_if_t<std::is_pointer<
                      decltype(std::declval<T &>().get())>::value>> {
  using type = std::remove_pointer_t<decltype(std::declval<T &>().get())>;
};

/// The object whose forward runs: *m.get() for module holders and smart
/// pointers, *m for raw pointers, else m itself.
template <class M> auto &moduleOf(M &m) {
  if constexpr (std::is_pointer<M>::value)
    return *m;
  else if constexpr (!std::is_void<typename Pointee<M>::type>::value)
    return *m.get();
  else
    return m;
}

// --- Calling forward (or operator()) with N tensors -----------------------

// forward() is preferred over operator() when an object has both.
struct CallOperator {};
struct CallForward : CallOperator {};
template <class M, class... A>
auto invokeWith(CallForward, M &m, A &&...a)
    -> decltype(m.forward(std::forward<A>(a)...)) {
  return m.forward(std::forward<A>(a)...);
}
template <class M, class... A>
auto invokeWith(CallOperator, M &m, A &&...a)
    -> decltype(m(std::forward<A>(a)...)) {
  return m(std::forward<A>(a)...);
}
template <class M, class... A>
auto invokeModel(M &m, A &&...a)
    -> decltype(invokeWith(CallForward{}, m, std::forward<A>(a)...)) {
  return invokeWith(CallForward{}, m, std::forward<A>(a)...);
}

template <std::size_t> using TensorArg = const Tensor &;

template <class M, class Seq, class = void>
struct CallableWith : std::false_type {};
template <class M, std::size_t... I>
struct CallableWith<M, std::index_sequence<I...>,
                    std::void_t<decltype(invokeModel(
                        std::declval<M &>(), std::declval<TensorArg<I>>()...))>>
    : std::true_type {};

template <class M, class = void> struct CallableWithList : std::false_type {};
template <class M>
struct CallableWithList<
    M, std::void_t<decltype(invokeModel(
           std::declval<M &>(), std::declval<const std::vector<Tensor> &>()))>>
    : std::true_type {};

inline void appendOutputs(const Tensor &t, std::vector<Tensor> &out) {
  out.push_back(t);
}
inline void appendOutputs(const std::vector<Tensor> &ts,
                          std::vector<Tensor> &out) {
  out.insert(out.end(), ts.begin(), ts.end());
}
template <class A, class B>
void appendOutputs(const std::pair<A, B> &p, std::vector<Tensor> &out) {
  appendOutputs(p.first, out);
  appendOutputs(p.second, out);
}
template <class... T>
void appendOutputs(const std::tuple<T...> &t, std::vector<Tensor> &out) {
  std::apply([&](const auto &...e) { (appendOutputs(e, out), ...); }, t);
}

[[noreturn]] void throwArityError(std::size_t given);

constexpr std::size_t kMaxTraceArity = 8;

template <class M, std::size_t... I>
std::vector<Tensor> callWithN(M &m, const std::vector<Tensor> &in,
                              std::index_sequence<I...>) {
  std::vector<Tensor> out;
  appendOutputs(invokeModel(m, in[I]...), out);
  return out;
}

template <class M, std::size_t N = 0>
std::vector<Tensor> callModel(M &m, const std::vector<Tensor> &in) {
  if constexpr (N <= kMaxTraceArity) {
    if constexpr (CallableWith<M, std::make_index_sequence<N>>::value) {
      if (in.size() == N)
        return callWithN(m, in, std::make_index_sequence<N>());
    }
    return callModel<M, N + 1>(m, in);
  } else {
    if constexpr (CallableWithList<M>::value) {
      std::vector<Tensor> out;
      appendOutputs(invokeModel(m, in), out);
      return out;
    }
    throwArityError(in.size());
  }
}

// --- Names of parameters and buffers ---------------------------------------

template <class T, class = void> struct HasNamedParameters : std::false_type {};
template <class T>
struct HasNamedParameters<
    T, std::void_t<decltype(std::declval<T &>().named_parameters())>>
    : std::true_type {};
template <class T, class = void> struct HasNamedBuffers : std::false_type {};
template <class T>
struct HasNamedBuffers<
    T, std::void_t<decltype(std::declval<T &>().named_buffers())>>
    : std::true_type {};

// An item of an OrderedDict (key()/value()) or a std::pair (first/second).
template <class I> auto itemKey(const I &i) -> decltype(i.key()) {
  return i.key();
}
template <class I> auto itemKey(const I &i) -> decltype((i.first)) {
  return i.first;
}
template <class I> auto itemValue(const I &i) -> decltype(i.value()) {
  return i.value();
}
template <class I> auto itemValue(const I &i) -> decltype((i.second)) {
  return i.second;
}

template <class Items> void nameAll(const Items &items, TraceSession &s) {
  for (const auto &item : items)
    s.name_constant(std::string(itemKey(item)), itemValue(item));
}

template <class M> void nameConstants(M &m, TraceSession &s) {
  if constexpr (HasNamedParameters<M>::value)
    nameAll(m.named_parameters(), s);
  if constexpr (HasNamedBuffers<M>::value)
    nameAll(m.named_buffers(), s);
}

} // namespace detail

/// Runs `model` once on `inputs` with tracing on and returns the recorded
/// graph. Ops are recorded as the eager library reports them; an op without
/// a tcc form, or a failing op, throws JitError naming it.
template <class M>
TracedGraph trace(M &&model, const std::vector<Tensor> &inputs,
                  TraceOptions options = {}) {
  auto &m = detail::moduleOf(model);
  TraceSession session(inputs, std::move(options));
  detail::nameConstants(m, session);
  session.start();
  std::vector<Tensor> outputs = detail::callModel(m, inputs);
  return session.finish(outputs);
}

} // namespace jit
} // namespace tcc

// tcc::jit::compile: tracing, compiling and running in one process.
#include "tcc/jit/Compile.h"

#endif // TCC_JIT_H
