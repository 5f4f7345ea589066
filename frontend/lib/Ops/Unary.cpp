//===- Unary.cpp - Elementwise math on one tensor -------------------------===//
//
// Each op: its OpDef, its kernel and its backward formula. Float functions
// of integer tensors compute in the default float type, as in PyTorch. What
// a kernel computes per element is tcc/runtime/ScalarOps.h's definition, with
// the vectorizable float approximations of VecMath.h (EagerMath).
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"
#include "VecMath.h"

#include "../Autograd/Record.h"
#include "../Core/TensorInternals.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/runtime/ScalarOps.h"

#include <cmath>

namespace tcc {
namespace detail {

static const OpDef kNeg{"neg", "neg(Tensor self) -> Tensor", "NegBackward0"};
static const OpDef kAbs{"abs", "abs(Tensor self) -> Tensor", "AbsBackward0"};
static const OpDef kExp{"exp", "exp(Tensor self) -> Tensor", "ExpBackward0"};
static const OpDef kLog{"log", "log(Tensor self) -> Tensor", "LogBackward0"};
static const OpDef kLog1p{"log1p", "log1p(Tensor self) -> Tensor",
                          "Log1PBackward0"};
static const OpDef kSqrt{"sqrt", "sqrt(Tensor self) -> Tensor", "SqrtBackward0"};
static const OpDef kRsqrt{"rsqrt", "rsqrt(Tensor self) -> Tensor",
                          "RsqrtBackward0"};
static const OpDef kReciprocal{"reciprocal", "reciprocal(Tensor self) -> Tensor",
                               "ReciprocalBackward0"};
static const OpDef kSin{"sin", "sin(Tensor self) -> Tensor", "SinBackward0"};
static const OpDef kCos{"cos", "cos(Tensor self) -> Tensor", "CosBackward0"};
static const OpDef kTanh{"tanh", "tanh(Tensor self) -> Tensor", "TanhBackward0"};
static const OpDef kSigmoid{"sigmoid", "sigmoid(Tensor self) -> Tensor",
                            "SigmoidBackward0"};
static const OpDef kRelu{"relu", "relu(Tensor self) -> Tensor", "ReluBackward0"};
static const OpDef kGelu{"gelu",
                         "gelu(Tensor self, str approximate='none') -> Tensor",
                         "GeluBackward0"};
static const OpDef kSilu{"silu", "silu(Tensor self) -> Tensor", "SiluBackward0"};
static const OpDef kErf{"erf", "erf(Tensor self) -> Tensor", "ErfBackward0"};
static const OpDef kSign{"sign", "sign(Tensor self) -> Tensor", "SignBackward0"};
static const OpDef kFloor{"floor", "floor(Tensor self) -> Tensor",
                          "FloorBackward0"};
static const OpDef kCeil{"ceil", "ceil(Tensor self) -> Tensor", "CeilBackward0"};
static const OpDef kRound{"round", "round(Tensor self) -> Tensor",
                          "RoundBackward0"};
static const OpDef kPowScalar{
    "pow.scalar", "pow.scalar(Tensor self, Scalar exponent) -> Tensor",
    "PowBackward0"};
static const OpDef kClamp{
    "clamp", "clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor",
    "ClampBackward1"};
static const OpDef kLogicalNot{"logical_not",
                               "logical_not(Tensor self) -> Tensor", ""};
static const OpDef kIsnan{"isnan", "isnan(Tensor self) -> Tensor", ""};

void registerUnaryOps() {
  for (const OpDef *op :
       {&kNeg, &kAbs, &kExp, &kLog, &kLog1p, &kSqrt, &kRsqrt, &kReciprocal,
        &kSin, &kCos, &kTanh, &kSigmoid, &kRelu, &kGelu, &kSilu, &kErf, &kSign,
        &kFloor, &kCeil, &kRound, &kPowScalar, &kClamp, &kLogicalNot, &kIsnan})
    registerOp(*op);
}

namespace {

/// A unary op: kernel from `make` (see Elementwise.h), formula from
/// `formula(self, out)`.
template <class TypesTag, class Make, class Formula>
Tensor unaryOp(const OpDef &op, const Tensor &self, bool intToFloat,
               TypesTag types, Make &&make, Formula &&formula) {
  return recordOp(
      op, {self},
      [&] {
        return unaryElementwise(Tensor(), self, config(op.name, intToFloat),
                                types, make);
      },
      [&](const Tensor &out) { return formula(self, out); }, noAttrs);
}

/// The same kernel writing into self.
template <class TypesTag, class Make>
void unaryInplaceKernel(const Tensor &self, const char *name, TypesTag types,
                        Make &&make) {
  unaryElementwise(self, self, config(name), types, make);
}

#define TCC_FLOAT_FN(EXPR)                                                     \
  [](auto tag) {                                                               \
    using T = typename decltype(tag)::type;                                    \
    using M = opmath_t<T>;                                                     \
    return [](T t) -> T {                                                      \
      M x = M(t);                                                              \
      return T(EXPR);                                                          \
    };                                                                         \
  }

/// The kernel of ScalarOps.h's FN, in opmath with the eager elementary
/// functions where FN takes them.
#define TCC_SCALAR_FN(FN) TCC_FLOAT_FN((::tcc::scalar::FN(x)))
#define TCC_MATH_FN(FN) TCC_FLOAT_FN((::tcc::scalar::FN<M, EagerMath>(x)))

#define TCC_FORMULA(CAPTURES, BODY)                                            \
  [&](const Tensor &self, const Tensor &out) -> FunctionNode::Formula {        \
    (void)self;                                                                \
    (void)out;                                                                 \
    return [CAPTURES](FunctionNode & n,                                        \
                      const variable_list &g) -> variable_list BODY;           \
  }

#define SAVE_SELF sx = SavedVariable(self, false)
#define SAVE_OUT so = SavedVariable(out, true)

constexpr double kSqrt2 = 1.41421356237309504880;
constexpr double kTwoOverSqrtPi = 1.12837916709551257390;
constexpr double kSqrt2OverPi = 0.79788456080286535588;

} // namespace
} // namespace detail

using namespace detail;

Tensor neg(const Tensor &self) {
  TCC_CHECK(self.dtype() != kBool,
            "Negation, the `-` operator, on a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or "
            "`logical_not()` operator instead.");
  return unaryOp(kNeg, self, false, Types::Numeric, TCC_SCALAR_FN(neg),
                 TCC_FORMULA(, { return {-g[0]}; }));
}

Tensor abs(const Tensor &self) {
  return unaryOp(kAbs, self, false, Types::Numeric,
                 TCC_SCALAR_FN(abs),
                 TCC_FORMULA(SAVE_SELF, {
                   return {g[0] * n.unpack(sx).sign()};
                 }));
}

Tensor exp(const Tensor &self) {
  return unaryOp(kExp, self, true, Types::Floating, TCC_MATH_FN(exp),
                 TCC_FORMULA(SAVE_OUT, { return {g[0] * n.unpack(so)}; }));
}

Tensor log(const Tensor &self) {
  return unaryOp(kLog, self, true, Types::Floating, TCC_MATH_FN(log),
                 TCC_FORMULA(SAVE_SELF, { return {g[0] / n.unpack(sx)}; }));
}

Tensor log1p(const Tensor &self) {
  return unaryOp(kLog1p, self, true, Types::Floating, TCC_MATH_FN(log1p),
                 TCC_FORMULA(SAVE_SELF, {
                   return {g[0] / (n.unpack(sx) + 1)};
                 }));
}

Tensor sqrt(const Tensor &self) {
  return unaryOp(kSqrt, self, true, Types::Floating, TCC_SCALAR_FN(sqrt),
                 TCC_FORMULA(SAVE_OUT, {
                   return {g[0] / (2 * n.unpack(so))};
                 }));
}

Tensor rsqrt(const Tensor &self) {
  return unaryOp(kRsqrt, self, true, Types::Floating,
                 TCC_SCALAR_FN(rsqrt), TCC_FORMULA(SAVE_OUT, {
                   Tensor y = n.unpack(so);
                   return {g[0] * y * y * y * -0.5};
                 }));
}

Tensor reciprocal(const Tensor &self) {
  return unaryOp(kReciprocal, self, true, Types::Floating,
                 TCC_FLOAT_FN(M(1) / x), TCC_FORMULA(SAVE_OUT, {
                   Tensor y = n.unpack(so);
                   return {-g[0] * y * y};
                 }));
}

Tensor square(const Tensor &self) { return pow(self, 2); }

Tensor sin(const Tensor &self) {
  return unaryOp(kSin, self, true, Types::Floating, TCC_MATH_FN(sin),
                 TCC_FORMULA(SAVE_SELF, {
                   return {g[0] * n.unpack(sx).cos()};
                 }));
}

Tensor cos(const Tensor &self) {
  return unaryOp(kCos, self, true, Types::Floating, TCC_MATH_FN(cos),
                 TCC_FORMULA(SAVE_SELF, {
                   return {-g[0] * n.unpack(sx).sin()};
                 }));
}

Tensor tanh(const Tensor &self) {
  return unaryOp(kTanh, self, true, Types::Floating, TCC_MATH_FN(tanh),
                 TCC_FORMULA(SAVE_OUT, {
                   Tensor y = n.unpack(so);
                   return {g[0] * (1 - y * y)};
                 }));
}

Tensor sigmoid(const Tensor &self) {
  return unaryOp(kSigmoid, self, true, Types::Floating,
                 TCC_MATH_FN(sigmoid), TCC_FORMULA(SAVE_OUT, {
                   Tensor y = n.unpack(so);
                   return {g[0] * y * (1 - y)};
                 }));
}

Tensor relu(const Tensor &self) {
  TCC_CHECK(self.dtype() != kBool, "relu is not implemented for bool tensors");
  return unaryOp(kRelu, self, false, Types::Numeric,
                 TCC_SCALAR_FN(relu), TCC_FORMULA(SAVE_OUT, {
                   return {where(n.unpack(so) > 0, g[0], 0)};
                 }));
}

Tensor gelu(const Tensor &self, const std::string &approximate) {
  TCC_CHECK(approximate == "none" || approximate == "tanh",
            "approximate argument must be either none or tanh, got '",
            approximate, "'");
  bool useTanh = approximate == "tanh";
  return recordOp(
      kGelu, {self},
      [&] {
        IterConfig cfg = config("gelu", true);
        if (useTanh)
          return unaryElementwise(Tensor(), self, cfg, Types::Floating,
                                  TCC_MATH_FN(geluTanh));
        return unaryElementwise(
            Tensor(), self, cfg, Types::Floating,
            TCC_MATH_FN(gelu));
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [sx = SavedVariable(self, false), useTanh](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor x = n.unpack(sx);
          if (useTanh) {
            Tensor inner = kSqrt2OverPi * (x + 0.044715 * x * x * x);
            Tensor t = inner.tanh();
            Tensor dinner = kSqrt2OverPi * (1 + 3 * 0.044715 * x * x);
            return {g[0] * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * dinner)};
          }
          Tensor cdf = 0.5 * (1 + (x * (1 / kSqrt2)).erf());
          Tensor pdf = (-0.5 * x * x).exp() * (kTwoOverSqrtPi / (2 * kSqrt2));
          return {g[0] * (cdf + x * pdf)};
        };
      },
      [&] { return AttrList{{"approximate", approximate}}; });
}

