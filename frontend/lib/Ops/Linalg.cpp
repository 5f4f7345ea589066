//===- Linalg.cpp - mm, bmm, addmm, dot, mv, matmul -----------------------===//

#include "Dispatch.h"
#include "Gemm.h"
#include "TensorIterator.h"

#include "../Autograd/Record.h"
#include "../Core/TensorInternals.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"

namespace tcc {
namespace detail {

static const OpDef kMm{"mm", "mm(Tensor self, Tensor mat2) -> Tensor",
                       "MmBackward0"};
static const OpDef kBmm{"bmm", "bmm(Tensor self, Tensor mat2) -> Tensor",
                        "BmmBackward0"};
static const OpDef kAddmm{"addmm",
                          "addmm(Tensor self, Tensor mat1, Tensor mat2, Scalar "
                          "beta=1, Scalar alpha=1) -> Tensor",
                          "AddmmBackward0"};
static const OpDef kDot{"dot", "dot(Tensor self, Tensor other) -> Tensor",
                        "DotBackward0"};
static const OpDef kMv{"mv", "mv(Tensor self, Tensor vec) -> Tensor",
                       "MvBackward0"};
static const OpDef kMatmul{"matmul", "matmul(Tensor self, Tensor other) -> Tensor",
                           ""};

void registerLinalgOps() {
  for (const OpDef *op : {&kMm, &kBmm, &kAddmm, &kDot, &kMv, &kMatmul})
    registerOp(*op);
}

namespace {

const char *cTypeName(ScalarType t) {
  switch (t) {
  case kFloat:
    return "float";
  case kDouble:
    return "double";
  case kHalf:
    return "c10::Half";
  case kBFloat16:
    return "c10::BFloat16";
  case kLong:
    return "long int";
  case kInt:
    return "int";
  case kShort:
    return "short int";
  case kChar:
    return "signed char";
  case kByte:
    return "unsigned char";
  case kBool:
    return "bool";
  default:
    return "undefined";
  }
}

void checkSameDtype(const Tensor &a, const Tensor &b, const char *an,
                    const char *bn) {
  TCC_CHECK(a.dtype() == b.dtype(), "expected ", an, " and ", bn,
            " to have the same dtype, but got: ", cTypeName(a.dtype()),
            " != ", cTypeName(b.dtype()));
  TCC_CHECK(a.dtype() != kBool, "\"addmm_impl_cpu_\" not implemented for 'Bool'");
}

/// c[b] = alpha * a[b] @ m[b] + beta * c[b] over `batch` matrices of
/// contiguous [n, k] and [k, p] operands.
void batchedGemm(const Tensor &a, const Tensor &m, const Tensor &c,
                 int64_t batch, int64_t n, int64_t k, int64_t p, double alpha,
                 double beta) {
  TCC_DISPATCH_NUMERIC_TYPES(a.dtype(), "mm", [&] {
    using T = scalar_t;
    const T *ap = static_cast<const T *>(a.unsafeGetTensorImpl()->data());
    const T *mp = static_cast<const T *>(m.unsafeGetTensorImpl()->data());
    T *cp = static_cast<T *>(c.unsafeGetTensorImpl()->data());
    for (int64_t i = 0; i < batch; ++i)
      gemm<T>(n, p, k, alpha, ap + i * n * k, k, mp + i * k * p, p, beta,
              cp + i * n * p, p);
  });
}

Tensor mmKernel(const Tensor &a, const Tensor &b) {
  Tensor ac = contiguousCopyIfNeeded(a), bc = contiguousCopyIfNeeded(b);
  Tensor out = makeEmpty({a.size(0), b.size(1)}, a.dtype());
  if (out.numel() == 0)
    return out;
  if (a.size(1) == 0)
    return out.zero_();
  batchedGemm(ac, bc, out, 1, a.size(0), a.size(1), b.size(1), 1.0, 0.0);
  return out;
}

} // namespace

Tensor contiguousCopyIfNeeded(const Tensor &t) {
  return t.is_contiguous() ? t : contiguousCopy(t);
}

} // namespace detail

using namespace detail;

Tensor mm(const Tensor &a, const Tensor &b) {
  checkCpu(a, "mm");
  checkCpu(b, "mm");
  TCC_CHECK(a.dim() == 2, "self must be a matrix");
  TCC_CHECK(b.dim() == 2, "mat2 must be a matrix");
  TCC_CHECK(a.size(1) == b.size(0), "mat1 and mat2 shapes cannot be "
                                    "multiplied (",
            a.size(0), "x", a.size(1), " and ", b.size(0), "x", b.size(1), ")");
  checkSameDtype(a, b, "mat1", "mat2");
  return recordOp(
      kMm, {a, b}, [&] { return mmKernel(a, b); },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [sa = SavedVariable(a, false), sb = SavedVariable(b, false)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          variable_list r(2);
          if (n.needs_input_grad(0))
            r[0] = g[0].mm(n.unpack(sb).t());
          if (n.needs_input_grad(1))
            r[1] = n.unpack(sa).t().mm(g[0]);
          return r;
        };
      },
      noAttrs);
}

