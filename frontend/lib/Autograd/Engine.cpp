//===- Engine.cpp - Running the backward graph ----------------------------===//
//
// Dependencies are counted first (iterative DFS); nodes then run when all
// gradients for them have arrived, highest sequence number first among the
// ready ones (the reverse of creation order, as PyTorch's CPU queue does).
// Nothing recurses, so graphs of any depth work.
//
//===----------------------------------------------------------------------===//

#include "AccumulateGrad.h"
#include "Record.h"

#include "../Core/TensorInternals.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"

#include <cmath>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace tcc {
namespace autograd {
namespace {

std::atomic<bool> anomalyEnabled{false};

/// The start of a backward pass: hands the initial gradients to the roots.
class GraphRoot : public Node {
public:
  explicit GraphRoot(variable_list grads) : grads_(std::move(grads)) {}
  std::string name() const override { return "GraphRoot"; }
  variable_list apply(variable_list &&) override { return grads_; }

private:
  variable_list grads_;
};

struct NodeState {
  int dependencies = 0;
  bool needed = true;
  variable_list buffer;
};

bool hasNaN(const Tensor &t) {
  if (!t.is_floating_point())
    return false;
  NoGradGuard noGrad;
  return isnan(t).any().item<bool>();
}

/// Brings a gradient to the shape and dtype of the forward input.
Tensor validateGradient(const Node &fn, size_t index, Tensor grad,
                        const InputMetadata &meta) {
  if (!grad.sizes().equals(IntArrayRef(meta.sizes))) {
    std::vector<int64_t> b;
    bool expandable = true;
    try {
      b = broadcast_shapes(meta.sizes, grad.sizes());
    } catch (const Error &) {
      expandable = false;
    }
    if (!expandable || !IntArrayRef(b).equals(grad.sizes()))
      detail::throwError(detail::str(
          "Function ", fn.name(), " returned an invalid gradient at index ",
          index, " - got ", grad.sizes(), " but expected shape compatible with ",
          IntArrayRef(meta.sizes)));
    // Sum over the broadcast dims.
    int64_t lead = grad.dim() - int64_t(meta.sizes.size());
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < grad.dim(); ++d)
      if (d < lead || (meta.sizes[size_t(d - lead)] == 1 && grad.size(d) != 1))
        dims.push_back(d);
    if (!dims.empty())
      grad = grad.sum(dims, /*keepdim=*/true);
    grad = grad.view(meta.sizes);
  }
  if (grad.dtype() != meta.dtype)
    grad = grad.to(meta.dtype);
  return grad;
}

void addInto(Tensor &slot, Tensor grad) {
  if (!grad.defined())
    return;
  if (!slot.defined())
    slot = std::move(grad);
  else
    slot = slot + grad;
}

void runPreHooks(Node &fn, variable_list &buffer) {
  for (auto *hooks : {&fn.pre_hooks(), &fn.retain_grad_hooks()})
    for (auto &h : *hooks) {
      Tensor &g = buffer[h.output_nr];
      if (!g.defined())
        continue;
      Tensor r = h.fn(g);
      if (r.defined())
        g = r;
    }
}

/// Runs the graph from `roots`; returns the gradients flowing into
/// `captures` (empty: accumulate into leaves instead).
variable_list execute(const std::vector<Edge> &roots, variable_list rootGrads,
                      bool keepGraph, bool createGraph,
                      const std::vector<Edge> &captures) {
  auto root = std::make_shared<GraphRoot>(std::move(rootGrads));
  for (const Edge &e : roots)
    root->add_next_edge(e, InputMetadata{});
  std::unordered_map<Node *, NodeState> state;
  std::vector<Node *> order; // DFS discovery order
  {
    std::vector<Node *> stack{root.get()};
    state[root.get()];
    while (!stack.empty()) {
      Node *n = stack.back();
      stack.pop_back();
      order.push_back(n);
      for (const Edge &e : n->next_edges()) {
        if (!e.is_valid())
          continue;
        auto it = state.find(e.function.get());
        if (it == state.end()) {
          state[e.function.get()].dependencies = 1;
          stack.push_back(e.function.get());
        } else {
          ++it->second.dependencies;
        }
      }
    }
  }
  bool capturing = !captures.empty();
  std::unordered_map<Node *, std::vector<std::pair<uint32_t, size_t>>> targets;
  variable_list captured(captures.size());
  if (capturing) {
    for (size_t i = 0; i < captures.size(); ++i)
      targets[captures[i].function.get()].push_back(
          {captures[i].input_nr, i});
    // A node is needed when a capture target is reachable from it. Children
    // come after parents in DFS discovery order only for trees, so iterate
    // to a fixed point over the reverse order.
    for (auto &kv : state)
      kv.second.needed = targets.count(kv.first) > 0;
    bool changed = true;
    while (changed) {
      changed = false;
      for (auto it = order.rbegin(); it != order.rend(); ++it) {
        NodeState &s = state[*it];
        if (s.needed)
          continue;
        for (const Edge &e : (*it)->next_edges())
          if (e.is_valid() && state[e.function.get()].needed) {
            s.needed = true;
            changed = true;
            break;
          }
      }
    }
  }

  auto later = [](Node *a, Node *b) {
    return a->sequence_nr() < b->sequence_nr();
  };
  std::priority_queue<Node *, std::vector<Node *>, decltype(later)> ready(
      later);
  // GraphRoot runs first whatever its sequence number.
  std::vector<Node *> first{root.get()};
  AutoGradMode gradMode(createGraph);

  auto pop = [&]() -> Node * {
    if (!first.empty()) {
      Node *n = first.back();
      first.pop_back();
      return n;
    }
    Node *n = ready.top();
    ready.pop();
    return n;
  };

  while (!first.empty() || !ready.empty()) {
    Node *fn = pop();
    NodeState &s = state[fn];
    variable_list buffer = std::move(s.buffer);
    buffer.resize(std::max<size_t>(buffer.size(), fn->num_inputs()));
    runPreHooks(*fn, buffer);
    if (capturing) {
      auto t = targets.find(fn);
      if (t != targets.end())
        for (auto &[nr, idx] : t->second)
          if (nr < buffer.size())
            captured[idx] = buffer[nr];
    }
    bool run = s.needed;
    if (capturing && dynamic_cast<AccumulateGrad *>(fn))
      run = false; // grad() returns gradients instead of accumulating
    bool anyGrad = false;
    for (const Tensor &g : buffer)
      anyGrad = anyGrad || g.defined();
    if (fn == root.get())
      anyGrad = true;
    variable_list outputs;
    if (run && anyGrad) {
      outputs = fn->apply(std::move(buffer));
      if (!keepGraph)
        fn->release_variables();
      if (outputs.size() != fn->num_outputs() && fn != root.get())
        detail::throwError(detail::str(
            "Function ", fn->name(),
            " returned an incorrect number of gradients (expected ",
            fn->num_outputs(), ", got ", outputs.size(), ")"));
    } else if (!keepGraph && run) {
      fn->release_variables();
    }
    outputs.resize(fn->num_outputs());
    for (size_t i = 0; i < outputs.size(); ++i) {
      const Edge &e = fn->next_edge(i);
      if (!e.is_valid())
        continue;
      Tensor &g = outputs[i];
      if (g.defined() && fn != root.get()) {
        g = validateGradient(*fn, i, std::move(g), fn->input_metadata(i));
        if (AnomalyMode::is_enabled() && hasNaN(g))
          detail::throwError(detail::str("Function '", fn->name(),
                                         "' returned nan values in its ", i,
                                         "th output."));
      }
      NodeState &ns = state[e.function.get()];
      if (ns.buffer.size() <= e.input_nr)
        ns.buffer.resize(std::max<size_t>(e.input_nr + 1,
                                          e.function->num_inputs()));
      addInto(ns.buffer[e.input_nr], std::move(g));
      if (--ns.dependencies == 0)
        ready.push(e.function.get());
    }
  }
  return captured;
}

Edge rootEdge(const Tensor &t, size_t index) {
  TCC_CHECK(t.defined() && t.requires_grad(), "element ", index,
            " of tensors does not require grad and does not have a grad_fn");
  return gradientEdge(t);
}

variable_list makeRootGrads(const variable_list &outputs,
                            const variable_list &grads) {
  TCC_CHECK(grads.empty() || grads.size() == outputs.size(),
            "got ", grads.size(), " gradients for ", outputs.size(),
            " outputs");
  variable_list out;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor &o = outputs[i];
    Tensor g = grads.empty() ? Tensor() : grads[i];
    if (!g.defined()) {
      TCC_CHECK(o.numel() == 1,
                "grad can be implicitly created only for scalar outputs");
      g = ones_like(o);
    } else {
      TCC_CHECK(g.sizes().equals(o.sizes()), "Mismatch in shape: grad_output[",
                i, "] has a shape of ", g.sizes(), " and output[", i,
                "] has a shape of ", o.sizes(), ".");
      TCC_CHECK(g.dtype() == o.dtype() || (g.is_floating_point() &&
                                           o.is_floating_point()),
                "Mismatch in dtype: grad_output[", i, "] has a dtype of ",
                g.dtype(), " and output[", i, "] has a dtype of ", o.dtype(),
                ".");
    }
    out.push_back(g);
  }
  return out;
}

} // namespace

