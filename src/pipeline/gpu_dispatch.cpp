#include "pipeline/gpu_dispatch.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "core/error.h"

namespace kopt::pipeline {
namespace {

// What an item's thread hands back.
struct returned_work {
  std::size_t index = 0;
  int gpu = 0;
  std::exception_ptr thrown;  // none: the work returned
  bool kopt_error = false;    // thrown was a kopt::error: perhaps the GPU's fault
  std::string reason;
};

// The threads' side: each running item reports once, and the calling thread waits for it.
class returns {
 public:
  void add(returned_work work) {
    const std::lock_guard<std::mutex> hold(m_mutex);
    m_done.push_back(std::move(work));
    m_ready.notify_one();
  }
  returned_work next() {
    std::unique_lock<std::mutex> hold(m_mutex);
    m_ready.wait(hold, [this] { return !m_done.empty(); });
    returned_work work = std::move(m_done.front());
    m_done.pop_front();
    return work;
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_ready;
  std::deque<returned_work> m_done;
};

returned_work run_work(std::size_t index, int gpu, const gpu_work& work) {
  returned_work r{index, gpu, nullptr, false, ""};
  try {
    work();
  } catch (const error& e) {
    r.thrown = std::current_exception();
    r.kopt_error = true;
    r.reason = e.headline();
  } catch (...) {
    r.thrown = std::current_exception();
  }
  return r;
}

class dispatcher {
 public:
  explicit dispatcher(const gpu_dispatch& dispatch)
      : m_dispatch(dispatch),
        m_queue(dispatch.pending.begin(), dispatch.pending.end()),
        m_free(dispatch.gpus.begin(), dispatch.gpus.end()) {}

  ~dispatcher() {
    for (std::thread& t : m_threads) t.join();
  }

  void run() {
    while (true) {
      hand_out();
      if (m_running == 0) break;
      take(m_returns.next());
    }
    for (std::thread& t : m_threads) t.join();
    m_threads.clear();
    if (m_fatal) std::rethrow_exception(m_fatal);
    if (!m_queue.empty()) std::rethrow_exception(m_last_gpu_error);  // every GPU was dropped
  }

 private:
  void hand_out() {
    while (!m_fatal && !m_queue.empty() && !m_free.empty()) {
      const std::size_t index = m_queue.front();
      const int gpu = m_free.front();
      gpu_work work;
      try {
        work = m_dispatch.start(index, gpu);
      } catch (...) {
        m_fatal = std::current_exception();
        return;
      }
      m_queue.pop_front();
      m_free.pop_front();
      ++m_running;
      m_threads.emplace_back(
          [this, index, gpu, work = std::move(work)] { m_returns.add(run_work(index, gpu, work)); });
    }
  }

  void take(returned_work r) {
    --m_running;
    if (!r.thrown) {
      try {
        m_dispatch.finish(r.index, r.gpu);
        m_free.push_back(r.gpu);
      } catch (...) {
        if (!m_fatal) m_fatal = std::current_exception();
      }
      return;
    }
    if (!r.kopt_error || !m_dispatch.gpu_failed || !gpu_failed(r.gpu)) {
      if (!m_fatal) m_fatal = r.thrown;
      return;
    }
    // The GPU failed, not the item: it runs again, from the start, on another GPU.
    m_last_gpu_error = r.thrown;
    m_queue.push_front(r.index);
    if (m_dispatch.on_dropped) m_dispatch.on_dropped({r.gpu, r.index, r.reason});
  }

  bool gpu_failed(int gpu) {
    try {
      return m_dispatch.gpu_failed(gpu);
    } catch (...) {
      return true;  // asking it failed too
    }
  }

  const gpu_dispatch& m_dispatch;
  std::deque<std::size_t> m_queue;
  std::deque<int> m_free;
  int m_running = 0;
  returns m_returns;
  std::vector<std::thread> m_threads;
  std::exception_ptr m_fatal;
  std::exception_ptr m_last_gpu_error;
};

}  // namespace

void dispatch_on_gpus(const gpu_dispatch& dispatch) {
  if (dispatch.pending.empty()) return;
  if (dispatch.gpus.empty()) throw error("work spread over GPUs needs at least one GPU to run on");
  dispatcher(dispatch).run();
}

}  // namespace kopt::pipeline
