//===- Binary.cpp - Arithmetic, comparison, logical ops and where ---------===//
//
// Each op: its OpDef, its kernel (a functor over the compute type) and its
// backward formula, in one place.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"

#include "../Autograd/Record.h"
#include "../Core/TensorInternals.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/runtime/ScalarOps.h"

#include <cmath>
#include <cstring>

namespace tcc {
namespace detail {

static const OpDef kAdd{
    "add", "add(Tensor self, Tensor other, Scalar alpha=1) -> Tensor",
    "AddBackward0"};
static const OpDef kSub{
    "sub", "sub(Tensor self, Tensor other, Scalar alpha=1) -> Tensor",
    "SubBackward0"};
static const OpDef kMul{"mul", "mul(Tensor self, Tensor other) -> Tensor",
                        "MulBackward0"};
static const OpDef kDiv{"div", "div(Tensor self, Tensor other) -> Tensor",
                        "DivBackward0"};
static const OpDef kPowTensor{
    "pow", "pow(Tensor self, Tensor exponent) -> Tensor", "PowBackward1"};
static const OpDef kMaximum{"maximum",
                            "maximum(Tensor self, Tensor other) -> Tensor",
                            "MaximumBackward0"};
static const OpDef kMinimum{"minimum",
                            "minimum(Tensor self, Tensor other) -> Tensor",
                            "MinimumBackward0"};
static const OpDef kEq{"eq", "eq(Tensor self, Tensor other) -> Tensor", ""};
static const OpDef kNe{"ne", "ne(Tensor self, Tensor other) -> Tensor", ""};
static const OpDef kLt{"lt", "lt(Tensor self, Tensor other) -> Tensor", ""};
static const OpDef kLe{"le", "le(Tensor self, Tensor other) -> Tensor", ""};
static const OpDef kGt{"gt", "gt(Tensor self, Tensor other) -> Tensor", ""};
static const OpDef kGe{"ge", "ge(Tensor self, Tensor other) -> Tensor", ""};
static const OpDef kLogicalAnd{
    "logical_and", "logical_and(Tensor self, Tensor other) -> Tensor", ""};
static const OpDef kLogicalOr{
    "logical_or", "logical_or(Tensor self, Tensor other) -> Tensor", ""};
static const OpDef kLogicalXor{
    "logical_xor", "logical_xor(Tensor self, Tensor other) -> Tensor", ""};
static const OpDef kWhere{
    "where", "where(Tensor condition, Tensor self, Tensor other) -> Tensor",
    "WhereBackward0"};

void registerBinaryOps() {
  for (const OpDef *op :
       {&kAdd, &kSub, &kMul, &kDiv, &kPowTensor, &kMaximum, &kMinimum, &kEq,
        &kNe, &kLt, &kLe, &kGt, &kGe, &kLogicalAnd, &kLogicalOr, &kLogicalXor,
        &kWhere})
    registerOp(*op);
}

namespace {

void checkAlpha(const Tensor &a, const Tensor &b, const Scalar &alpha) {
  if (alpha.isIntegral(false) && alpha.toLong() == 1)
    return; // the default alpha suits every dtype
  ScalarType t = resultType({a, b});
  TCC_CHECK(!(isIntegralType(t, true) && alpha.isFloatingPoint()),
            "For integral input tensors, argument alpha must not be a "
            "floating point number.");
  TCC_CHECK(t == kBool || !alpha.isBoolean(),
            "Boolean alpha only supported for Boolean results.");
}

Tensor addKernel(const Tensor &out, const Tensor &a, const Tensor &b,
                 const Scalar &alpha, bool subtract) {
  checkAlpha(a, b, alpha);
  if (subtract)
    TCC_CHECK(resultType({a, b}) != kBool,
              "Subtraction, the `-` operator, with two bool tensors is not "
              "supported. Use the `^` or `logical_xor()` operator instead.");
  Scalar al = subtract ? -alpha : alpha;
  bool one = al.toDouble() == 1.0;
  return binaryElementwise(
      out, a, b, config(subtract ? "sub" : "add"), Types::All, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using M = opmath_t<T>;
        M w = al.to<M>();
        return [one, w](T x, T y) -> T {
          if constexpr (std::is_same<T, bool>::value)
            return x || (y && w);
          else if constexpr (std::is_integral<T>::value) // wraps
            return one ? ::tcc::scalar::add(x, y)
                       : ::tcc::scalar::add(x, ::tcc::scalar::mul(w, y));
          else
            return one ? T(M(x) + M(y)) : T(M(x) + w * M(y));
        };
      });
}

Tensor mulKernel(const Tensor &out, const Tensor &a, const Tensor &b) {
  return binaryElementwise(out, a, b, config("mul"), Types::All, [](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    return [](T x, T y) -> T {
      if constexpr (std::is_same<T, bool>::value)
        return x && y;
      else if constexpr (std::is_integral<T>::value) // wraps
        return ::tcc::scalar::mul(x, y);
      else
        return T(M(x) * M(y));
    };
  });
}

Tensor divKernel(const Tensor &out, const Tensor &a, const Tensor &b) {
  return binaryElementwise(out, a, b, config("div", /*intToFloat=*/true),
                           Types::Floating, [](auto tag) {
                             using T = typename decltype(tag)::type;
                             using M = opmath_t<T>;
                             return [](T x, T y) -> T {
                               return T(M(x) / M(y));
                             };
                           });
}

template <class T> T powInt(T base, T exp) {
  if (exp < 0) // PyTorch: integers to negative powers
    return base == 1 ? T(1) : (base == T(-1) ? (exp % 2 ? T(-1) : T(1)) : T(0));
  T r = 1;
  while (exp) {
    if (exp & 1)
      r = T(r * base);
    base = T(base * base);
    exp = T(exp >> 1);
  }
  return r;
}

Tensor powKernel(const Tensor &out, const Tensor &a, const Tensor &b) {
  return binaryElementwise(out, a, b, config("pow"), Types::Numeric,
                           [](auto tag) {
                             using T = typename decltype(tag)::type;
                             using M = opmath_t<T>;
                             return [](T x, T y) -> T {
                               if constexpr (std::is_integral<T>::value)
                                 return powInt<T>(x, y);
                               else
                                 return T(std::pow(M(x), M(y)));
                             };
                           });
}

template <bool IsMax> Tensor minMaxKernel(const Tensor &a, const Tensor &b) {
  return binaryElementwise(
      Tensor(), a, b, config(IsMax ? "maximum" : "minimum"), Types::All,
      [](auto tag) {
        using T = typename decltype(tag)::type;
        using M = opmath_t<T>;
        return [](T x, T y) -> T {
          M mx = M(x), my = M(y);
          return T(IsMax ? ::tcc::scalar::maximum(mx, my)
                         : ::tcc::scalar::minimum(mx, my));
        };
      });
}

enum class Cmp { Eq, Ne, Lt, Le, Gt, Ge };

/// The comparison is a template argument so that each loop compares one
/// way and vectorizes (a switch per element kept relu's backward mask, x >
/// 0, a scalar loop).
template <Cmp C>
Tensor compareWith(const Tensor &a, const Tensor &b, const char *name) {
  return binaryElementwise(Tensor(), a, b, boolConfig(name), Types::All,
                           [](auto tag) {
                             using T = typename decltype(tag)::type;
                             using M = opmath_t<T>;
                             return [](T x, T y) -> bool {
                               M mx = M(x), my = M(y);
                               if constexpr (C == Cmp::Eq)
                                 return mx == my;
                               else if constexpr (C == Cmp::Ne)
                                 return mx != my;
                               else if constexpr (C == Cmp::Lt)
                                 return mx < my;
                               else if constexpr (C == Cmp::Le)
                                 return mx <= my;
                               else if constexpr (C == Cmp::Gt)
                                 return mx > my;
                               else
                                 return mx >= my;
                             };
                           });
}

Tensor compareKernel(const Tensor &a, const Tensor &b, Cmp c,
                     const char *name) {
  switch (c) {
  case Cmp::Eq:
    return compareWith<Cmp::Eq>(a, b, name);
  case Cmp::Ne:
    return compareWith<Cmp::Ne>(a, b, name);
  case Cmp::Lt:
    return compareWith<Cmp::Lt>(a, b, name);
  case Cmp::Le:
    return compareWith<Cmp::Le>(a, b, name);
  case Cmp::Gt:
    return compareWith<Cmp::Gt>(a, b, name);
  case Cmp::Ge:
    break;
  }
  return compareWith<Cmp::Ge>(a, b, name);
}

enum class Logic { And, Or, Xor };
Tensor logicalKernel(const Tensor &a, const Tensor &b, Logic l,
                     const char *name) {
  return binaryElementwise(
      Tensor(), a, b, boolConfig(name), Types::All, [l](auto tag) {
        using T = typename decltype(tag)::type;
        using M = opmath_t<T>;
        return [l](T x, T y) -> bool {
          bool bx = M(x) != M(0), by = M(y) != M(0);
          return l == Logic::And ? (bx && by)
                                 : l == Logic::Or ? (bx || by) : (bx != by);
        };
      });
}

Tensor cmpOp(const OpDef &op, const Tensor &a, const Tensor &b, Cmp c) {
  return recordNonDifferentiable(
      op, {a, b}, [&] { return compareKernel(a, b, c, op.name); }, noAttrs);
}

Tensor logicOp(const OpDef &op, const Tensor &a, const Tensor &b, Logic l) {
  return recordNonDifferentiable(
      op, {a, b}, [&] { return logicalKernel(a, b, l, op.name); }, noAttrs);
}

FunctionNode::Formula addFormula(const Scalar &alpha, bool subtract) {
  double w = subtract ? -alpha.toDouble() : alpha.toDouble();
  return [w](FunctionNode &n, const variable_list &g) -> variable_list {
    return {g[0], n.needs_input_grad(1) ? (w == 1 ? g[0] : g[0] * w)
                                        : Tensor()};
  };
}

FunctionNode::Formula mulFormula(const Tensor &a, const Tensor &b) {
  return [sa = SavedVariable(a, false), sb = SavedVariable(b, false)](
             FunctionNode &n, const variable_list &g) -> variable_list {
    variable_list r(2);
    if (n.needs_input_grad(0))
      r[0] = g[0] * n.unpack(sb);
    if (n.needs_input_grad(1))
      r[1] = g[0] * n.unpack(sa);
    return r;
  };
}

FunctionNode::Formula divFormula(const Tensor &a, const Tensor &b) {
  return [sa = SavedVariable(a, false), sb = SavedVariable(b, false)](
             FunctionNode &n, const variable_list &g) -> variable_list {
    variable_list r(2);
    Tensor bv = n.unpack(sb);
    if (n.needs_input_grad(0))
      r[0] = g[0] / bv;
    if (n.needs_input_grad(1))
      r[1] = -g[0] * n.unpack(sa) / (bv * bv);
    return r;
  };
}

} // namespace

Tensor addImpl(const Tensor &a, const Tensor &b, const Scalar &alpha) {
  return recordOp(
      kAdd, {a, b}, [&] { return addKernel(Tensor(), a, b, alpha, false); },
      [&](const Tensor &) { return addFormula(alpha, false); },
      [&] { return AttrList{{"alpha", scalarAttr(alpha)}}; });
}

Tensor subImpl(const Tensor &a, const Tensor &b, const Scalar &alpha) {
  return recordOp(
      kSub, {a, b}, [&] { return addKernel(Tensor(), a, b, alpha, true); },
      [&](const Tensor &) { return addFormula(alpha, true); },
      [&] { return AttrList{{"alpha", scalarAttr(alpha)}}; });
}

Tensor mulImpl(const Tensor &a, const Tensor &b) {
  return recordOp(
      kMul, {a, b}, [&] { return mulKernel(Tensor(), a, b); },
      [&](const Tensor &) { return mulFormula(a, b); }, noAttrs);
}

Tensor divImpl(const Tensor &a, const Tensor &b) {
  return recordOp(
      kDiv, {a, b}, [&] { return divKernel(Tensor(), a, b); },
      [&](const Tensor &) { return divFormula(a, b); }, noAttrs);
}

} // namespace detail

