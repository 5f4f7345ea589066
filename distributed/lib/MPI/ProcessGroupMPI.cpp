//===- ProcessGroupMPI.cpp - The "mpi" backend ----------------------------===//
//
// Each collective becomes a job on the MPI thread (MpiThread.h): exchange
// the signatures (MPI_Iallgather), compare them, then move the data with
// the matching non-blocking MPI collective, each request polled against the
// timeout. The caller's tensor is used in place when it is contiguous, else
// through a contiguous copy written back by wait().
//
//===----------------------------------------------------------------------===//

#include "../BuiltinBackends.h"
#include "../Signature.h"
#include "MpiThread.h"
#include "ReduceOps16.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/GradMode.h"

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <condition_variable>
#include <exception>
#include <mutex>

namespace tcc {
namespace distributed {
namespace {

MPI_Datatype mpiType(ScalarType t) {
  switch (t) {
  case kFloat:
    return MPI_FLOAT;
  case kDouble:
    return MPI_DOUBLE;
  case kInt:
    return MPI_INT32_T;
  case kLong:
    return MPI_INT64_T;
  case kShort:
    return MPI_INT16_T;
  case kChar:
    return MPI_INT8_T;
  case kByte:
  case kBool:
    return MPI_UINT8_T;
  case kHalf:
  case kBFloat16:
    return MPI_UINT16_T;
  default:
    return MPI_DATATYPE_NULL;
  }
}

MPI_Op mpiOp(ScalarType t, ReduceOp op) {
  if (t == kHalf || t == kBFloat16)
    return reduceOp16(t, op);
  switch (op) {
  case ReduceOp::Sum:
  case ReduceOp::Avg:
    return MPI_SUM;
  case ReduceOp::Max:
    return MPI_MAX;
  case ReduceOp::Min:
    return MPI_MIN;
  }
  return MPI_OP_NULL;
}

template <class T> void divideAll(void *data, int64_t n, int by) {
  T *p = static_cast<T *>(data);
  for (int64_t i = 0; i < n; ++i)
    p[i] = T(float(p[i]) / float(by));
}

/// Avg: the sum divided by the group's size, in the tensor's dtype
/// (float16/bfloat16 through float, as the eager division does).
void divideInPlace(void *data, int64_t n, ScalarType t, int by) {
  switch (t) {
  case kFloat: {
    float *p = static_cast<float *>(data);
    for (int64_t i = 0; i < n; ++i)
      p[i] /= float(by);
    return;
  }
  case kDouble: {
    double *p = static_cast<double *>(data);
    for (int64_t i = 0; i < n; ++i)
      p[i] /= double(by);
    return;
  }
  case kHalf:
    return divideAll<Half>(data, n, by);
  case kBFloat16:
    return divideAll<BFloat16>(data, n, by);
  default:
    return; // checkSupported refuses avg of other dtypes
  }
}

class MpiWork : public Work {
public:
  void wait() override {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return finished_; });
    if (error_)
      std::rethrow_exception(error_);
    if (needsCopyBack_) {
      needsCopyBack_ = false;
      NoGradGuard noGrad;
      target_.copy_(result_);
      result_ = target_;
    }
  }
  bool is_completed() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return finished_;
  }
  Tensor result() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return result_;
  }

  /// The tensor a non-contiguous input's result is copied back into.
  void copyBackInto(Tensor target) {
    target_ = std::move(target);
    needsCopyBack_ = true;
  }
  void finish(Tensor result, std::exception_ptr error) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      result_ = std::move(result);
      error_ = error;
      finished_ = true;
      target_ = error ? Tensor() : target_;
    }
    done_.notify_all();
  }

private:
  std::mutex mutex_;
  std::condition_variable done_;
  bool finished_ = false;
  bool needsCopyBack_ = false;
  std::exception_ptr error_;
  Tensor result_;
  Tensor target_;
};

/// One collective as the MPI thread runs it.
struct Collective {
  CollectiveSignature sig;
  std::string label;
  Tensor buffer; // contiguous: the data sent (and reduced in place)
  std::shared_ptr<MpiWork> work;
};