Tensor silu(const Tensor &self) {
  return unaryOp(kSilu, self, true, Types::Floating,
                 TCC_MATH_FN(silu), TCC_FORMULA(SAVE_SELF, {
                   Tensor x = n.unpack(sx);
                   Tensor s = x.sigmoid();
                   return {g[0] * s * (1 + x * (1 - s))};
                 }));
}

Tensor erf(const Tensor &self) {
  return unaryOp(kErf, self, true, Types::Floating, TCC_MATH_FN(erf),
                 TCC_FORMULA(SAVE_SELF, {
                   Tensor x = n.unpack(sx);
                   return {g[0] * kTwoOverSqrtPi * (-(x * x)).exp()};
                 }));
}

#define TCC_ZERO_GRAD TCC_FORMULA(, { return {zeros_like(g[0])}; })

Tensor sign(const Tensor &self) {
  return unaryOp(kSign, self, false, Types::All,
                 TCC_SCALAR_FN(sign), TCC_ZERO_GRAD);
}

Tensor floor(const Tensor &self) {
  return unaryOp(kFloor, self, false, Types::Numeric,
                 TCC_SCALAR_FN(floor), TCC_ZERO_GRAD);
}

Tensor ceil(const Tensor &self) {
  return unaryOp(kCeil, self, false, Types::Numeric, TCC_SCALAR_FN(ceil),
                 TCC_ZERO_GRAD);
}