using namespace detail;

// --- Arithmetic ----------------------------------------------------------

Tensor add(const Tensor &a, const Tensor &b, const Scalar &alpha) {
  return addImpl(a, b, alpha);
}
Tensor add(const Tensor &a, const Scalar &b, const Scalar &alpha) {
  return addImpl(a, wrapScalar(b), alpha);
}
Tensor sub(const Tensor &a, const Tensor &b, const Scalar &alpha) {
  return subImpl(a, b, alpha);
}
Tensor sub(const Tensor &a, const Scalar &b, const Scalar &alpha) {
  return subImpl(a, wrapScalar(b), alpha);
}
Tensor rsub(const Tensor &a, const Scalar &b, const Scalar &alpha) {
  return subImpl(wrapScalar(b), a, alpha);
}
Tensor mul(const Tensor &a, const Tensor &b) { return mulImpl(a, b); }
Tensor mul(const Tensor &a, const Scalar &b) { return mulImpl(a, wrapScalar(b)); }
Tensor div(const Tensor &a, const Tensor &b) { return divImpl(a, b); }
Tensor div(const Tensor &a, const Scalar &b) { return divImpl(a, wrapScalar(b)); }
Tensor div(const Scalar &a, const Tensor &b) { return divImpl(wrapScalar(a), b); }