bool AnomalyMode::is_enabled() { return anomalyEnabled.load(); }
void AnomalyMode::set_enabled(bool enabled) { anomalyEnabled.store(enabled); }

void backward(const variable_list &tensors, const variable_list &gradTensors,
              std::optional<bool> retainGraph, bool createGraph,
              const variable_list &inputs) {
  TCC_CHECK(!tensors.empty(), "backward() needs at least one tensor");
  std::vector<Edge> roots;
  for (size_t i = 0; i < tensors.size(); ++i)
    roots.push_back(rootEdge(tensors[i], i));
  variable_list grads = makeRootGrads(tensors, gradTensors);
  bool keep = retainGraph.value_or(createGraph);
  if (inputs.empty()) {
    execute(roots, std::move(grads), keep, createGraph, {});
    return;
  }
  std::vector<Edge> captures;
  for (const Tensor &in : inputs) {
    TCC_CHECK(in.defined() && in.requires_grad(),
              "One of the differentiated Tensors does not require grad");
    captures.push_back(gradientEdge(in));
  }
  variable_list got = execute(roots, std::move(grads), keep, createGraph,
                              captures);
  AutoGradMode mode(createGraph);
  for (size_t i = 0; i < inputs.size(); ++i)
    if (got[i].defined()) {
      if (inputs[i].is_leaf())
        AccumulateGrad::accumulate(inputs[i], got[i]);
      else {
        AutogradMeta &meta = autogradMeta(inputs[i]);
        meta.grad = meta.grad.defined() ? meta.grad + got[i]
                                        : got[i].detach().clone();
      }
    }
}

