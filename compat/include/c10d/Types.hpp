//===- Types.hpp - c10d's reduce ops and collective options -----*- C++ -*-===//

#ifndef TCC_COMPAT_C10D_TYPES_HPP
#define TCC_COMPAT_C10D_TYPES_HPP

#include "tcc/Distributed/ProcessGroup.h"
#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Error.h"
#include "tcc/tcc.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace at {
using ::tcc::Tensor;
} // namespace at

namespace c10d {

constexpr auto kNoTimeout = std::chrono::milliseconds(0);
constexpr auto kUnsetTimeout = std::chrono::milliseconds(-1);

/// libtorch's ReduceOp: SUM, AVG, MIN and MAX are supported; the others
/// throw naming themselves when a collective uses them.
struct ReduceOp {
  enum RedOpType : uint8_t {
    SUM = 0,
    AVG = 1,
    PRODUCT = 2,
    MIN = 3,
    MAX = 4,
    BAND = 5,
    BOR = 6,
    BXOR = 7,
    PREMUL_SUM = 8,
    UNUSED = 9
  };
  ReduceOp() = default;
  ReduceOp(RedOpType op) : op_(op) {}
  operator RedOpType() const { return op_; }
  bool operator==(const ReduceOp &o) const { return op_ == o.op_; }
  bool operator==(RedOpType o) const { return op_ == o; }

  /// tcc's op; throws for the ones tcc's process groups lack.
  tcc::distributed::ReduceOp toTcc() const {
    switch (op_) {
    case SUM:
      return tcc::distributed::ReduceOp::Sum;
    case AVG:
      return tcc::distributed::ReduceOp::Avg;
    case MIN:
      return tcc::distributed::ReduceOp::Min;
    case MAX:
      return tcc::distributed::ReduceOp::Max;
    default:
      throw tcc::Error("c10d::ReduceOp " + std::to_string(int(op_)) +
                       " (PRODUCT, BAND, BOR, BXOR, PREMUL_SUM) is not "
                       "supported by tcc's process groups; use SUM, AVG, MIN "
                       "or MAX");
    }
  }

  RedOpType op_ = SUM;
};

struct AllreduceOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct BroadcastOptions {
  int64_t rootRank = 0;
  int64_t rootTensor = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct AllgatherOptions {
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct ReduceScatterOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct BarrierOptions {
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

} // namespace c10d

#endif // TCC_COMPAT_C10D_TYPES_HPP
