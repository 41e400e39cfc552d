#include "loop/round_dispatch.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "core/error.h"

namespace kopt::loop {
namespace {

// What a candidate's thread hands back.
struct returned_work {
  std::size_t index = 0;
  int gpu = 0;
  std::exception_ptr thrown;  // none: the work returned
  bool kopt_error = false;    // thrown was a kopt::error: perhaps the GPU's fault
  std::string reason;
};

// The threads' side: each running candidate reports once, and the calling thread waits for it.
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

returned_work run_work(std::size_t index, int gpu, const candidate_work& work) {
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
  explicit dispatcher(const round_dispatch& round)
      : m_round(round),
        m_queue(round.pending.begin(), round.pending.end()),
        m_free(round.gpus.begin(), round.gpus.end()) {}

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
      candidate_work work;
      try {
        work = m_round.start(index, gpu);
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
        m_round.finish(r.index, r.gpu);
        m_free.push_back(r.gpu);
      } catch (...) {
        if (!m_fatal) m_fatal = std::current_exception();
      }
      return;
    }
    if (!r.kopt_error || !m_round.gpu_failed || !gpu_failed(r.gpu)) {
      if (!m_fatal) m_fatal = r.thrown;
      return;
    }
    // The GPU failed, not the candidate: it is measured again, from the start, on another GPU.
    m_last_gpu_error = r.thrown;
    m_queue.push_front(r.index);
    if (m_round.on_dropped) m_round.on_dropped({r.gpu, r.index, r.reason});
  }

  bool gpu_failed(int gpu) {
    try {
      return m_round.gpu_failed(gpu);
    } catch (...) {
      return true;  // asking it failed too
    }
  }

  const round_dispatch& m_round;
  std::deque<std::size_t> m_queue;
  std::deque<int> m_free;
  int m_running = 0;
  returns m_returns;
  std::vector<std::thread> m_threads;
  std::exception_ptr m_fatal;
  std::exception_ptr m_last_gpu_error;
};

}  // namespace

void dispatch_round(const round_dispatch& round) {
  if (round.pending.empty()) return;
  if (round.gpus.empty()) throw error("a round of candidates needs at least one GPU to measure on");
  dispatcher(round).run();
}

}  // namespace kopt::loop
