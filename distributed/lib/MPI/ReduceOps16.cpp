//===- ReduceOps16.cpp - User-defined MPI_Ops for Half and BFloat16 -------===//

#include "ReduceOps16.h"

#include "tcc/Frontend/Half.h"

#include <algorithm>
#include <cmath>

namespace tcc {
namespace distributed {
namespace {

struct Sum {
  float operator()(float a, float b) const { return a + b; }
};
// NaN wins, as the eager max/min reductions propagate it.
struct Max {
  float operator()(float a, float b) const {
    return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
  }
};
struct Min {
  float operator()(float a, float b) const {
    return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
  }
};

template <class T, class Combine>
void combine(void *in, void *inout, int *len, MPI_Datatype *) {
  const T *a = static_cast<const T *>(in);
  T *b = static_cast<T *>(inout);
  for (int i = 0; i < *len; ++i)
    b[i] = T(Combine()(float(a[i]), float(b[i])));
}

// [dtype: 0 Half, 1 BFloat16][op: Sum, Max, Min]
MPI_Op ops[2][3] = {{MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL},
                    {MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL}};

template <class T> void createFor(MPI_Op (&row)[3]) {
  MPI_Op_create(combine<T, Sum>, /*commute=*/1, &row[0]);
  MPI_Op_create(combine<T, Max>, 1, &row[1]);
  MPI_Op_create(combine<T, Min>, 1, &row[2]);
}

} // namespace

void createReduceOps16() {
  createFor<Half>(ops[0]);
  createFor<BFloat16>(ops[1]);
}

void freeReduceOps16() {
  for (auto &row : ops)
    for (MPI_Op &op : row)
      if (op != MPI_OP_NULL)
        MPI_Op_free(&op);
}

MPI_Op reduceOp16(ScalarType type, ReduceOp op) {
  int column = op == ReduceOp::Max ? 1 : op == ReduceOp::Min ? 2 : 0;
  return ops[type == kHalf ? 0 : 1][column];
}

} // namespace distributed
} // namespace tcc
