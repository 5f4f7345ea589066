//===- Reducer.cpp - Bucketed gradient averaging from autograd hooks ------===//

#include "tcc/Distributed/Reducer.h"

#include "tcc/Frontend/Autograd/Autograd.h"
#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Factories.h"

#include <algorithm>
#include <sstream>
#include <unordered_set>

namespace tcc {
namespace distributed {

Reducer::Reducer(std::vector<std::pair<std::string, Tensor>> namedParameters,
                 std::shared_ptr<ProcessGroup> group, ReducerOptions options)
    : group_(std::move(group)), options_(options) {
  TCC_CHECK(group_, "DistributedDataParallel: no process group");
  TCC_CHECK(options_.bucket_cap_mb > 0, "DistributedDataParallel: "
            "bucket_cap_mb must be positive, not ", options_.bucket_cap_mb);
  for (auto &p : namedParameters)
    if (p.second.requires_grad())
      params_.push_back(std::move(p));

  // Reverse registration order: the order backward produces gradients in.
  // One open bucket per dtype (a bucket is one flat tensor); as in PyTorch,
  // a bucket closes once it holds at least the cap.
  const double cap = options_.bucket_cap_mb * 1024 * 1024;
  bucketOf_.assign(params_.size(), 0);
  std::vector<std::pair<ScalarType, size_t>> open; // dtype, bucket index
  for (size_t k = params_.size(); k-- > 0;) {
    const Tensor &p = params_[k].second;
    auto it = std::find_if(open.begin(), open.end(), [&](const auto &o) {
      return o.first == p.scalar_type();
    });
    if (it == open.end()) {
      buckets_.emplace_back();
      buckets_.back().dtype = p.scalar_type();
      it = open.insert(open.end(), {p.scalar_type(), buckets_.size() - 1});
    }
    size_t b = it->second;
    Bucket &bucket = buckets_[b];
    bucket.params.push_back(k);
    bucket.offsets.push_back(bucket.numel);
    bucket.numel += p.numel();
    bucketOf_[k] = b;
    if (double(bucket.numel) * double(p.element_size()) >= cap)
      open.erase(it);
  }

  for (size_t k = 0; k < params_.size(); ++k)
    hookIds_.push_back(params_[k].second.register_post_accumulate_grad_hook(
        [this, k](const Tensor &) { markReady(k); }));
}

Reducer::~Reducer() {
  for (size_t k = 0; k < hookIds_.size(); ++k)
    params_[k].second.remove_hook(hookIds_[k]);
}

void Reducer::prepare_for_forward() {
  if (!armed_)
    return;
  bool started = false;
  for (char r : ready_)
    started = started || r;
  if (!started)
    return; // forward without backward: nothing was reduced, nothing lost
  std::ostringstream missing;
  size_t count = 0;
  for (size_t k = 0; k < params_.size(); ++k)
    if (!ready_[k])
      missing << (count++ ? ", " : "") << params_[k].first;
  armed_ = false;
  detail::throwError(
      "DistributedDataParallel: the previous backward did not produce "
      "gradients for " + std::to_string(count) + " parameter(s) (" +
      missing.str() + "), so their buckets were never averaged across ranks. "
      "Construct it with find_unused_parameters(true) when forward does not "
      "use every parameter, or make every parameter take part in the loss");
}

void Reducer::prepare_for_backward(const std::vector<Tensor> &outputs) {
  armed_ = sync_ && GradMode::is_enabled();
  if (!armed_)
    return;
  ready_.assign(params_.size(), 0);
  unused_.assign(params_.size(), 0);
  pendingInBucket_.clear();
  for (const Bucket &b : buckets_)
    pendingInBucket_.push_back(b.params.size());
  pendingBuckets_ = buckets_.size();
  flat_.assign(buckets_.size(), Tensor());
  works_.assign(buckets_.size(), nullptr);
  stats_ = ReducerStats();
  if (!options_.find_unused_parameters)
    return;
  // Every node backward can reach from the outputs.
  std::unordered_set<const autograd::Node *> seen;
  std::vector<autograd::Node *> stack;
  for (const Tensor &o : outputs)
    if (o.defined() && o.grad_fn() && seen.insert(o.grad_fn().get()).second)
      stack.push_back(o.grad_fn().get());
  while (!stack.empty()) {
    autograd::Node *n = stack.back();
    stack.pop_back();
    for (const autograd::Edge &e : n->next_edges())
      if (e.is_valid() && seen.insert(e.function.get()).second)
        stack.push_back(e.function.get());
  }
  for (size_t k = 0; k < params_.size(); ++k) {
    // A parameter the outputs reach (directly, when it is an output).
    bool reached = false;
    for (const Tensor &o : outputs)
      reached = reached || (o.defined() && o.is_same(params_[k].second));
    auto acc = autograd::impl::grad_accumulator(params_[k].second);
    if (!reached && !seen.count(acc.get())) {
      unused_[k] = 1;
      markReady(k);
    }
  }
}

void Reducer::markReady(size_t k) {
  if (!armed_ || !sync_)
    return;
  TCC_CHECK(!ready_[k], "DistributedDataParallel: parameter '",
            params_[k].first, "' received a second gradient in one backward; "
            "run forward again before each backward");
  ready_[k] = 1;
  size_t b = bucketOf_[k];
  const Bucket &bucket = buckets_[b];
  NoGradGuard noGrad;
  if (!flat_[b].defined())
    flat_[b] = empty({bucket.numel}, TensorOptions().dtype(bucket.dtype));
  size_t slot = 0;
  while (bucket.params[slot] != k)
    ++slot;
  const Tensor &param = params_[k].second;
  Tensor view = flat_[b].narrow(0, bucket.offsets[slot], param.numel());
  const Tensor &grad = param.grad();
  if (grad.defined())
    view.copy_(grad.reshape({-1}));
  else
    view.zero_();
  if (--pendingInBucket_[b] == 0) {
    if (options_.overlap)
      launch(b);
    if (--pendingBuckets_ == 0) {
      lastGradient_ = std::chrono::steady_clock::now();
      if (!options_.overlap)
        for (size_t i = 0; i < buckets_.size(); ++i)
          launch(i);
      finish();
    }
  }
}

void Reducer::launch(size_t b) {
  bool first = true;
  for (const auto &w : works_)
    first = first && !w;
  if (first)
    firstLaunch_ = std::chrono::steady_clock::now();
  std::string label = "DistributedDataParallel bucket " + std::to_string(b) +
                      " (" + params_[buckets_[b].params.front()].first +
                      (buckets_[b].params.size() > 1 ? ", ..." : "") + ")";
  works_[b] = group_->allreduce_async(flat_[b], ReduceOp::Avg, label);
}

void Reducer::finish() {
  armed_ = false; // done with this backward, even if a collective fails
  for (auto &w : works_)
    w->wait();
  auto end = std::chrono::steady_clock::now();
  stats_.exposed_wait = end - lastGradient_;
  stats_.communication = end - firstLaunch_;
  NoGradGuard noGrad;
  for (size_t b = 0; b < buckets_.size(); ++b) {
    const Bucket &bucket = buckets_[b];
    for (size_t slot = 0; slot < bucket.params.size(); ++slot) {
      const Tensor &param = params_[bucket.params[slot]].second;
      Tensor avg = flat_[b]
                       .narrow(0, bucket.offsets[slot], param.numel())
                       .view(param.sizes());
      if (param.grad().defined())
        param.mutable_grad().copy_(avg);
      else
        param.mutable_grad() = avg.clone();
    }
  }
}

std::vector<std::string> Reducer::last_unused() const {
  std::vector<std::string> names;
  for (size_t k = 0; k < unused_.size(); ++k)
    if (unused_[k])
      names.push_back(params_[k].first);
  return names;
}

} // namespace distributed
} // namespace tcc
