//===- Tensor.h - The eager tensor handle -----------------------*- C++ -*-===//
//
// tcc::Tensor is a reference-counted handle, like libtorch's at::Tensor:
// copying a Tensor shares the data; `clone()` copies it. All methods are
// const (they do not reseat the handle), including in-place ones such as
// `add_`, which change the data the handle points to.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_TENSOR_H
#define TCC_FRONTEND_TENSOR_H

#include "tcc/Frontend/Error.h"
#include "tcc/Frontend/Scalar.h"
#include "tcc/Frontend/TensorImpl.h"
#include "tcc/Frontend/TensorOptions.h"

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tcc {

class Tensor;
using TensorList = ArrayRef<Tensor>;

namespace autograd {
class Node;
}

namespace detail {
[[noreturn]] void throwDataPtrTypeMismatch(ScalarType actual,
                                           ScalarType requested);
void notifyDataRead(const Tensor &t, const char *what);
} // namespace detail

class Tensor {
public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}
  Tensor(const Tensor &) = default;
  Tensor(Tensor &&) noexcept = default;
  ~Tensor() = default;

  /// Handle assignment (an lvalue Tensor is rebound, as in libtorch).
  Tensor &operator=(const Tensor &o) & = default;
  Tensor &operator=(Tensor &&o) & noexcept = default;
  /// Assigning to a temporary writes into its data: `x[0] = y;`
  Tensor &operator=(const Tensor &src) &&;
  Tensor &operator=(const Scalar &value) &&;
  template <class T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
  Tensor &operator=(T value) && {
    return std::move(*this) = Scalar(value);
  }

  bool defined() const { return impl_ != nullptr; }
  void reset() { impl_.reset(); }
  TensorImpl *unsafeGetTensorImpl() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl> &getIntrusivePtr() const { return impl_; }
  bool is_same(const Tensor &o) const { return impl_ == o.impl_; }
  long use_count() const { return impl_.use_count(); }

  // --- Metadata -----------------------------------------------------------
  IntArrayRef sizes() const { return impl().sizes; }
  IntArrayRef strides() const { return impl().strides; }
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  int64_t dim() const { return int64_t(impl().sizes.size()); }
  int64_t ndimension() const { return dim(); }
  int64_t numel() const { return impl().numel; }
  int64_t storage_offset() const { return impl().storageOffset; }
  ScalarType scalar_type() const { return impl().dtype; }
  ScalarType dtype() const { return impl().dtype; }
  Device device() const { return impl().device(); }
  int64_t get_device() const { return device().is_cpu() ? -1 : device().index(); }
  Layout layout() const { return kStrided; }
  TensorOptions options() const;
  bool is_contiguous() const { return impl().contiguous; }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_cuda() const { return device().is_cuda(); }
  bool is_sparse() const { return false; }
  bool is_quantized() const { return false; }
  bool is_floating_point() const { return isFloatingType(dtype()); }
  bool is_complex() const { return false; }
  bool is_signed() const { return isSignedType(dtype()); }
  size_t element_size() const { return elementSize(dtype()); }
  size_t itemsize() const { return element_size(); }
  size_t nbytes() const { return size_t(numel()) * element_size(); }
  /// "CPUFloatType", as libtorch's toString().
  std::string toString() const;
  /// Whether this tensor views another's storage.
  bool is_view() const { return impl().base != nullptr; }
  bool _is_view() const { return is_view(); }
  Tensor _base() const;
  /// The version counter shared with the tensor's views.
  uint32_t _version() const { return impl().version(); }

  // --- Data access ----------------------------------------------------------
  /// Pointer to the first element. Throws if T is not the tensor's dtype.
  template <class T> T *data_ptr() const {
    if (CppTypeToScalarType<std::remove_cv_t<T>>::value != dtype())
      detail::throwDataPtrTypeMismatch(dtype(),
                                       CppTypeToScalarType<std::remove_cv_t<T>>::value);
    detail::notifyDataRead(*this, "data_ptr");
    return static_cast<T *>(impl().data());
  }
  void *data_ptr() const {
    detail::notifyDataRead(*this, "data_ptr");
    return impl().data();
  }
  template <class T> T *mutable_data_ptr() const { return data_ptr<T>(); }
  template <class T> const T *const_data_ptr() const { return data_ptr<T>(); }
  /// The value of a one-element tensor.
  Scalar item() const;
  template <class T> T item() const { return item().to<T>(); }
  /// Prints the tensor to std::cout.
  void print() const;

  // --- Views (share storage) -------------------------------------------------
  Tensor view(IntArrayRef size) const;
  Tensor view_as(const Tensor &other) const { return view(other.sizes()); }
  /// The same bytes read as `dtype`, which must have this tensor's element
  /// size (libtorch's view.dtype; not differentiable). A template, so that a
  /// braced list always means a shape: `view({})` (a 0-d view) would
  /// otherwise value-initialize a ScalarType and pick this overload.
  template <class D, std::enable_if_t<std::is_same_v<D, ScalarType>, int> = 0>
  Tensor view(D dtype) const {
    return view_dtype(dtype);
  }
  /// view(dtype) under its ATen overload name.
  Tensor view_dtype(ScalarType dtype) const;
  Tensor reshape(IntArrayRef shape) const;
  Tensor reshape_as(const Tensor &other) const { return reshape(other.sizes()); }
  Tensor t() const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor permute(IntArrayRef dims) const;
  Tensor movedim(int64_t source, int64_t destination) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor unflatten(int64_t dim, IntArrayRef sizes) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor operator[](int64_t index) const { return select(0, index); }
  Tensor slice(int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
               std::optional<int64_t> end = std::nullopt,
               int64_t step = 1) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor expand(IntArrayRef size, bool implicit = false) const;
  Tensor expand_as(const Tensor &other) const { return expand(other.sizes()); }
  Tensor as_strided(IntArrayRef size, IntArrayRef stride,
                    std::optional<int64_t> storage_offset = std::nullopt) const;
  Tensor diagonal(int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  /// This tensor if contiguous, else a contiguous copy.
  Tensor contiguous() const;
  Tensor clone() const;
  /// A tensor sharing this one's data, outside the autograd graph.
  Tensor detach() const;
  const Tensor &detach_() const;
  /// libtorch's Tensor::data(): the same data outside the graph (as
  /// detach()); `p.grad().data() = g / n` writes into the gradient.
  Tensor data() const { return detach(); }

  // --- Conversion -------------------------------------------------------------
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false,
            bool copy = false) const;
  Tensor to(Device device, bool non_blocking = false, bool copy = false) const;
  Tensor to(DeviceType device, bool non_blocking = false, bool copy = false) const {
    return to(Device(device), non_blocking, copy);
  }
  Tensor to(const TensorOptions &options, bool non_blocking = false,
            bool copy = false) const;
  Tensor to(const Tensor &other, bool non_blocking = false, bool copy = false) const;
  Tensor toType(ScalarType dtype) const { return to(dtype); }
  Tensor type_as(const Tensor &other) const { return to(other.dtype()); }
  Tensor cpu() const { return to(Device(kCPU)); }
  Tensor cuda() const { return to(Device(kCUDA)); }

  // --- Autograd ---------------------------------------------------------------
  bool requires_grad() const;
  const Tensor &requires_grad_(bool requires_grad = true) const;
  const Tensor &set_requires_grad(bool r) const { return requires_grad_(r); }
  /// The accumulated gradient (undefined until a backward reaches it).
  const Tensor &grad() const;
  Tensor &mutable_grad() const;
  void set_grad(const Tensor &grad) const { mutable_grad() = grad; }
  /// The node that made this tensor (null for leaves).
  const std::shared_ptr<autograd::Node> &grad_fn() const;
  bool is_leaf() const;
  uint32_t output_nr() const;
  /// Keep .grad() of a non-leaf tensor after backward.
  void retain_grad() const;
  bool retains_grad() const;
  void backward(const Tensor &gradient = {},
                std::optional<bool> retain_graph = std::nullopt,
                bool create_graph = false,
                std::optional<TensorList> inputs = std::nullopt) const;
  /// A hook called with this tensor's gradient during backward; a hook that
  /// returns a Tensor replaces the gradient. Returns an id for remove_hook.
  template <class F> unsigned register_hook(F &&hook) const {
    using R = decltype(hook(std::declval<Tensor>()));
    if constexpr (std::is_void<R>::value) {
      return registerHook(
          [h = std::forward<F>(hook)](const Tensor &g) -> Tensor {
            h(g);
            return Tensor();
          });
    } else {
      return registerHook(std::function<Tensor(const Tensor &)>(
          std::forward<F>(hook)));
    }
  }
  void remove_hook(unsigned id) const;
  /// PyTorch's register_post_accumulate_grad_hook: on a leaf, `hook(leaf)`
  /// runs once backward has added this pass's gradient into leaf.grad()
  /// (DistributedDataParallel starts a bucket's allreduce from it). Returns
  /// an id for remove_hook.
  unsigned register_post_accumulate_grad_hook(
      std::function<void(const Tensor &)> hook) const;

  // --- Elementwise ------------------------------------------------------------
  Tensor add(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor add(const Scalar &other, const Scalar &alpha = 1) const;
  Tensor sub(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor sub(const Scalar &other, const Scalar &alpha = 1) const;
  Tensor mul(const Tensor &other) const;
  Tensor mul(const Scalar &other) const;
  Tensor div(const Tensor &other) const;
  Tensor div(const Scalar &other) const;
  const Tensor &add_(const Tensor &other, const Scalar &alpha = 1) const;
  const Tensor &add_(const Scalar &other, const Scalar &alpha = 1) const;
  const Tensor &sub_(const Tensor &other, const Scalar &alpha = 1) const;
  const Tensor &sub_(const Scalar &other, const Scalar &alpha = 1) const;
  const Tensor &mul_(const Tensor &other) const;
  const Tensor &mul_(const Scalar &other) const;
  const Tensor &div_(const Tensor &other) const;
  const Tensor &div_(const Scalar &other) const;
  Tensor pow(const Tensor &exponent) const;
  Tensor pow(const Scalar &exponent) const;
  const Tensor &pow_(const Scalar &exponent) const;
  Tensor maximum(const Tensor &other) const;
  Tensor minimum(const Tensor &other) const;

  Tensor eq(const Tensor &other) const;
  Tensor eq(const Scalar &other) const;
  Tensor ne(const Tensor &other) const;
  Tensor ne(const Scalar &other) const;
  Tensor lt(const Tensor &other) const;
  Tensor lt(const Scalar &other) const;
  Tensor le(const Tensor &other) const;
  Tensor le(const Scalar &other) const;
  Tensor gt(const Tensor &other) const;
  Tensor gt(const Scalar &other) const;
  Tensor ge(const Tensor &other) const;
  Tensor ge(const Scalar &other) const;
  /// In place (libtorch's eq_ ...): 1 where the comparison holds, else 0,
  /// in this tensor's dtype and shape.
  const Tensor &eq_(const Tensor &o) const { return copy_(eq(o)); }
  const Tensor &eq_(const Scalar &o) const { return copy_(eq(o)); }
  const Tensor &ne_(const Tensor &o) const { return copy_(ne(o)); }
  const Tensor &ne_(const Scalar &o) const { return copy_(ne(o)); }
  const Tensor &lt_(const Tensor &o) const { return copy_(lt(o)); }
  const Tensor &lt_(const Scalar &o) const { return copy_(lt(o)); }
  const Tensor &le_(const Tensor &o) const { return copy_(le(o)); }
  const Tensor &le_(const Scalar &o) const { return copy_(le(o)); }
  const Tensor &gt_(const Tensor &o) const { return copy_(gt(o)); }
  const Tensor &gt_(const Scalar &o) const { return copy_(gt(o)); }
  const Tensor &ge_(const Tensor &o) const { return copy_(ge(o)); }
  const Tensor &ge_(const Scalar &o) const { return copy_(ge(o)); }
  Tensor logical_and(const Tensor &other) const;
  Tensor logical_or(const Tensor &other) const;
  Tensor logical_xor(const Tensor &other) const;
  Tensor logical_not() const;
  /// `self` where `condition` is true, else `other`.
  Tensor where(const Tensor &condition, const Tensor &other) const;

  Tensor neg() const;
  Tensor abs() const;
  Tensor exp() const;
  Tensor log() const;
  Tensor log1p() const;
  Tensor sqrt() const;
  Tensor rsqrt() const;
  Tensor reciprocal() const;
  Tensor square() const;
  Tensor sin() const;
  Tensor cos() const;
  Tensor tanh() const;
  Tensor sigmoid() const;
  Tensor relu() const;
  Tensor erf() const;
  Tensor sign() const;
  Tensor floor() const;
  Tensor ceil() const;
  Tensor round() const;
  Tensor clamp(std::optional<Scalar> min = std::nullopt,
               std::optional<Scalar> max = std::nullopt) const;
  Tensor clamp_min(const Scalar &min) const;
  Tensor clamp_max(const Scalar &max) const;

  const Tensor &neg_() const;
  const Tensor &abs_() const;
  const Tensor &exp_() const;
  const Tensor &log_() const;
  const Tensor &sqrt_() const;
  const Tensor &tanh_() const;
  const Tensor &sigmoid_() const;
  const Tensor &relu_() const;
  const Tensor &clamp_(std::optional<Scalar> min = std::nullopt,
                       std::optional<Scalar> max = std::nullopt) const;
  const Tensor &clamp_min_(const Scalar &min) const;
  const Tensor &clamp_max_(const Scalar &max) const;
  const Tensor &zero_() const;
  const Tensor &fill_(const Scalar &value) const;
  const Tensor &fill_(const Tensor &value) const;
  /// Copies `src` (broadcast to this shape, converted to this dtype) in.
  const Tensor &copy_(const Tensor &src, bool non_blocking = false) const;
  const Tensor &uniform_(double from = 0, double to = 1) const;
  const Tensor &normal_(double mean = 0, double std = 1) const;

  // --- Reductions -------------------------------------------------------------
  Tensor sum(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor sum(IntArrayRef dim, bool keepdim = false,
             std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean(IntArrayRef dim, bool keepdim = false,
              std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor prod(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor prod(int64_t dim, bool keepdim = false,
              std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor max() const;
  std::tuple<Tensor, Tensor> max(int64_t dim, bool keepdim = false) const;
  Tensor max(const Tensor &other) const { return maximum(other); }
  Tensor min() const;
  std::tuple<Tensor, Tensor> min(int64_t dim, bool keepdim = false) const;
  Tensor min(const Tensor &other) const { return minimum(other); }
  Tensor amax(IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor amin(IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor argmax(std::optional<int64_t> dim = std::nullopt,
                bool keepdim = false) const;
  Tensor argmin(std::optional<int64_t> dim = std::nullopt,
                bool keepdim = false) const;
  Tensor var(IntArrayRef dim, bool unbiased = true, bool keepdim = false) const;
  Tensor var(std::optional<IntArrayRef> dim, std::optional<int64_t> correction,
             bool keepdim = false) const;
  Tensor std(IntArrayRef dim, bool unbiased = true, bool keepdim = false) const;
  Tensor std(std::optional<IntArrayRef> dim, std::optional<int64_t> correction,
             bool keepdim = false) const;
  /// Over all elements. The `unbiased` flag takes a bool only (a template
  /// parameter that braced lists cannot deduce), so `t.var({0})` reduces
  /// over dim 0 as libtorch users mean, not over everything with
  /// unbiased = false.
  Tensor var() const { return var(std::nullopt, int64_t(1)); }
  template <class B, std::enable_if_t<std::is_same_v<B, bool>, int> = 0>
  Tensor var(B unbiased) const {
    return var(std::nullopt, int64_t(unbiased ? 1 : 0));
  }
  Tensor std() const { return std(std::nullopt, int64_t(1)); }
  template <class B, std::enable_if_t<std::is_same_v<B, bool>, int> = 0>
  Tensor std(B unbiased) const {
    return std(std::nullopt, int64_t(unbiased ? 1 : 0));
  }
  /// `t.var(1)` and `t.std(1)` reduce over dim 1, as in libtorch, rather
  /// than converting the integer to the `unbiased` flag.
  template <class Int, class = std::enable_if_t<std::is_integral_v<Int> &&
                                                !std::is_same_v<Int, bool>>>
  Tensor var(Int dim, bool unbiased = true, bool keepdim = false) const {
    int64_t d = dim;
    return var(IntArrayRef(d), unbiased, keepdim);
  }
  template <class Int, class = std::enable_if_t<std::is_integral_v<Int> &&
                                                !std::is_same_v<Int, bool>>>
  Tensor std(Int dim, bool unbiased = true, bool keepdim = false) const {
    int64_t d = dim;
    return std(IntArrayRef(d), unbiased, keepdim);
  }
  Tensor norm(const Scalar &p = 2) const;
  Tensor norm(const Scalar &p, IntArrayRef dim, bool keepdim = false) const;
  Tensor all() const;
  Tensor all(int64_t dim, bool keepdim = false) const;
  Tensor any() const;
  Tensor any(int64_t dim, bool keepdim = false) const;
  Tensor logsumexp(IntArrayRef dim, bool keepdim = false) const;
  Tensor softmax(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor log_softmax(int64_t dim,
                     std::optional<ScalarType> dtype = std::nullopt) const;
  /// True when both have the same sizes and every element is equal.
  bool equal(const Tensor &other) const;
  bool allclose(const Tensor &other, double rtol = 1e-5, double atol = 1e-8,
                bool equal_nan = false) const;

  // --- Linear algebra -----------------------------------------------------------
  Tensor matmul(const Tensor &other) const;
  Tensor mm(const Tensor &mat2) const;
  Tensor bmm(const Tensor &mat2) const;
  Tensor dot(const Tensor &other) const;
  Tensor mv(const Tensor &vec) const;
  Tensor addmm(const Tensor &mat1, const Tensor &mat2, const Scalar &beta = 1,
               const Scalar &alpha = 1) const;

  // --- Joining and indexing (Ops/Indexing.h) ------------------------------------
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;
  std::vector<Tensor> split(IntArrayRef split_sizes, int64_t dim = 0) const;
  std::vector<Tensor> split_with_sizes(IntArrayRef split_sizes,
                                       int64_t dim = 0) const;
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  std::vector<Tensor> unbind(int64_t dim = 0) const;
  Tensor gather(int64_t dim, const Tensor &index, bool sparse_grad = false) const;
  Tensor scatter(int64_t dim, const Tensor &index, const Tensor &src) const;
  Tensor scatter(int64_t dim, const Tensor &index, const Scalar &value) const;
  Tensor scatter_add(int64_t dim, const Tensor &index, const Tensor &src) const;
  Tensor scatter_reduce(int64_t dim, const Tensor &index, const Tensor &src,
                        const std::string &reduce,
                        bool include_self = true) const;
  const Tensor &scatter_(int64_t dim, const Tensor &index,
                         const Tensor &src) const;
  const Tensor &scatter_(int64_t dim, const Tensor &index,
                         const Scalar &value) const;
  const Tensor &scatter_add_(int64_t dim, const Tensor &index,
                             const Tensor &src) const;
  Tensor index_select(int64_t dim, const Tensor &index) const;
  Tensor masked_fill(const Tensor &mask, const Scalar &value) const;
  Tensor masked_fill(const Tensor &mask, const Tensor &value) const;
  const Tensor &masked_fill_(const Tensor &mask, const Scalar &value) const;
  const Tensor &masked_fill_(const Tensor &mask, const Tensor &value) const;

  // --- Operators ------------------------------------------------------------------
  Tensor operator-() const { return neg(); }
  const Tensor &operator+=(const Tensor &o) const { return add_(o); }
  const Tensor &operator+=(const Scalar &o) const { return add_(o); }
  const Tensor &operator-=(const Tensor &o) const { return sub_(o); }
  const Tensor &operator-=(const Scalar &o) const { return sub_(o); }
  const Tensor &operator*=(const Tensor &o) const { return mul_(o); }
  const Tensor &operator*=(const Scalar &o) const { return mul_(o); }
  const Tensor &operator/=(const Tensor &o) const { return div_(o); }
  const Tensor &operator/=(const Scalar &o) const { return div_(o); }

private:
  TensorImpl &impl() const;
  unsigned registerHook(std::function<Tensor(const Tensor &)> hook) const;

  std::shared_ptr<TensorImpl> impl_;
};

// Arithmetic operators, tensor and scalar on both sides.
Tensor operator+(const Tensor &a, const Tensor &b);
Tensor operator+(const Tensor &a, const Scalar &b);
Tensor operator+(const Scalar &a, const Tensor &b);
Tensor operator-(const Tensor &a, const Tensor &b);
Tensor operator-(const Tensor &a, const Scalar &b);
Tensor operator-(const Scalar &a, const Tensor &b);
Tensor operator*(const Tensor &a, const Tensor &b);
Tensor operator*(const Tensor &a, const Scalar &b);
Tensor operator*(const Scalar &a, const Tensor &b);
Tensor operator/(const Tensor &a, const Tensor &b);
Tensor operator/(const Tensor &a, const Scalar &b);
Tensor operator/(const Scalar &a, const Tensor &b);
Tensor operator==(const Tensor &a, const Tensor &b);
Tensor operator==(const Tensor &a, const Scalar &b);
Tensor operator!=(const Tensor &a, const Tensor &b);
Tensor operator!=(const Tensor &a, const Scalar &b);
Tensor operator<(const Tensor &a, const Tensor &b);
Tensor operator<(const Tensor &a, const Scalar &b);
Tensor operator<=(const Tensor &a, const Tensor &b);
Tensor operator<=(const Tensor &a, const Scalar &b);
Tensor operator>(const Tensor &a, const Tensor &b);
Tensor operator>(const Tensor &a, const Scalar &b);
Tensor operator>=(const Tensor &a, const Tensor &b);
Tensor operator>=(const Tensor &a, const Scalar &b);
/// Elementwise logical and / or (tcc has no bitwise integer ops yet).
Tensor operator&(const Tensor &a, const Tensor &b);
Tensor operator|(const Tensor &a, const Tensor &b);

/// Prints values then `[ CPUFloatType{2,3} ]`, as libtorch does.
std::ostream &operator<<(std::ostream &os, const Tensor &t);
/// libtorch's print with an explicit line width.
std::ostream &print(std::ostream &os, const Tensor &t, int64_t linesize);

} // namespace tcc

#endif // TCC_FRONTEND_TENSOR_H