Tensor &add_out(Tensor &out, const Tensor &a, const Tensor &b,
                const Scalar &alpha) {
  TCC_CHECK(!needsGrad({a, b, out}),
            "add(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.");
  {
    BelowAutograd below;
    addKernel(out, a, b, alpha, false);
  }
  out.unsafeGetTensorImpl()->bumpVersion();
  if (isRecording())
    notifyObserver(kAdd, {a, b}, {{"alpha", scalarAttr(alpha)}}, {out}, true);
  return out;
}
Tensor &sub_out(Tensor &out, const Tensor &a, const Tensor &b,
                const Scalar &alpha) {
  TCC_CHECK(!needsGrad({a, b, out}),
            "sub(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.");
  {
    BelowAutograd below;
    addKernel(out, a, b, alpha, true);
  }
  out.unsafeGetTensorImpl()->bumpVersion();
  if (isRecording())
    notifyObserver(kSub, {a, b}, {{"alpha", scalarAttr(alpha)}}, {out}, true);
  return out;
}
Tensor &mul_out(Tensor &out, const Tensor &a, const Tensor &b) {
  TCC_CHECK(!needsGrad({a, b, out}),
            "mul(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.");
  {
    BelowAutograd below;
    mulKernel(out, a, b);
  }
  out.unsafeGetTensorImpl()->bumpVersion();
  if (isRecording())
    notifyObserver(kMul, {a, b}, {}, {out}, true);
  return out;
}
Tensor &div_out(Tensor &out, const Tensor &a, const Tensor &b) {
  TCC_CHECK(!needsGrad({a, b, out}),
            "div(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.");
  {
    BelowAutograd below;
    divKernel(out, a, b);
  }
  out.unsafeGetTensorImpl()->bumpVersion();
  if (isRecording())
    notifyObserver(kDiv, {a, b}, {}, {out}, true);
  return out;
}