Tensor round(const Tensor &self) {
  return unaryOp(kRound, self, false, Types::Numeric,
                 TCC_SCALAR_FN(round), TCC_ZERO_GRAD);
}

Tensor pow(const Tensor &self, const Scalar &e) {
  ScalarType t = resultType({self, wrapScalar(e)});
  TCC_CHECK(!(isIntegralType(t, true) && e.isIntegral(true) && e.toLong() < 0),
            "Integers to negative integer powers are not allowed.");
  return recordOp(
      kPowScalar, {self},
      [&] {
        IterConfig cfg = config("pow");
        cfg.computeDtype = t;
        return unaryElementwise(
            Tensor(), self, cfg, Types::Numeric, [&](auto tag) {
              using T = typename decltype(tag)::type;
              using M = opmath_t<T>;
              M ev = e.to<M>();
              return [ev](T v) -> T {
                M x = M(v);
                if constexpr (std::is_integral<M>::value) {
                  M r = 1, b = x;
                  for (M k = ev; k > 0; k >>= 1, b = M(b * b))
                    if (k & 1)
                      r = M(r * b);
                  return T(r);
                } else {
                  if (ev == M(2))
                    return T(x * x);
                  if (ev == M(0.5))
                    return T(std::sqrt(x));
                  if (ev == M(1))
                    return T(x);
                  if (ev == M(-1))
                    return T(M(1) / x);
                  return T(std::pow(x, ev));
                }
              };
            });
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        double ev = e.toDouble();
        return [sx = SavedVariable(self, false), ev](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          if (ev == 0)
            return {zeros_like(g[0])};
          Tensor x = n.unpack(sx);
          return {g[0] * ev * (ev == 2 ? x : tcc::pow(x, ev - 1))};
        };
      },
      [&] { return AttrList{{"exponent", scalarAttr(e)}}; });
}

