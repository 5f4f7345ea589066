//===- Example.h - One (data, target) pair ----------------------*- C++ -*-===//

#ifndef TCC_FRONTEND_DATA_EXAMPLE_H
#define TCC_FRONTEND_DATA_EXAMPLE_H

#include "tcc/Frontend/Tensor.h"

namespace tcc {
namespace data {

/// libtorch's torch::data::Example: `batch.data`, `batch.target`.
template <class Data = Tensor, class Target = Tensor> struct Example {
  using DataType = Data;
  using TargetType = Target;
  Example() = default;
  Example(Data data, Target target)
      : data(std::move(data)), target(std::move(target)) {}
  Data data;
  Target target;
};

namespace example {
using NoTarget = void;
} // namespace example

/// An example without a target (TensorDataset's).
template <class Data> struct Example<Data, example::NoTarget> {
  using DataType = Data;
  using TargetType = example::NoTarget;
  Example() = default;
  /* implicit */ Example(Data data) : data(std::move(data)) {}
  operator Data &() { return data; }
  operator const Data &() const { return data; }
  Data data;
};

using TensorExample = Example<Tensor, example::NoTarget>;

} // namespace data
} // namespace tcc

#endif // TCC_FRONTEND_DATA_EXAMPLE_H