Tensor Tensor::add(const Tensor &o, const Scalar &alpha) const {
  return tcc::add(*this, o, alpha);
}
Tensor Tensor::add(const Scalar &o, const Scalar &alpha) const {
  return tcc::add(*this, o, alpha);
}
Tensor Tensor::sub(const Tensor &o, const Scalar &alpha) const {
  return tcc::sub(*this, o, alpha);
}
Tensor Tensor::sub(const Scalar &o, const Scalar &alpha) const {
  return tcc::sub(*this, o, alpha);
}
Tensor Tensor::mul(const Tensor &o) const { return tcc::mul(*this, o); }
Tensor Tensor::mul(const Scalar &o) const { return tcc::mul(*this, o); }
Tensor Tensor::div(const Tensor &o) const { return tcc::div(*this, o); }
Tensor Tensor::div(const Scalar &o) const { return tcc::div(*this, o); }

const Tensor &Tensor::add_(const Tensor &o, const Scalar &alpha) const {
  return recordInplace(
      kAdd, *this, {*this, o},
      [&] { addKernel(*this, *this, o, alpha, false); },
      [&](const Tensor &v) { return tcc::add(v, o, alpha); },
      [&] { return AttrList{{"alpha", scalarAttr(alpha)}}; },
      /*savesSelf=*/false);
}
const Tensor &Tensor::add_(const Scalar &o, const Scalar &alpha) const {
  return add_(wrapScalar(o), alpha);
}
const Tensor &Tensor::sub_(const Tensor &o, const Scalar &alpha) const {
  return recordInplace(
      kSub, *this, {*this, o},
      [&] { addKernel(*this, *this, o, alpha, true); },
      [&](const Tensor &v) { return tcc::sub(v, o, alpha); },
      [&] { return AttrList{{"alpha", scalarAttr(alpha)}}; },
      /*savesSelf=*/false);
}
const Tensor &Tensor::sub_(const Scalar &o, const Scalar &alpha) const {
  return sub_(wrapScalar(o), alpha);
}
const Tensor &Tensor::mul_(const Tensor &o) const {
  return recordInplace(
      kMul, *this, {*this, o}, [&] { mulKernel(*this, *this, o); },
      [&](const Tensor &v) { return tcc::mul(v, o); }, noAttrs,
      /*savesSelf=*/o.requires_grad());
}
const Tensor &Tensor::mul_(const Scalar &o) const { return mul_(wrapScalar(o)); }
const Tensor &Tensor::div_(const Tensor &o) const {
  return recordInplace(
      kDiv, *this, {*this, o}, [&] { divKernel(*this, *this, o); },
      [&](const Tensor &v) { return tcc::div(v, o); }, noAttrs,
      /*savesSelf=*/o.requires_grad());
}
const Tensor &Tensor::div_(const Scalar &o) const { return div_(wrapScalar(o)); }

