//===- TraceContext.cpp - Helpers for trace mappings ----------------------===//

#include "TraceContext.h"
#include "TraceRegistry.h"
#include "Tracer.h"
#include "Types.h"

#include "tcc/IR/TccOps.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

#include <algorithm>

namespace tcc {
namespace jit {

using tcc::detail::AttrValue;

const Tensor &TraceContext::input(size_t i) const {
  if (i >= call_.inputs.size())
    fail("the mapping reads input " + std::to_string(i) + " of " +
         std::to_string(call_.inputs.size()));
  return call_.inputs[i];
}

const Tensor &TraceContext::output(size_t i) const {
  if (i >= call_.outputs.size())
    fail("the mapping reads output " + std::to_string(i) + " of " +
         std::to_string(call_.outputs.size()));
  return call_.outputs[i];
}

// --- Attributes -------------------------------------------------------------

const AttrValue *TraceContext::findAttr(const char *name) const {
  for (const tcc::detail::Attr &a : call_.attrs)
    if (std::string_view(a.name) == name)
      return &a.value;
  return nullptr;
}

bool TraceContext::isNone(const char *name) const {
  const AttrValue *v = findAttr(name);
  return !v || std::holds_alternative<std::monostate>(*v);
}

namespace {
template <class T>
const T &expectAttr(const TraceContext &ctx, const AttrValue *v,
                    const char *name, const char *kind) {
  if (!v)
    ctx.fail(std::string("the call has no attribute '") + name + "'");
  if (const T *t = std::get_if<T>(v))
    return *t;
  ctx.fail(std::string("attribute '") + name + "' is not " + kind);
}
} // namespace

int64_t TraceContext::intAttr(const char *name) const {
  const AttrValue *v = findAttr(name);
  if (v && std::holds_alternative<bool>(*v))
    return std::get<bool>(*v);
  return expectAttr<int64_t>(*this, v, name, "an int");
}

std::optional<int64_t> TraceContext::optIntAttr(const char *name) const {
  if (isNone(name))
    return std::nullopt;
  return intAttr(name);
}

double TraceContext::doubleAttr(const char *name) const {
  const AttrValue *v = findAttr(name);
  if (v && std::holds_alternative<int64_t>(*v))
    return double(std::get<int64_t>(*v));
  if (v && std::holds_alternative<bool>(*v))
    return std::get<bool>(*v);
  return expectAttr<double>(*this, v, name, "a number");
}

bool TraceContext::boolAttr(const char *name) const {
  return expectAttr<bool>(*this, findAttr(name), name, "a bool");
}

std::vector<int64_t> TraceContext::intsAttr(const char *name) const {
  const AttrValue *v = findAttr(name);
  if (v && std::holds_alternative<int64_t>(*v))
    return {std::get<int64_t>(*v)};
  return expectAttr<std::vector<int64_t>>(*this, v, name, "an int list");
}

std::string TraceContext::stringAttr(const char *name) const {
  return expectAttr<std::string>(*this, findAttr(name), name, "a string");
}

std::optional<ScalarType> TraceContext::optDtypeAttr(const char *name) const {
  if (isNone(name))
    return std::nullopt;
  return expectAttr<ScalarType>(*this, findAttr(name), name, "a dtype");
}

Scalar TraceContext::scalarAttr(const char *name) const {
  const AttrValue *v = findAttr(name);
  if (v && std::holds_alternative<bool>(*v))
    return Scalar(std::get<bool>(*v));
  if (v && std::holds_alternative<int64_t>(*v))
    return Scalar(std::get<int64_t>(*v));
  return Scalar(expectAttr<double>(*this, v, name, "a scalar"));
}

// --- Values -----------------------------------------------------------------

mlir::Value TraceContext::value(const Tensor &t) {
  if (!t.defined())
    fail("an input the mapping needs is None");
  // An in-place op reports after writing: its inputs that share the
  // output's storage were just changed by this very op.
  bool justWritten = false;
  if (call_.inplace)
    for (const Tensor &o : call_.outputs)
      justWritten =
          justWritten || (o.defined() && o.unsafeGetTensorImpl()->storage ==
                                             t.unsafeGetTensorImpl()->storage);
  return tracer_.valueOf(t, !justWritten);
}

mlir::Value TraceContext::cast(mlir::Value v, ScalarType dtype) {
  auto type = mlir::cast<mlir::RankedTensorType>(v.getType());
  mlir::RankedTensorType to = this->type(intArrayRef(type.getShape()), dtype);
  if (to == type)
    return v;
  // Inline literals (scalars) are converted here, so the IR shows the value
  // the op uses; weights keep an explicit cast.
  if (auto constant = v.getDefiningOp<mlir::tcc::ConstantOp>())
    if (auto dense =
            mlir::dyn_cast<mlir::DenseElementsAttr>(constant.getValue()))
      return tracer_.constantOp(denseAttrOf(to, tensorOf(dense)));
  return create<mlir::tcc::CastOp>(v, {}, to);
}

mlir::Value TraceContext::scalar(const Scalar &s, ScalarType dtype) {
  return splat(s, dtype, {});
}

mlir::Value TraceContext::splat(const Scalar &s, ScalarType dtype,
                                IntArrayRef shape) {
  Tensor t;
  {
    tcc::detail::RecordPauseGuard pause;
    t = full({}, s, TensorOptions().dtype(dtype));
  }
  return tracer_.constantOp(denseAttrOf(type(shape, dtype), t));
}

mlir::Value TraceContext::reshape(mlir::Value v, IntArrayRef shape) {
  if (shapeOf(v) == std::vector<int64_t>(shape.begin(), shape.end()))
    return v;
  return create<mlir::tcc::ReshapeOp>(v, {}, type(shape, dtypeOf(v)));
}

mlir::Value TraceContext::broadcastTo(mlir::Value v, IntArrayRef shape) {
  if (shapeOf(v) == std::vector<int64_t>(shape.begin(), shape.end()))
    return v;
  return create<mlir::tcc::BroadcastToOp>(v, {}, type(shape, dtypeOf(v)));
}

mlir::Value TraceContext::createOp(llvm::StringRef name,
                                   mlir::ValueRange operands,
                                   llvm::ArrayRef<mlir::NamedAttribute> attrs,
                                   mlir::Type resultType) {
  mlir::MLIRContext *ctx = context();
  mlir::Location loc = tracer_.location();
  DiagnosticCapture diagnostics(ctx);
  if (!resultType) {
    std::optional<mlir::RegisteredOperationName> info =
        mlir::RegisteredOperationName::lookup(name, ctx);
    if (!info || !info->hasInterface<mlir::InferTypeOpInterface>())
      fail("the mapping builds " + name.str() +
           " without a result type, and it cannot infer one");
    // A detached probe op holds the attributes as properties, the form
    // inference reads; its result type is a placeholder.
    mlir::OperationState probeState(loc, name);
    probeState.addOperands(operands);
    probeState.addAttributes(attrs);
    probeState.addTypes(mlir::NoneType::get(ctx));
    mlir::Operation *probe = mlir::Operation::create(probeState);
    llvm::SmallVector<mlir::Type, 1> types;
    mlir::LogicalResult inferred =
        llvm::cast<mlir::InferTypeOpInterface>(probe).inferReturnTypes(
            ctx, loc, probe->getOperands(), probe->getRawDictionaryAttrs(),
            probe->getPropertiesStorage(), probe->getRegions(), types);
    probe->destroy();
    if (mlir::failed(inferred) || types.size() != 1)
      fail(name.str() + " rejects its operands: " + diagnostics.text());
    resultType = types[0];
  }
  mlir::OperationState state(loc, name);
  state.addOperands(operands);
  state.addAttributes(attrs);
  state.addTypes(resultType);
  mlir::Operation *op = tracer_.builder().create(state);
  if (mlir::failed(mlir::verify(op))) {
    std::string message = diagnostics.text();
    op->erase();
    fail(name.str() + " does not verify: " + message);
  }
  return op->getResult(0);
}

// --- Types and attributes
// -----------------------------------------------------

mlir::MLIRContext *TraceContext::context() const { return tracer_.context(); }

mlir::NamedAttribute TraceContext::attr(llvm::StringRef name,
                                        mlir::Attribute value) const {
  return mlir::NamedAttribute(mlir::StringAttr::get(context(), name), value);
}
mlir::NamedAttribute TraceContext::i64Attr(llvm::StringRef name,
                                           int64_t value) const {
  return attr(name, builder().getI64IntegerAttr(value));
}
mlir::NamedAttribute TraceContext::f64Attr(llvm::StringRef name,
                                           double value) const {
  return attr(name, builder().getF64FloatAttr(value));
}
mlir::NamedAttribute TraceContext::boolAttr(llvm::StringRef name,
                                            bool value) const {
  return attr(name, builder().getBoolAttr(value));
}
mlir::NamedAttribute
TraceContext::i64ArrayAttr(llvm::StringRef name,
                           llvm::ArrayRef<int64_t> values) const {
  return attr(name, builder().getDenseI64ArrayAttr(values));
}

mlir::RankedTensorType TraceContext::type(IntArrayRef shape,
                                          ScalarType dtype) const {
  if (!elementTypeOf(context(), dtype))
    fail(missingDtypeMessage("a value it computes", dtype));
  return tensorTypeOf(context(), shape, dtype, "");
}

ScalarType TraceContext::dtypeOf(mlir::Value v) { return valueDtype(v); }

std::vector<int64_t> TraceContext::shapeOf(mlir::Value v) {
  auto shape = mlir::cast<mlir::RankedTensorType>(v.getType()).getShape();
  return std::vector<int64_t>(shape.begin(), shape.end());
}

ScalarType TraceContext::resultType(const Tensor &a, const Tensor &b) const {
  // The eager library's own promotion, run on empty stand-ins with the
  // same dtype, rank class (0-dim or not) and wrapped-number flag.
  tcc::detail::RecordPauseGuard pause;
  NoGradGuard noGrad;
  auto standIn = [](const Tensor &t) {
    Tensor s =
        zeros(t.dim() == 0 ? std::vector<int64_t>{} : std::vector<int64_t>{0},
              TensorOptions().dtype(t.dtype()));
    s.unsafeGetTensorImpl()->wrappedNumber =
        t.unsafeGetTensorImpl()->wrappedNumber;
    return s;
  };
  return tcc::maximum(standIn(a), standIn(b)).dtype();
}

void TraceContext::fail(const std::string &why) const { tracer_.fail(why); }

} // namespace jit
} // namespace tcc
