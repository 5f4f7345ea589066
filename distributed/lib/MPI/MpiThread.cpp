//===- MpiThread.cpp - MPI init, the job queue, polling, finalize ---------===//

#include "MpiThread.h"
#include "ReduceOps16.h"

#include "tcc/Frontend/Error.h"

#include <cstdio>
#include <memory>

namespace tcc {
namespace distributed {

MpiThread &MpiThread::get() {
  // Destroyed at exit, which finalizes MPI after the jobs still queued.
  static std::unique_ptr<MpiThread> instance(new MpiThread);
  return *instance;
}

MpiThread::MpiThread() {
  bool ready = false;
  std::mutex readyMutex;
  std::condition_variable readyCv;
  thread_ = std::thread([this] { run(); });
  // The first job runs once MPI is initialized (or has failed to be).
  submit([&] {
    std::lock_guard<std::mutex> lock(readyMutex);
    ready = true;
    readyCv.notify_one();
  });
  std::unique_lock<std::mutex> lock(readyMutex);
  readyCv.wait(lock, [&] { return ready; });
  if (!initError_.empty()) {
    thread_.join();
    detail::throwError(initError_);
  }
}

void MpiThread::run() {
  std::string &initError = initError_;
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (finalized) {
    initError = "tcc::distributed: MPI has been finalized; it cannot be "
                "initialized again in this process";
  } else if (initialized) {
    // The program initialized MPI itself; its threads may call MPI too.
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    if (provided < MPI_THREAD_MULTIPLE)
      initError = "tcc::distributed: MPI was initialized by the program "
                  "without MPI_THREAD_MULTIPLE; let init_process_group "
                  "initialize it, or call MPI_Init_thread with "
                  "MPI_THREAD_MULTIPLE";
  } else {
    int provided = MPI_THREAD_SINGLE;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) !=
        MPI_SUCCESS)
      initError = "tcc::distributed: MPI_Init_thread failed";
    else
      initializedByUs_ = true;
  }
  if (initError.empty()) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    createReduceOps16();
  }
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty())
        break;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
    if (!initError.empty())
      return; // the constructor's ready job ran; nothing else will come
  }
  freeReduceOps16();
  if (initializedByUs_)
    MPI_Finalize();
}

void MpiThread::submit(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void MpiThread::waitOrAbort(MPI_Request &request,
                            std::chrono::steady_clock::time_point start,
                            std::chrono::milliseconds timeout,
                            const std::function<std::string()> &what) {
  // Open MPI moves a large message a fragment per progress call, so the
  // thread tests continuously (yielding the core between tests), as a
  // blocking MPI call would spin; sleeping between tests throttles it.
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done)
      return;
    if (std::chrono::steady_clock::now() - start > timeout) {
      std::fprintf(stderr,
                   "tcc::distributed: timeout on rank %d of %d: %s did not "
                   "complete within %.3g s (TCC_DIST_TIMEOUT): a rank has not "
                   "joined it. Aborting the job with MPI_Abort.\n",
                   rank_, size_, what().c_str(), timeout.count() / 1000.0);
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    std::this_thread::yield();
  }
}

MpiThread::~MpiThread() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable())
    thread_.join();
}

} // namespace distributed
} // namespace tcc