Tensor operator+(const Tensor &a, const Tensor &b) { return add(a, b); }
Tensor operator+(const Tensor &a, const Scalar &b) { return add(a, b); }
Tensor operator+(const Scalar &a, const Tensor &b) { return add(b, a); }
Tensor operator-(const Tensor &a, const Tensor &b) { return sub(a, b); }
Tensor operator-(const Tensor &a, const Scalar &b) { return sub(a, b); }
Tensor operator-(const Scalar &a, const Tensor &b) { return rsub(b, a); }
Tensor operator*(const Tensor &a, const Tensor &b) { return mul(a, b); }
Tensor operator*(const Tensor &a, const Scalar &b) { return mul(a, b); }
Tensor operator*(const Scalar &a, const Tensor &b) { return mul(b, a); }
Tensor operator/(const Tensor &a, const Tensor &b) { return div(a, b); }
Tensor operator/(const Tensor &a, const Scalar &b) { return div(a, b); }
Tensor operator/(const Scalar &a, const Tensor &b) { return div(a, b); }

// --- pow, maximum, minimum -------------------------------------------------

Tensor pow(const Tensor &a, const Tensor &b) {
  return recordOp(
      kPowTensor, {a, b}, [&] { return powKernel(Tensor(), a, b); },
      [&](const Tensor &out) -> FunctionNode::Formula {
        return [sa = SavedVariable(a, false), sb = SavedVariable(b, false),
                so = SavedVariable(out, true)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          variable_list r(2);
          Tensor x = n.unpack(sa), e = n.unpack(sb);
          if (n.needs_input_grad(0))
            r[0] = where(e == 0, zeros_like(g[0]),
                         g[0] * e * tcc::pow(x, e - 1));
          if (n.needs_input_grad(1)) {
            Tensor y = n.unpack(so);
            // 0^e has no log; PyTorch defines the gradient as 0 there.
            r[1] = where((x == 0) & (e >= 0), zeros_like(g[0]),
                         g[0] * y * tcc::log(x));
          }
          return r;
        };
      },
      noAttrs);
}

Tensor pow(const Scalar &a, const Tensor &b) {
  return pow(wrapScalar(a), b);
}

Tensor maximum(const Tensor &a, const Tensor &b) {
  return recordOp(
      kMaximum, {a, b}, [&] { return minMaxKernel<true>(a, b); },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [sa = SavedVariable(a, false), sb = SavedVariable(b, false)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor x = n.unpack(sa), y = n.unpack(sb);
          Tensor half = g[0] / 2, zero = zeros_like(g[0]);
          return {where(x > y, g[0], where(x == y, half, zero)),
                  where(y > x, g[0], where(x == y, half, zero))};
        };
      },
      noAttrs);
}