Tensor bmm(const Tensor &a, const Tensor &b) {
  checkCpu(a, "bmm");
  checkCpu(b, "bmm");
  TCC_CHECK(a.dim() == 3, "batch1 must be a 3D tensor");
  TCC_CHECK(b.dim() == 3, "batch2 must be a 3D tensor");
  TCC_CHECK(a.size(0) == b.size(0) && a.size(2) == b.size(1),
            "Expected size for first two dimensions of batch2 tensor to be: [",
            a.size(0), ", ", a.size(2), "] but got: [", b.size(0), ", ",
            b.size(1), "].");
  checkSameDtype(a, b, "batch1", "batch2");
  return recordOp(
      kBmm, {a, b},
      [&] {
        Tensor ac = contiguousCopyIfNeeded(a), bc = contiguousCopyIfNeeded(b);
        Tensor out = makeEmpty({a.size(0), a.size(1), b.size(2)}, a.dtype());
        if (out.numel() == 0)
          return out;
        if (a.size(2) == 0)
          return out.zero_();
        batchedGemm(ac, bc, out, a.size(0), a.size(1), a.size(2), b.size(2),
                    1.0, 0.0);
        return out;
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [sa = SavedVariable(a, false), sb = SavedVariable(b, false)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          variable_list r(2);
          if (n.needs_input_grad(0))
            r[0] = g[0].bmm(n.unpack(sb).transpose(1, 2));
          if (n.needs_input_grad(1))
            r[1] = n.unpack(sa).transpose(1, 2).bmm(g[0]);
          return r;
        };
      },
      noAttrs);
}

Tensor addmm(const Tensor &self, const Tensor &a, const Tensor &b,
             const Scalar &beta, const Scalar &alpha) {
  checkCpu(self, "addmm");
  TCC_CHECK(a.dim() == 2, "mat1 must be a matrix, got ", a.dim(), "-D tensor");
  TCC_CHECK(b.dim() == 2, "mat2 must be a matrix, got ", b.dim(), "-D tensor");
  TCC_CHECK(a.size(1) == b.size(0), "mat1 and mat2 shapes cannot be "
                                    "multiplied (",
            a.size(0), "x", a.size(1), " and ", b.size(0), "x", b.size(1), ")");
  checkSameDtype(a, b, "mat1", "mat2");
  checkSameDtype(self, a, "self", "mat1");
  DimVector outShape{a.size(0), b.size(1)};
  DimVector bshape = broadcastShape(outShape, self.sizes());
  TCC_CHECK(IntArrayRef(bshape).equals(outShape),
            "The expanded size of the tensor (", b.size(1),
            ") must match the existing size (",
            self.dim() ? self.size(-1) : 1,
            ") at non-singleton dimension 1.  Target sizes: ",
            IntArrayRef(outShape), ".  Tensor sizes: ", self.sizes());
  double be = beta.toDouble(), al = alpha.toDouble();
  return recordOp(
      kAddmm, {self, a, b},
      [&] {
        Tensor out = makeEmpty(outShape, a.dtype());
        if (be != 0)
          copyInto(out, self);
        if (out.numel() == 0)
          return out;
        if (a.size(1) == 0) {
          if (be == 0)
            out.zero_();
          else if (be != 1)
            out.mul_(be);
          return out;
        }
        batchedGemm(contiguousCopyIfNeeded(a), contiguousCopyIfNeeded(b), out,
                    1, a.size(0), a.size(1), b.size(1), al, be);
        return out;
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [sa = SavedVariable(a, false), sb = SavedVariable(b, false), al,
                be](FunctionNode &n, const variable_list &g) -> variable_list {
          variable_list r(3);
          if (n.needs_input_grad(0))
            r[0] = be == 1 ? g[0] : g[0] * be;
          if (n.needs_input_grad(1)) {
            Tensor t = g[0].mm(n.unpack(sb).t());
            r[1] = al == 1 ? t : t * al;
          }
          if (n.needs_input_grad(2)) {
            Tensor t = n.unpack(sa).t().mm(g[0]);
            r[2] = al == 1 ? t : t * al;
          }
          return r;
        };
      },
      [&] {
        return AttrList{{"beta", scalarAttr(beta)}, {"alpha", scalarAttr(alpha)}};
      });
}

Tensor dot(const Tensor &a, const Tensor &b) {
  checkCpu(a, "dot");
  checkCpu(b, "dot");
  TCC_CHECK(a.dim() == 1 && b.dim() == 1,
            "1D tensors expected, but got ", a.dim(), "D and ", b.dim(),
            "D tensors");
  TCC_CHECK(a.numel() == b.numel(),
            "inconsistent tensor size, expected tensor [", a.numel(),
            "] and src [", b.numel(),
            "] to have the same number of elements, but got ", a.numel(),
            " and ", b.numel(), " elements respectively");
  TCC_CHECK(a.dtype() == b.dtype(),
            "dot : expected both vectors to have same dtype, but found ",
            a.dtype(), " and ", b.dtype());
  return recordOp(
      kDot, {a, b},
      [&] { return mmKernel(a.view({1, -1}), b.view({-1, 1})).view({}); },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [sa = SavedVariable(a, false), sb = SavedVariable(b, false)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          variable_list r(2);
          if (n.needs_input_grad(0))
            r[0] = g[0] * n.unpack(sb);
          if (n.needs_input_grad(1))
            r[1] = g[0] * n.unpack(sa);
          return r;
        };
      },
      noAttrs);
}

