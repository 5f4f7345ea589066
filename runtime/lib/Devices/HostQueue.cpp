//===- HostQueue.cpp - a queue on a host thread of its own ----------------===//

#include "Device.h"

#include <deque>
#include <thread>

using tcc::runtime::Status;

namespace tcc {
namespace runtime {
namespace detail {
namespace {

class HostQueue final : public Queue {
public:
  ~HostQueue() override {
    {
      std::lock_guard<std::mutex> lock(state_->mutex);
      state_->stopping = true;
    }
    state_->wake.notify_one();
    if (!thread_.joinable())
      return;
    // The thread holds the state; it ends once the queue is empty.
    if (thread_.get_id() == std::this_thread::get_id())
      thread_.detach();
    else
      thread_.join();
  }

  Status submit(Work work, Done done) override {
    if (!thread_.joinable()) // started here, by the owner's thread
      thread_ = std::thread(loop, state_);
    {
      std::lock_guard<std::mutex> lock(state_->mutex);
      state_->items.push_back({std::move(work), std::move(done)});
    }
    state_->wake.notify_one();
    return Status();
  }

private:
  struct Item {
    Work work;
    Done done;
  };
  struct State {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<Item> items;
    bool stopping = false;
  };

  static void loop(std::shared_ptr<State> state) {
    for (;;) {
      Item item;
      {
        std::unique_lock<std::mutex> lock(state->mutex);
        state->wake.wait(lock, [&] {
          return state->stopping || !state->items.empty();
        });
        if (state->items.empty())
          return; // stopping
        item = std::move(state->items.front());
        state->items.pop_front();
      }
      Status status;
      try {
        status = item.work();
      } catch (const std::bad_alloc &) {
        status = Status(TCC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
      } catch (const std::exception &e) {
        status = Status(TCC_STATUS_INTERNAL, e.what());
      }
      // May destroy the queue's owner, and so the queue (see ~HostQueue).
      item.done(std::move(status));
    }
  }

  std::shared_ptr<State> state_ = std::make_shared<State>();
  std::thread thread_;
};

} // namespace

std::unique_ptr<Queue> makeHostQueue() {
  return std::unique_ptr<Queue>(new HostQueue());
}

} // namespace detail
} // namespace runtime
} // namespace tcc
