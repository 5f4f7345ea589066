//===- Signature.h - What a rank asks of a collective -----------*- C++ -*-===//
//
// A fixed-size record of one collective call (kind, op, root, dtype, shape,
// sequence number) that ranks exchange before the data moves. Comparing the
// gathered records names a rank that disagrees; the same records give every
// rank the row counts of an uneven allgather. Backend-neutral: a backend
// exchanges them with its own allgather.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DISTRIBUTED_LIB_SIGNATURE_H
#define TCC_DISTRIBUTED_LIB_SIGNATURE_H

#include "tcc/Distributed/ProcessGroup.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {
namespace distributed {

enum class CollectiveKind : int64_t {
  Allreduce,
  Broadcast,
  Allgather,
  ReduceScatter,
  Barrier
};
const char *toString(CollectiveKind kind);

struct CollectiveSignature {
  static constexpr int kMaxDims = 10;
  int64_t kind = 0;
  int64_t op = 0;
  int64_t root = 0;
  int64_t dtype = 0;
  int64_t ndim = 0;
  int64_t sequence = 0;
  int64_t dims[kMaxDims] = {};

  /// `tensor` may be undefined (barrier). Dims past kMaxDims are not
  /// recorded; checkSupported refuses such tensors on every rank alike.
  static CollectiveSignature make(CollectiveKind kind, ReduceOp op, int root,
                                  const Tensor &tensor, int64_t sequence);
  static constexpr int kWords = 6 + kMaxDims;

  CollectiveKind collective() const { return CollectiveKind(kind); }
  ReduceOp reduce_op() const { return ReduceOp(op); }
  ScalarType scalar_type() const { return ScalarType(dtype); }
  bool has_op() const;
  bool has_tensor() const;
  /// "allreduce(sum) #3 of Float[4, 3]".
  std::string describe() const;
};
static_assert(sizeof(CollectiveSignature) ==
                  CollectiveSignature::kWords * sizeof(int64_t),
              "exchanged as an array of int64");

/// Empty when every rank's signature agrees (allgather: all but dim 0),
/// else a message naming each distinct signature and its ranks.
std::string findMismatch(const std::vector<CollectiveSignature> &all,
                         const std::string &label);

/// Empty when the backend-neutral rules accept the call (the same answer on
/// every rank once the signatures agree), else why not.
std::string checkSupported(const CollectiveSignature &sig, int worldSize);

/// Rows of dim 0 that rank `rank` of `size` gets when `rows` are split as
/// tensor_split does, and the first of them.
int64_t chunkRows(int64_t rows, int rank, int size);
int64_t chunkStart(int64_t rows, int rank, int size);

} // namespace distributed
} // namespace tcc

#endif // TCC_DISTRIBUTED_LIB_SIGNATURE_H
