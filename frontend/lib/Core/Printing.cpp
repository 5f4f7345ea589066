//===- Printing.cpp - std::cout << tensor, in libtorch's format -----------===//
//
// Same layout rules as libtorch's print(): a common format chosen from the
// range of the values (integers, fixed with 4 decimals, a shared scale
// factor, or scientific), 2-D slices printed as matrices with column
// blocks wrapped at the line width, and a closing `[ CPUFloatType{2,3} ]`.
//
//===----------------------------------------------------------------------===//

#include "TensorInternals.h"

#include "../Ops/TensorIterator.h"

#include "tcc/Frontend/GradMode.h"
#include "tcc/Frontend/OpObserver.h"

#include <cmath>
#include <iomanip>
#include <ostream>
#include <vector>

namespace tcc {
namespace {

struct FormatGuard {
  explicit FormatGuard(std::ostream &out) : out(out), saved(nullptr) {
    saved.copyfmt(out);
  }
  ~FormatGuard() { out.copyfmt(saved); }
  std::ostream &out;
  std::ios saved;
};

std::ios_base &defaultfloat(std::ios_base &b) {
  b.unsetf(std::ios_base::floatfield);
  return b;
}

/// Chooses the number format for `values`; returns (scale, width).
std::pair<double, int64_t> printFormat(std::ostream &out, const double *v,
                                       int64_t size) {
  if (size == 0)
    return {1., 0};
  bool intMode = true;
  for (int64_t i = 0; i < size; ++i)
    if (std::isfinite(v[i]) && v[i] != std::ceil(v[i])) {
      intMode = false;
      break;
    }
  int64_t offset = 0;
  while (offset < size && !std::isfinite(v[offset]))
    ++offset;
  double expMin = 1, expMax = 1;
  if (offset != size) {
    expMin = std::fabs(v[offset]);
    expMax = std::fabs(v[offset]);
    for (int64_t i = offset; i < size; ++i) {
      double z = std::fabs(v[i]);
      if (std::isfinite(z)) {
        expMin = std::min(expMin, z);
        // libtorch compares the signed value here; kept for identical output.
        if (v[i] > expMax)
          expMax = z;
      }
    }
    expMin = expMin != 0 ? std::floor(std::log10(expMin)) + 1 : 1;
    expMax = expMax != 0 ? std::floor(std::log10(expMax)) + 1 : 1;
  }
  double scale = 1;
  int64_t sz = 11;
  if (intMode) {
    if (expMax > 9) {
      sz = 11;
      out << std::scientific << std::setprecision(4);
    } else {
      sz = int64_t(expMax) + 1;
      out << defaultfloat;
    }
  } else {
    if (expMax - expMin > 4) {
      sz = 11;
      if (std::fabs(expMax) > 99 || std::fabs(expMin) > 99)
        sz = sz + 1;
      out << std::scientific << std::setprecision(4);
    } else {
      if (expMax > 5 || expMax < 0) {
        sz = 7;
        scale = std::pow(10, expMax - 1);
        out << std::fixed << std::setprecision(4);
      } else {
        sz = expMax == 0 ? 7 : int64_t(expMax) + 6;
        out << std::fixed << std::setprecision(4);
      }
    }
  }
  return {scale, sz};
}

void printIndent(std::ostream &out, int64_t indent) {
  for (int64_t i = 0; i < indent; ++i)
    out << " ";
}

void printScale(std::ostream &out, double scale) {
  FormatGuard guard(out);
  out << defaultfloat << scale << " *" << std::endl;
}

void printMatrix(std::ostream &out, const double *data, int64_t rows,
                 int64_t cols, int64_t linesize, int64_t indent) {
  auto [scale, sz] = printFormat(out, data, rows * cols);
  printIndent(out, indent);
  int64_t perLine = (linesize - indent) / (sz + 1);
  if (perLine < 1)
    perLine = 1;
  int64_t first = 0, last = -1;
  while (first < cols) {
    last = first + perLine <= cols ? first + perLine - 1 : cols - 1;
    if (perLine < cols) {
      if (first != 0)
        out << std::endl;
      out << "Columns " << first + 1 << " to " << last + 1;
      printIndent(out, indent);
    }
    if (scale != 1) {
      printScale(out, scale);
      printIndent(out, indent);
    }
    for (int64_t l = 0; l < rows; ++l) {
      const double *row = data + l * cols;
      for (int64_t c = first; c < last + 1; ++c) {
        out << std::setw(int(sz)) << row[c] / scale;
        if (c == last) {
          out << std::endl;
          if (l != rows - 1) {
            if (scale != 1) {
              printIndent(out, indent);
              out << " ";
            } else {
              printIndent(out, indent);
            }
          }
        } else {
          out << " ";
        }
      }
    }
    first = last + 1;
  }
}

void printTensor(std::ostream &out, const double *data, IntArrayRef sizes,
                 int64_t linesize) {
  int64_t nd = int64_t(sizes.size());
  std::vector<int64_t> counter(size_t(nd - 2), 0);
  counter[0] = -1;
  int64_t matrix = sizes[size_t(nd - 2)] * sizes[size_t(nd - 1)];
  bool start = true;
  while (true) {
    bool finished = false;
    for (int64_t i = 0; i < nd - 2; ++i) {
      counter[size_t(i)] += 1;
      if (counter[size_t(i)] >= sizes[size_t(i)]) {
        if (i == nd - 3) {
          finished = true;
          break;
        }
        counter[size_t(i)] = 0;
      } else {
        break;
      }
    }
    if (finished)
      break;
    if (start)
      start = false;
    else
      out << std::endl;
    out << "(";
    int64_t offset = 0;
    for (int64_t i = 0; i < nd - 2; ++i) {
      offset = offset * sizes[size_t(i)] + counter[size_t(i)];
      out << counter[size_t(i)] + 1 << ",";
    }
    out << ".,.) = " << std::endl;
    printMatrix(out, data + offset * matrix, sizes[size_t(nd - 2)],
                sizes[size_t(nd - 1)], linesize, 1);
  }
}

} // namespace

std::ostream &print(std::ostream &out, const Tensor &t, int64_t linesize) {
  FormatGuard guard(out);
  if (!t.defined()) {
    out << "[ Tensor (undefined) ]";
    return out;
  }
  std::vector<double> values;
  {
    NoGradGuard noGrad;
    detail::RecordPauseGuard pause;
    Tensor d = detail::castTo(t, kDouble);
    d = detail::contiguousCopyIfNeeded(d);
    const double *p = static_cast<const double *>(d.unsafeGetTensorImpl()->data());
    values.assign(p, p + d.numel());
  }
  IntArrayRef sizes = t.sizes();
  if (t.dim() == 0) {
    out << defaultfloat << values[0] << std::endl;
    out << "[ " << t.toString() << "{}";
  } else if (t.dim() == 1) {
    if (t.numel() > 0) {
      auto [scale, sz] = printFormat(out, values.data(), t.numel());
      if (scale != 1)
        printScale(out, scale);
      for (int64_t i = 0; i < t.size(0); ++i)
        out << std::setw(int(sz)) << values[size_t(i)] / scale << std::endl;
    }
    out << "[ " << t.toString() << "{" << t.size(0) << "}";
  } else if (t.dim() == 2) {
    if (t.numel() > 0)
      printMatrix(out, values.data(), t.size(0), t.size(1), linesize, 0);
    out << "[ " << t.toString() << "{" << t.size(0) << "," << t.size(1) << "}";
  } else {
    if (t.numel() > 0)
      printTensor(out, values.data(), sizes, linesize);
    out << "[ " << t.toString() << "{" << t.size(0);
    for (int64_t i = 1; i < t.dim(); ++i)
      out << "," << t.size(i);
    out << "}";
  }
  out << " ]";
  return out;
}

std::ostream &operator<<(std::ostream &out, const Tensor &t) {
  return print(out, t, 80);
}

} // namespace tcc
