//===- Function.h - Custom differentiable ops -------------------*- C++ -*-===//
//
// As in libtorch:
//
//   struct MulConstant : tcc::autograd::Function<MulConstant> {
//     static Tensor forward(AutogradContext *ctx, Tensor x, double c) {
//       ctx->saved_data["c"] = c;
//       return x * c;
//     }
//     static variable_list backward(AutogradContext *ctx, variable_list g) {
//       return {g[0] * ctx->saved_data["c"].toDouble(), Tensor()};
//     }
//   };
//   Tensor y = MulConstant::apply(x, 5.0);
//
// forward runs with grad mode off; backward returns one gradient per
// argument of forward (undefined for non-tensor arguments).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_AUTOGRAD_FUNCTION_H
#define TCC_FRONTEND_AUTOGRAD_FUNCTION_H

#include "tcc/Frontend/Autograd/SavedVariable.h"
#include "tcc/Frontend/GradMode.h"
#include "tcc/Frontend/IValue.h"

#include <string>
#include <typeinfo>
#include <unordered_map>
#include <unordered_set>

namespace tcc {
namespace autograd {

class CustomNode;
template <class T> struct Function;

struct AutogradContext {
  /// Tensors that backward needs (inputs or outputs of forward).
  void save_for_backward(variable_list to_save);
  variable_list get_saved_variables() const;
  /// Inputs modified in place by forward.
  void mark_dirty(const variable_list &inputs);
  /// Outputs that are not differentiable (their gradient is not computed).
  void mark_non_differentiable(const variable_list &outputs);
  /// With false, undefined output gradients reach backward undefined
  /// instead of as zeros.
  void set_materialize_grads(bool value) { materializeGrads_ = value; }
  /// Whether the gradient of tensor input `index` is needed.
  bool needs_input_grad(size_t index) const;

  std::unordered_map<std::string, IValue> saved_data;

private:
  friend struct CustomFunctionSupport;
  friend class CustomNode;
  template <class T> friend struct Function;
  variable_list toSave_;
  std::vector<SavedVariable> saved_;
  std::unordered_set<const TensorImpl *> dirty_;
  std::unordered_set<const TensorImpl *> nonDifferentiable_;
  std::weak_ptr<Node> node_;
  bool materializeGrads_ = true;
  bool hasFreed_ = false;
};

/// The node of a custom Function; T::backward does the work.
class CustomNode : public Node {
public:
  using BackwardFn = variable_list (*)(AutogradContext *, variable_list);
  CustomNode(std::string name, BackwardFn backward)
      : name_(std::move(name)), backward_(backward) {}
  std::string name() const override { return name_; }
  variable_list apply(variable_list &&grads) override;
  void release_variables() override;

  AutogradContext ctx;
  std::vector<bool> isTensorArg; // per forward argument
  std::vector<InputMetadata> outputMeta;

private:
  std::string name_;
  BackwardFn backward_;
};

/// Glue between the Function<T> template and the library.
struct CustomFunctionSupport {
  static std::string demangle(const char *name);
  /// Edges, output history and saved variables after forward ran.
  static void finish(const std::shared_ptr<CustomNode> &node,
                     const variable_list &inputs, variable_list &outputs);
};

template <class T> struct Function {
  template <class... Args> static auto apply(Args &&...args) {
    auto node = std::make_shared<CustomNode>(
        CustomFunctionSupport::demangle(typeid(T).name()), &T::backward);
    node->ctx.node_ = node;
    variable_list inputs;
    (collect(node->isTensorArg, inputs, args), ...);
    using Result = decltype(T::forward(&node->ctx, std::forward<Args>(args)...));
    Result result = [&] {
      AutoGradMode noGrad(false);
      return T::forward(&node->ctx, std::forward<Args>(args)...);
    }();
    variable_list outputs = toList(result);
    CustomFunctionSupport::finish(node, inputs, outputs);
    return fromList<Result>(std::move(outputs));
  }

private:
  template <class A>
  static void collect(std::vector<bool> &isTensor, variable_list &inputs,
                      const A &arg) {
    if constexpr (std::is_same<std::decay_t<A>, Tensor>::value) {
      isTensor.push_back(true);
      inputs.push_back(arg);
    } else {
      isTensor.push_back(false);
    }
  }
  static variable_list toList(const Tensor &t) { return {t}; }
  static variable_list toList(const variable_list &v) { return v; }
  template <class R> static R fromList(variable_list &&v) {
    if constexpr (std::is_same<R, Tensor>::value)
      return v[0];
    else
      return std::move(v);
  }
};

} // namespace autograd
} // namespace tcc

#endif // TCC_FRONTEND_AUTOGRAD_FUNCTION_H