Tensor clamp(const Tensor &self, std::optional<Scalar> min,
             std::optional<Scalar> max) {
  TCC_CHECK(min || max, "torch.clamp: At least one of 'min' or 'max' must "
                        "not be None");
  std::vector<Tensor> parts{self};
  if (min)
    parts.push_back(wrapScalar(*min));
  if (max)
    parts.push_back(wrapScalar(*max));
  ScalarType t = resultType(parts);
  return recordOp(
      kClamp, {self},
      [&] {
        IterConfig cfg = config("clamp");
        cfg.computeDtype = t;
        return unaryElementwise(
            Tensor(), self, cfg, Types::Numeric, [&](auto tag) {
              using T = typename decltype(tag)::type;
              using M = opmath_t<T>;
              std::optional<M> lo, hi;
              if (min)
                lo = min->to<M>();
              if (max)
                hi = max->to<M>();
              return [=](T v) -> T {
                return T(::tcc::scalar::clamp(M(v), lo, hi));
              };
            });
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        std::optional<double> lo, hi;
        if (min)
          lo = min->toDouble();
        if (max)
          hi = max->toDouble();
        return [sx = SavedVariable(self, false), lo, hi](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor x = n.unpack(sx);
          Tensor mask = ones_like(x, kBool);
          if (lo)
            mask = mask & (x >= *lo);
          if (hi)
            mask = mask & (x <= *hi);
          return {where(mask, g[0], 0)};
        };
      },
      [&] {
        return AttrList{
            {"min", min ? scalarAttr(*min) : AttrValue()},
            {"max", max ? scalarAttr(*max) : AttrValue()}};
      });
}

Tensor clamp_min(const Tensor &self, const Scalar &min) {
  return clamp(self, min, std::nullopt);
}
Tensor clamp_max(const Tensor &self, const Scalar &max) {
  return clamp(self, std::nullopt, max);
}

Tensor logical_not(const Tensor &self) {
  return recordNonDifferentiable(
      kLogicalNot, {self},
      [&] {
        return unaryElementwise(Tensor(), self, boolConfig("logical_not"),
                                Types::All, [](auto tag) {
                                  using T = typename decltype(tag)::type;
                                  using M = opmath_t<T>;
                                  return [](T x) -> bool {
                                    return ::tcc::scalar::logicalNot(M(x));
                                  };
                                });
      },
      noAttrs);
}

Tensor isnan(const Tensor &self) {
  return recordNonDifferentiable(
      kIsnan, {self},
      [&] {
        return unaryElementwise(Tensor(), self, boolConfig("isnan"),
                                Types::All, [](auto tag) {
                                  using T = typename decltype(tag)::type;
                                  using M = opmath_t<T>;
                                  return [](T x) -> bool {
                                    return M(x) != M(x);
                                  };
                                });
      },
      noAttrs);
}

// --- Methods ------------------------------------------------------------------