class ProcessGroupMPI : public ProcessGroup,
                        public std::enable_shared_from_this<ProcessGroupMPI> {
public:
  ProcessGroupMPI(MpiThread &mpi, const InitOptions &options)
      : mpi_(mpi), options_(options) {}

  int rank() const override { return mpi_.worldRank(); }
  int size() const override { return mpi_.worldSize(); }
  std::string backend_name() const override { return "mpi"; }

  std::shared_ptr<Work> allreduce_async(const Tensor &tensor, ReduceOp op,
                                        const std::string &label) override {
    return enqueue(CollectiveKind::Allreduce, op, 0, tensor, label, true);
  }
  std::shared_ptr<Work> broadcast_async(const Tensor &tensor, int root,
                                        const std::string &label) override {
    return enqueue(CollectiveKind::Broadcast, ReduceOp::Sum, root, tensor,
                   label, true);
  }
  std::shared_ptr<Work> allgather_async(const Tensor &input,
                                        const std::string &label) override {
    return enqueue(CollectiveKind::Allgather, ReduceOp::Sum, 0, input, label,
                   false);
  }
  std::shared_ptr<Work> reduce_scatter_async(const Tensor &input, ReduceOp op,
                                             const std::string &label) override {
    return enqueue(CollectiveKind::ReduceScatter, op, 0, input, label, false);
  }
  std::shared_ptr<Work> barrier_async() override {
    return enqueue(CollectiveKind::Barrier, ReduceOp::Sum, 0, Tensor(), "",
                   false);
  }

  [[noreturn]] void abort(int exitCode) override {
    std::fflush(stdout);
    std::fflush(stderr);
    // From any thread: the MPI thread may be polling a collective that will
    // never finish. Open MPI's MPI_Abort kills the job from any thread.
    MPI_Abort(MPI_COMM_WORLD, exitCode);
    std::abort();
  }

private:
  std::shared_ptr<Work> enqueue(CollectiveKind kind, ReduceOp op, int root,
                                const Tensor &tensor, const std::string &label,
                                bool inPlace) {
    if (kind != CollectiveKind::Barrier)
      TCC_CHECK(tensor.defined(), "tcc::distributed: ", toString(kind),
                " of an undefined tensor");
    auto c = std::make_shared<Collective>();
    c->sig = CollectiveSignature::make(kind, op, root, tensor, sequence_++);
    c->label = label;
    c->work = std::make_shared<MpiWork>();
    if (tensor.defined()) {
      NoGradGuard noGrad;
      Tensor data = tensor.detach();
      c->buffer = data.is_contiguous() ? data : data.contiguous();
      if (inPlace && !c->buffer.is_same(data))
        c->work->copyBackInto(data);
    }
    mpi_.submit([self = shared_from_this(), c] { self->run(*c); });
    return c->work;
  }

  /// On the MPI thread.
  void run(Collective &c) {
    Tensor result;
    std::exception_ptr error;
    try {
      result = execute(c);
    } catch (...) {
      error = std::current_exception();
    }
    c.work->finish(std::move(result), error);
  }

  std::string describe(const Collective &c, const char *phase) const {
    std::string s = c.sig.describe();
    if (!c.label.empty())
      s += " ('" + c.label + "')";
    return s + phase;
  }

  void poll(MPI_Request &request, const Collective &c, const char *phase,
            std::chrono::steady_clock::time_point start) {
    mpi_.waitOrAbort(request, start, options_.timeout,
                     [&] { return describe(c, phase); });
  }

  Tensor execute(Collective &c) {
    auto start = std::chrono::steady_clock::now();
    const CollectiveSignature &sig = c.sig;
    int n = size();
    std::vector<CollectiveSignature> all(static_cast<size_t>(n), sig);
    bool exchange = options_.check_signatures ||
                    sig.collective() == CollectiveKind::Allgather;
    if (exchange) {
      MPI_Request request;
      MPI_Iallgather(&sig, CollectiveSignature::kWords, MPI_INT64_T,
                     all.data(), CollectiveSignature::kWords, MPI_INT64_T,
                     MPI_COMM_WORLD, &request);
      poll(request, c, " (exchanging signatures)", start);
      std::string mismatch = findMismatch(all, c.label);
      if (!mismatch.empty())
        detail::throwError(mismatch);
    }
    std::string unsupported = checkSupported(sig, n);
    if (!unsupported.empty())
      detail::throwError(unsupported);

    Tensor &buf = c.buffer;
    MPI_Request request;
    switch (sig.collective()) {
    case CollectiveKind::Barrier:
      MPI_Ibarrier(MPI_COMM_WORLD, &request);
      poll(request, c, "", start);
      return Tensor();
    case CollectiveKind::Broadcast:
      MPI_Ibcast(buf.data_ptr(), int(buf.numel()), mpiType(buf.scalar_type()),
                 int(sig.root), MPI_COMM_WORLD, &request);
      poll(request, c, "", start);
      return buf;
    case CollectiveKind::Allreduce: {
      ScalarType t = buf.scalar_type();
      MPI_Iallreduce(MPI_IN_PLACE, buf.data_ptr(), int(buf.numel()),
                     mpiType(t), mpiOp(t, sig.reduce_op()), MPI_COMM_WORLD,
                     &request);
      poll(request, c, "", start);
      if (sig.reduce_op() == ReduceOp::Avg)
        divideInPlace(buf.data_ptr(), buf.numel(), t, n);
      return buf;
    }
    case CollectiveKind::Allgather: {
      Tensor in = buf.dim() == 0 ? buf.reshape({1}) : buf;
      int64_t rowElems = 1;
      for (int64_t d = 1; d < in.dim(); ++d)
        rowElems *= in.size(d);
      std::vector<int> counts(static_cast<size_t>(n)), displs(static_cast<size_t>(n));
      int64_t rows = 0;
      for (int r = 0; r < n; ++r) {
        int64_t rRows = all[size_t(r)].ndim == 0 ? 1 : all[size_t(r)].dims[0];
        TCC_CHECK(rows + rRows <= INT_MAX / std::max<int64_t>(1, rowElems),
                  "tcc::distributed: ", describe(c, ""),
                  ": the gathered tensor has more than 2^31 - 1 elements");
        counts[size_t(r)] = int(rRows * rowElems);
        displs[size_t(r)] = int(rows * rowElems);
        rows += rRows;
      }
      std::vector<int64_t> shape = in.sizes().vec();
      shape[0] = rows;
      Tensor out = empty(shape, TensorOptions().dtype(in.scalar_type()));
      MPI_Datatype type = mpiType(in.scalar_type());
      MPI_Iallgatherv(in.data_ptr(), int(in.numel()), type, out.data_ptr(),
                      counts.data(), displs.data(), type, MPI_COMM_WORLD,
                      &request);
      poll(request, c, "", start);
      return out;
    }
    case CollectiveKind::ReduceScatter: {
      ScalarType t = buf.scalar_type();
      int64_t rows = buf.size(0);
      int64_t rowElems = 1;
      for (int64_t d = 1; d < buf.dim(); ++d)
        rowElems *= buf.size(d);
      std::vector<int> counts(static_cast<size_t>(n));
      for (int r = 0; r < n; ++r)
        counts[size_t(r)] = int(chunkRows(rows, r, n) * rowElems);
      std::vector<int64_t> shape = buf.sizes().vec();
      shape[0] = chunkRows(rows, rank(), n);
      Tensor out = empty(shape, TensorOptions().dtype(t));
      MPI_Ireduce_scatter(buf.data_ptr(), out.data_ptr(), counts.data(),
                          mpiType(t), mpiOp(t, sig.reduce_op()),
                          MPI_COMM_WORLD, &request);
      poll(request, c, "", start);
      if (sig.reduce_op() == ReduceOp::Avg)
        divideInPlace(out.data_ptr(), out.numel(), t, n);
      return out;
    }
    }
    return Tensor();
  }

  MpiThread &mpi_;
  InitOptions options_;
  std::atomic<int64_t> sequence_{0};
};

} // namespace

std::shared_ptr<ProcessGroup> createProcessGroupMPI(const InitOptions &options) {
  return std::make_shared<ProcessGroupMPI>(MpiThread::get(), options);
}

} // namespace distributed
} // namespace tcc