variable_list grad(const variable_list &outputs, const variable_list &inputs,
                   const variable_list &gradOutputs,
                   std::optional<bool> retainGraph, bool createGraph,
                   bool allowUnused) {
  TCC_CHECK(!outputs.empty(), "grad requires at least one output");
  TCC_CHECK(!inputs.empty(), "grad requires at least one input");
  std::vector<Edge> roots;
  for (size_t i = 0; i < outputs.size(); ++i)
    roots.push_back(rootEdge(outputs[i], i));
  std::vector<Edge> captures;
  for (const Tensor &in : inputs) {
    TCC_CHECK(in.defined() && in.requires_grad(),
              "One of the differentiated Tensors does not require grad");
    captures.push_back(gradientEdge(in));
  }
  variable_list grads = makeRootGrads(outputs, gradOutputs);
  variable_list result =
      execute(roots, std::move(grads), retainGraph.value_or(createGraph),
              createGraph, captures);
  for (Tensor &r : result) {
    TCC_CHECK(r.defined() || allowUnused,
              "One of the differentiated Tensors appears to not have been "
              "used in the graph. Set allow_unused=True if this is the "
              "desired behavior.");
    if (r.defined() && !createGraph)
      r = r.detach();
  }
  return result;
}

} // namespace autograd
} // namespace tcc