Tensor Tensor::neg() const { return tcc::neg(*this); }
Tensor Tensor::abs() const { return tcc::abs(*this); }
Tensor Tensor::exp() const { return tcc::exp(*this); }
Tensor Tensor::log() const { return tcc::log(*this); }
Tensor Tensor::log1p() const { return tcc::log1p(*this); }
Tensor Tensor::sqrt() const { return tcc::sqrt(*this); }
Tensor Tensor::rsqrt() const { return tcc::rsqrt(*this); }
Tensor Tensor::reciprocal() const { return tcc::reciprocal(*this); }
Tensor Tensor::square() const { return tcc::square(*this); }
Tensor Tensor::sin() const { return tcc::sin(*this); }
Tensor Tensor::cos() const { return tcc::cos(*this); }
Tensor Tensor::tanh() const { return tcc::tanh(*this); }
Tensor Tensor::sigmoid() const { return tcc::sigmoid(*this); }
Tensor Tensor::relu() const { return tcc::relu(*this); }
Tensor Tensor::erf() const { return tcc::erf(*this); }
Tensor Tensor::sign() const { return tcc::sign(*this); }
Tensor Tensor::floor() const { return tcc::floor(*this); }
Tensor Tensor::ceil() const { return tcc::ceil(*this); }
Tensor Tensor::round() const { return tcc::round(*this); }
Tensor Tensor::pow(const Scalar &e) const { return tcc::pow(*this, e); }
Tensor Tensor::logical_not() const { return tcc::logical_not(*this); }
Tensor Tensor::clamp(std::optional<Scalar> lo, std::optional<Scalar> hi) const {
  return tcc::clamp(*this, lo, hi);
}
Tensor Tensor::clamp_min(const Scalar &lo) const { return tcc::clamp_min(*this, lo); }
Tensor Tensor::clamp_max(const Scalar &hi) const { return tcc::clamp_max(*this, hi); }

// In-place variants: the kernel writes into self without grad; with grad the
// out-of-place op runs and self takes over its history (Record.h).
#define TCC_INPLACE_UNARY(METHOD, FN, DEF, SAVES)                               \
  const Tensor &Tensor::METHOD() const {                                       \
    return recordInplace(                                                      \
        DEF, *this, {*this}, [&] { copyInto(*this, tcc::FN(*this)); },          \
        [&](const Tensor &v) { return tcc::FN(v); }, noAttrs, SAVES);          \
  }
TCC_INPLACE_UNARY(neg_, neg, kNeg, false)
TCC_INPLACE_UNARY(abs_, abs, kAbs, true)
TCC_INPLACE_UNARY(exp_, exp, kExp, false)
TCC_INPLACE_UNARY(log_, log, kLog, true)
TCC_INPLACE_UNARY(sqrt_, sqrt, kSqrt, false)
TCC_INPLACE_UNARY(tanh_, tanh, kTanh, false)
TCC_INPLACE_UNARY(sigmoid_, sigmoid, kSigmoid, false)
#undef TCC_INPLACE_UNARY

const Tensor &Tensor::relu_() const {
  return recordInplace(
      kRelu, *this, {*this},
      [&] {
        unaryInplaceKernel(*this, "relu_", Types::Numeric,
                           TCC_SCALAR_FN(relu));
      },
      [&](const Tensor &v) { return tcc::relu(v); }, noAttrs, false);
}

const Tensor &Tensor::pow_(const Scalar &e) const {
  return recordInplace(
      kPowScalar, *this, {*this}, [&] { copyInto(*this, tcc::pow(*this, e)); },
      [&](const Tensor &v) { return tcc::pow(v, e); },
      [&] { return AttrList{{"exponent", scalarAttr(e)}}; }, true);
}

const Tensor &Tensor::clamp_(std::optional<Scalar> lo,
                             std::optional<Scalar> hi) const {
  return recordInplace(
      kClamp, *this, {*this}, [&] { copyInto(*this, tcc::clamp(*this, lo, hi)); },
      [&](const Tensor &v) { return tcc::clamp(v, lo, hi); },
      [&] {
        return AttrList{{"min", lo ? scalarAttr(*lo) : AttrValue()},
                        {"max", hi ? scalarAttr(*hi) : AttrValue()}};
      },
      true);
}
const Tensor &Tensor::clamp_min_(const Scalar &lo) const {
  return clamp_(lo, std::nullopt);
}
const Tensor &Tensor::clamp_max_(const Scalar &hi) const {
  return clamp_(std::nullopt, hi);
}

} // namespace tcc
