//===- Transforms.h - Batch and example transforms --------------*- C++ -*-===//
//
// libtorch's torch::data::transforms: `Lambda`, `BatchLambda`,
// `TensorLambda`, `Normalize` (per channel, on each example's data) and
// `Stack` (a vector of examples -> one example of stacked tensors).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_DATA_TRANSFORMS_H
#define TCC_FRONTEND_DATA_TRANSFORMS_H

#include "tcc/Frontend/Ops/Indexing.h"
#include "tcc/Frontend/data/Example.h"

#include <functional>
#include <utility>
#include <vector>

namespace tcc {
namespace data {
namespace transforms {

template <class InputBatch, class OutputBatch> class BatchTransform {
public:
  using InputBatchType = InputBatch;
  using OutputBatchType = OutputBatch;
  virtual ~BatchTransform() = default;
  virtual OutputBatch apply_batch(InputBatch input_batch) = 0;
};

/// A transform of single examples, applied to each of a batch.
template <class Input, class Output>
class Transform
    : public BatchTransform<std::vector<Input>, std::vector<Output>> {
public:
  using InputType = Input;
  using OutputType = Output;
  virtual Output apply(Input input) = 0;
  std::vector<Output> apply_batch(std::vector<Input> input_batch) override {
    std::vector<Output> out;
    out.reserve(input_batch.size());
    for (auto &input : input_batch)
      out.push_back(apply(std::move(input)));
    return out;
  }
};

template <class Input, class Output = Input>
class BatchLambda : public BatchTransform<Input, Output> {
public:
  using FunctionType = std::function<Output(Input)>;
  explicit BatchLambda(FunctionType function)
      : function_(std::move(function)) {}
  Output apply_batch(Input input_batch) override {
    return function_(std::move(input_batch));
  }

private:
  FunctionType function_;
};

template <class Input, class Output = Input>
class Lambda : public Transform<Input, Output> {
public:
  using FunctionType = std::function<Output(Input)>;
  explicit Lambda(FunctionType function) : function_(std::move(function)) {}
  Output apply(Input input) override { return function_(std::move(input)); }

private:
  FunctionType function_;
};

/// A transform of each example's data tensor (the target passes through).
template <class Target = Tensor>
class TensorTransform
    : public Transform<Example<Tensor, Target>, Example<Tensor, Target>> {
public:
  using E = Example<Tensor, Target>;
  virtual Tensor operator()(Tensor input) = 0;
  E apply(E input) override {
    input.data = (*this)(std::move(input.data));
    return input;
  }
};

template <class Target = Tensor>
class TensorLambda : public TensorTransform<Target> {
public:
  using FunctionType = std::function<Tensor(Tensor)>;
  explicit TensorLambda(FunctionType function)
      : function_(std::move(function)) {}
  Tensor operator()(Tensor input) override {
    return function_(std::move(input));
  }

private:
  FunctionType function_;
};

/// (data - mean) / stddev with one value per channel (dim 0 of each
/// example's data), or one for all.
template <class Target = Tensor>
class Normalize : public TensorTransform<Target> {
public:
  Normalize(ArrayRef<double> mean, ArrayRef<double> stddev)
      : mean(channels(mean)), stddev(channels(stddev)) {}
  Tensor operator()(Tensor input) override {
    return input.sub(mean).div(stddev);
  }
  Tensor mean, stddev;

private:
  static Tensor channels(ArrayRef<double> values);
};

/// Stacks a batch of examples into one example (`Stack<>` for Example<>,
/// `Stack<TensorExample>` for target-less examples).
template <class T = Example<>> struct Stack;

template <>
struct Stack<Example<>>
    : public BatchTransform<std::vector<Example<>>, Example<>> {
  Example<> apply_batch(std::vector<Example<>> examples) override {
    std::vector<Tensor> data, targets;
    data.reserve(examples.size());
    targets.reserve(examples.size());
    for (auto &e : examples) {
      data.push_back(std::move(e.data));
      targets.push_back(std::move(e.target));
    }
    return {stack(data), stack(targets)};
  }
};

template <>
struct Stack<TensorExample>
    : public BatchTransform<std::vector<TensorExample>, TensorExample> {
  TensorExample apply_batch(std::vector<TensorExample> examples) override {
    std::vector<Tensor> data;
    data.reserve(examples.size());
    for (auto &e : examples)
      data.push_back(std::move(e.data));
    return stack(data);
  }
};

namespace detail {
Tensor normalizeChannels(ArrayRef<double> values);
} // namespace detail

template <class Target>
Tensor Normalize<Target>::channels(ArrayRef<double> values) {
  return detail::normalizeChannels(values);
}

} // namespace transforms
} // namespace data
} // namespace tcc

#endif // TCC_FRONTEND_DATA_TRANSFORMS_H