Tensor minimum(const Tensor &a, const Tensor &b) {
  return recordOp(
      kMinimum, {a, b}, [&] { return minMaxKernel<false>(a, b); },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [sa = SavedVariable(a, false), sb = SavedVariable(b, false)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor x = n.unpack(sa), y = n.unpack(sb);
          Tensor half = g[0] / 2, zero = zeros_like(g[0]);
          return {where(x < y, g[0], where(x == y, half, zero)),
                  where(y < x, g[0], where(x == y, half, zero))};
        };
      },
      noAttrs);
}

Tensor Tensor::pow(const Tensor &e) const { return tcc::pow(*this, e); }
Tensor Tensor::maximum(const Tensor &o) const { return tcc::maximum(*this, o); }
Tensor Tensor::minimum(const Tensor &o) const { return tcc::minimum(*this, o); }

// --- Comparisons and logic ------------------------------------------------------

Tensor eq(const Tensor &a, const Tensor &b) { return cmpOp(kEq, a, b, Cmp::Eq); }
Tensor ne(const Tensor &a, const Tensor &b) { return cmpOp(kNe, a, b, Cmp::Ne); }
Tensor lt(const Tensor &a, const Tensor &b) { return cmpOp(kLt, a, b, Cmp::Lt); }
Tensor le(const Tensor &a, const Tensor &b) { return cmpOp(kLe, a, b, Cmp::Le); }
Tensor gt(const Tensor &a, const Tensor &b) { return cmpOp(kGt, a, b, Cmp::Gt); }
Tensor ge(const Tensor &a, const Tensor &b) { return cmpOp(kGe, a, b, Cmp::Ge); }
Tensor eq(const Tensor &a, const Scalar &b) { return eq(a, wrapScalar(b)); }
Tensor ne(const Tensor &a, const Scalar &b) { return ne(a, wrapScalar(b)); }
Tensor lt(const Tensor &a, const Scalar &b) { return lt(a, wrapScalar(b)); }
Tensor le(const Tensor &a, const Scalar &b) { return le(a, wrapScalar(b)); }
Tensor gt(const Tensor &a, const Scalar &b) { return gt(a, wrapScalar(b)); }
Tensor ge(const Tensor &a, const Scalar &b) { return ge(a, wrapScalar(b)); }
Tensor logical_and(const Tensor &a, const Tensor &b) {
  return logicOp(kLogicalAnd, a, b, Logic::And);
}
Tensor logical_or(const Tensor &a, const Tensor &b) {
  return logicOp(kLogicalOr, a, b, Logic::Or);
}
Tensor logical_xor(const Tensor &a, const Tensor &b) {
  return logicOp(kLogicalXor, a, b, Logic::Xor);
}

Tensor Tensor::eq(const Tensor &o) const { return tcc::eq(*this, o); }
Tensor Tensor::eq(const Scalar &o) const { return tcc::eq(*this, o); }
Tensor Tensor::ne(const Tensor &o) const { return tcc::ne(*this, o); }
Tensor Tensor::ne(const Scalar &o) const { return tcc::ne(*this, o); }
Tensor Tensor::lt(const Tensor &o) const { return tcc::lt(*this, o); }
Tensor Tensor::lt(const Scalar &o) const { return tcc::lt(*this, o); }
Tensor Tensor::le(const Tensor &o) const { return tcc::le(*this, o); }
Tensor Tensor::le(const Scalar &o) const { return tcc::le(*this, o); }
Tensor Tensor::gt(const Tensor &o) const { return tcc::gt(*this, o); }
Tensor Tensor::gt(const Scalar &o) const { return tcc::gt(*this, o); }
Tensor Tensor::ge(const Tensor &o) const { return tcc::ge(*this, o); }
Tensor Tensor::ge(const Scalar &o) const { return tcc::ge(*this, o); }
Tensor Tensor::logical_and(const Tensor &o) const {
  return tcc::logical_and(*this, o);
}
Tensor Tensor::logical_or(const Tensor &o) const {
  return tcc::logical_or(*this, o);
}
Tensor Tensor::logical_xor(const Tensor &o) const {
  return tcc::logical_xor(*this, o);
}

