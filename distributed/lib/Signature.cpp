//===- Signature.cpp - Comparing collective calls across ranks ------------===//

#include "Signature.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <sstream>

namespace tcc {
namespace distributed {

const char *toString(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::Allreduce:
    return "allreduce";
  case CollectiveKind::Broadcast:
    return "broadcast";
  case CollectiveKind::Allgather:
    return "allgather";
  case CollectiveKind::ReduceScatter:
    return "reduce_scatter";
  case CollectiveKind::Barrier:
    return "barrier";
  }
  return "unknown collective";
}

CollectiveSignature CollectiveSignature::make(CollectiveKind kind, ReduceOp op,
                                              int root, const Tensor &tensor,
                                              int64_t sequence) {
  CollectiveSignature s;
  s.kind = int64_t(kind);
  s.op = int64_t(op);
  s.root = root;
  s.sequence = sequence;
  if (tensor.defined()) {
    s.dtype = int64_t(tensor.scalar_type());
    s.ndim = tensor.dim();
    for (int64_t d = 0; d < std::min<int64_t>(s.ndim, kMaxDims); ++d)
      s.dims[d] = tensor.size(d);
  }
  return s;
}

bool CollectiveSignature::has_op() const {
  return collective() == CollectiveKind::Allreduce ||
         collective() == CollectiveKind::ReduceScatter;
}

bool CollectiveSignature::has_tensor() const {
  return collective() != CollectiveKind::Barrier;
}

std::string CollectiveSignature::describe() const {
  std::ostringstream os;
  os << toString(collective());
  if (has_op())
    os << "(" << toString(reduce_op()) << ")";
  if (collective() == CollectiveKind::Broadcast)
    os << "(root " << root << ")";
  os << " #" << sequence;
  if (has_tensor()) {
    os << " of " << toString(scalar_type()) << "[";
    for (int64_t d = 0; d < std::min<int64_t>(ndim, kMaxDims); ++d)
      os << (d ? ", " : "") << dims[d];
    if (ndim > kMaxDims)
      os << ", ...";
    os << "]";
  }
  return os.str();
}

namespace {

/// The fields that must agree; allgather's dim 0 may differ per rank.
CollectiveSignature comparable(CollectiveSignature s) {
  if (s.collective() == CollectiveKind::Allgather && s.ndim > 0)
    s.dims[0] = -1;
  return s;
}

bool sameCall(const CollectiveSignature &a, const CollectiveSignature &b) {
  CollectiveSignature x = comparable(a), y = comparable(b);
  return std::memcmp(&x, &y, sizeof(x)) == 0;
}

} // namespace

std::string findMismatch(const std::vector<CollectiveSignature> &all,
                         const std::string &label) {
  bool agree = std::all_of(all.begin(), all.end(), [&](const auto &s) {
    return sameCall(s, all.front());
  });
  if (agree)
    return "";
  // Group ranks by what they called.
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  std::map<std::string, size_t> index;
  for (size_t r = 0; r < all.size(); ++r) {
    std::string d = all[r].describe();
    auto [it, fresh] = index.emplace(d, groups.size());
    if (fresh)
      groups.push_back({d, {}});
    groups[it->second].second.push_back(int(r));
  }
  std::ostringstream os;
  os << "tcc::distributed: ranks called different collectives";
  if (!label.empty())
    os << " (tensor '" << label << "')";
  os << ": ";
  for (size_t g = 0; g < groups.size(); ++g) {
    os << (g ? "; " : "") << (groups[g].second.size() > 1 ? "ranks " : "rank ");
    for (size_t i = 0; i < groups[g].second.size(); ++i)
      os << (i ? ", " : "") << groups[g].second[i];
    os << " called " << groups[g].first;
  }
  os << ". Every rank must pass tensors of the same dtype and shape"
     << (all.front().collective() == CollectiveKind::Allgather
             ? " (allgather: except dim 0)"
             : "")
     << " to the same collectives in the same order";
  return os.str();
}

std::string checkSupported(const CollectiveSignature &sig, int worldSize) {
  std::ostringstream os;
  os << "tcc::distributed: " << sig.describe() << ": ";
  if (!sig.has_tensor())
    return "";
  if (sig.ndim > CollectiveSignature::kMaxDims) {
    os << "tensors of more than " << CollectiveSignature::kMaxDims
       << " dims are not supported";
    return os.str();
  }
  ScalarType t = sig.scalar_type();
  if (t == kBool && sig.has_op()) {
    os << "Bool tensors cannot be reduced (broadcast and allgather them, or "
          "convert to an integer dtype)";
    return os.str();
  }
  if (sig.has_op() && sig.reduce_op() == ReduceOp::Avg && !isFloatingType(t)) {
    os << "avg needs a floating-point dtype, not " << toString(t)
       << " (reduce with sum and divide)";
    return os.str();
  }
  if (sig.collective() == CollectiveKind::Broadcast &&
      (sig.root < 0 || sig.root >= worldSize)) {
    os << "root " << sig.root << " is not a rank of this group of "
       << worldSize;
    return os.str();
  }
  if (sig.collective() == CollectiveKind::ReduceScatter && sig.ndim == 0) {
    os << "reduce_scatter needs a tensor with at least one dim to split";
    return os.str();
  }
  int64_t numel = 1;
  for (int64_t d = 0; d < sig.ndim; ++d)
    numel *= sig.dims[d];
  if (numel > INT_MAX) {
    os << numel << " elements are more than one collective moves (2^31 - 1); "
          "split the tensor";
    return os.str();
  }
  return "";
}

int64_t chunkRows(int64_t rows, int rank, int size) {
  return rows / size + (rank < rows % size ? 1 : 0);
}

int64_t chunkStart(int64_t rows, int rank, int size) {
  return rank * (rows / size) + std::min<int64_t>(rank, rows % size);
}

} // namespace distributed
} // namespace tcc