Tensor mv(const Tensor &a, const Tensor &v) {
  checkCpu(a, "mv");
  checkCpu(v, "mv");
  TCC_CHECK(a.dim() == 2 && v.dim() == 1,
            "vector + matrix @ vector expected, got ", a.dim(), ", ", v.dim());
  TCC_CHECK(a.size(1) == v.size(0), "size mismatch, got input (", a.size(0),
            "), mat (", a.size(0), "x", a.size(1), "), vec (", v.size(0), ")");
  checkSameDtype(a, v, "mat", "vec");
  return recordOp(
      kMv, {a, v},
      [&] { return mmKernel(a, v.view({-1, 1})).view({a.size(0)}); },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [sa = SavedVariable(a, false), sv = SavedVariable(v, false)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          variable_list r(2);
          if (n.needs_input_grad(0))
            r[0] = g[0].unsqueeze(1).mm(n.unpack(sv).unsqueeze(0));
          if (n.needs_input_grad(1))
            r[1] = n.unpack(sa).t().mv(g[0]);
          return r;
        };
      },
      noAttrs);
}

/// torch.matmul's dispatch on the operands' ranks.
static Tensor matmulImpl(const Tensor &a, const Tensor &b) {
  checkCpu(a, "matmul");
  checkCpu(b, "matmul");
  int64_t da = a.dim(), db = b.dim();
  TCC_CHECK(da > 0 && db > 0, "both arguments to matmul need to be at least "
                              "1D, but they are ",
            da, "D and ", db, "D");
  if (da == 1 && db == 1)
    return dot(a, b);
  if (da == 2 && db == 1)
    return mv(a, b);
  if (da == 1 && db == 2)
    return a.unsqueeze(0).mm(b).squeeze(0);
  if (da == 2 && db == 2)
    return mm(a, b);
  if (da >= 3 && db <= 2) {
    // Fold the batch into rows: [..., n, k] @ [k, p].
    Tensor bb = db == 1 ? b.unsqueeze(1) : b;
    TCC_CHECK(a.size(-1) == bb.size(0), "mat1 and mat2 shapes cannot be "
                                        "multiplied (",
              a.numel() / a.size(-1), "x", a.size(-1), " and ", bb.size(0),
              "x", bb.size(1), ")");
    DimVector outShape(a.sizes());
    outShape.back() = bb.size(1);
    Tensor r = a.reshape({-1, a.size(-1)}).mm(bb).view(outShape);
    return db == 1 ? r.squeeze(-1) : r;
  }
  // General batched case with broadcast batch dims.
  Tensor x = da == 1 ? a.unsqueeze(0) : a;
  Tensor y = db == 1 ? b.unsqueeze(1) : b;
  int64_t n = x.size(-2), k = x.size(-1), k2 = y.size(-2), p = y.size(-1);
  TCC_CHECK(k == k2, "Expected size for first two dimensions of batch2 "
                     "tensor to be: [",
            k, ", ", p, "] but got: [", k2, ", ", p, "].");
  IntArrayRef xb = x.sizes().slice(0, size_t(x.dim() - 2));
  IntArrayRef yb = y.sizes().slice(0, size_t(y.dim() - 2));
  DimVector batch = broadcastShape(xb, yb);
  int64_t batchCount = 1;
  for (int64_t s : batch)
    batchCount *= s;
  DimVector xs(batch), ys(batch);
  xs.push_back(n);
  xs.push_back(k);
  ys.push_back(k);
  ys.push_back(p);
  Tensor x3 = x.expand(xs).reshape({batchCount, n, k});
  Tensor y3 = y.expand(ys).reshape({batchCount, k, p});
  DimVector outShape(batch);
  if (da > 1)
    outShape.push_back(n);
  if (db > 1)
    outShape.push_back(p);
  return x3.bmm(y3).view(outShape);
}

Tensor matmul(const Tensor &a, const Tensor &b) {
  return recordComposite(kMatmul, {a, b}, [&] { return matmulImpl(a, b); },
                         noAttrs);
}

Tensor Tensor::matmul(const Tensor &o) const { return tcc::matmul(*this, o); }
Tensor Tensor::mm(const Tensor &o) const { return tcc::mm(*this, o); }
Tensor Tensor::bmm(const Tensor &o) const { return tcc::bmm(*this, o); }
Tensor Tensor::dot(const Tensor &o) const { return tcc::dot(*this, o); }
Tensor Tensor::mv(const Tensor &o) const { return tcc::mv(*this, o); }
Tensor Tensor::addmm(const Tensor &a, const Tensor &b, const Scalar &beta,
                     const Scalar &alpha) const {
  return tcc::addmm(*this, a, b, beta, alpha);
}

} // namespace tcc