Tensor operator==(const Tensor &a, const Tensor &b) { return eq(a, b); }
Tensor operator==(const Tensor &a, const Scalar &b) { return eq(a, b); }
Tensor operator!=(const Tensor &a, const Tensor &b) { return ne(a, b); }
Tensor operator!=(const Tensor &a, const Scalar &b) { return ne(a, b); }
Tensor operator<(const Tensor &a, const Tensor &b) { return lt(a, b); }
Tensor operator<(const Tensor &a, const Scalar &b) { return lt(a, b); }
Tensor operator<=(const Tensor &a, const Tensor &b) { return le(a, b); }
Tensor operator<=(const Tensor &a, const Scalar &b) { return le(a, b); }
Tensor operator>(const Tensor &a, const Tensor &b) { return gt(a, b); }
Tensor operator>(const Tensor &a, const Scalar &b) { return gt(a, b); }
Tensor operator>=(const Tensor &a, const Tensor &b) { return ge(a, b); }
Tensor operator>=(const Tensor &a, const Scalar &b) { return ge(a, b); }
Tensor operator&(const Tensor &a, const Tensor &b) { return logical_and(a, b); }
Tensor operator|(const Tensor &a, const Tensor &b) { return logical_or(a, b); }

// --- where -------------------------------------------------------------------

/// `c ? x : y` as a bit select for floating types: compilers turn the
/// ternary into a branch, which mispredicts on random masks (relu's
/// backward) and blocks vectorization; the mask form vectorizes.
template <class T> inline T selectBranchless(bool c, T x, T y) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    Bits xb, yb;
    std::memcpy(&xb, &x, sizeof(T));
    std::memcpy(&yb, &y, sizeof(T));
    Bits mask = Bits(0) - Bits(c);
    Bits r = (xb & mask) | (yb & ~mask);
    T out;
    std::memcpy(&out, &r, sizeof(T));
    return out;
  } else {
    return c ? x : y;
  }
}

Tensor where(const Tensor &cond, const Tensor &a, const Tensor &b) {
  checkCpu(cond, "where");
  TCC_CHECK(cond.dtype() == kBool || cond.dtype() == kByte,
            "where expected condition to be a boolean tensor, but got a "
            "tensor with dtype ",
            cond.dtype());
  return recordOp(
      kWhere, {cond, a, b},
      [&] {
        ScalarType t = resultType({a, b});
        Tensor c = cond.dtype() == kBool ? cond : castTo(cond, kBool);
        Tensor x = castTo(a, t), y = castTo(b, t);
        IterConfig cfg = config("where");
        cfg.computeDtype = t;
        cfg.castInputs = false;
        TensorIterator it(Tensor(), {c, x, y}, cfg);
        TCC_DISPATCH_ALL_TYPES(t, "where", [&] {
          // The mask is read as bytes: GCC has no vector type for bool
          // loads in target-attribute functions and would not vectorize.
          ternaryKernel<scalar_t, uint8_t, scalar_t, scalar_t>(
              it, [](uint8_t c, scalar_t x, scalar_t y) {
                return selectBranchless(c != 0, x, y);
              });
        });
        return it.output();
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [sc = SavedVariable(cond, false)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor c = n.unpack(sc);
          Tensor zero = zeros_like(g[0]);
          return {Tensor(), n.needs_input_grad(1) ? where(c, g[0], zero) : Tensor(),
                  n.needs_input_grad(2) ? where(c, zero, g[0]) : Tensor()};
        };
      },
      noAttrs);
}
Tensor where(const Tensor &c, const Scalar &a, const Tensor &b) {
  return where(c, wrapScalar(a), b);
}
Tensor where(const Tensor &c, const Tensor &a, const Scalar &b) {
  return where(c, a, wrapScalar(b));
}
Tensor where(const Tensor &c, const Scalar &a, const Scalar &b) {
  return where(c, wrapScalar(a), wrapScalar(b));
}
Tensor Tensor::where(const Tensor &c, const Tensor &o) const {
  return tcc::where(c, *this, o);
}

} // namespace tcc
