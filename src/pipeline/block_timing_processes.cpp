#include "pipeline/block_timing_processes.h"

#include <memory>
#include <vector>

#include <fmt/format.h>

#include "core/conversing_process.h"
#include "core/error.h"
#include "core/text.h"
#include "harness/block_channel.h"
#include "pipeline/child_launch.h"
#include "pipeline/child_verdict.h"

namespace kopt::pipeline {
namespace {

// How long a version's process may take to end once its input is closed (its last call's
// check, writing its result).
constexpr std::chrono::seconds closing_limit{30};

struct version_process {
  std::unique_ptr<child_launch> launch;
  std::unique_ptr<conversing_process> process;
  int blocks = 0;
  std::string failure;  // set: it is gone
};

// "killed by signal 11 (Segmentation fault): <its last stderr line>"
std::string how_it_ended(const process_result& end) {
  std::string text = end.describe_end();
  const std::vector<std::string> lines = split_lines(end.stderr_text);
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    if (!trim(*it).empty()) return fmt::format("{}: {}", text, shorten(trim(*it), 300));
  }
  return text;
}

class block_timing_processes final : public block_timing {
 public:
  block_timing_processes(const std::vector<harness::bench_job>& jobs, const env::gpu_device& device,
                         int block_timeout_s)
      : m_gpu_lock(lock_gpu_for_measuring(device)), m_block_limit(block_timeout_s) {
    for (const harness::bench_job& job : jobs) {
      if (job.kind != harness::job_kind::blocks)
        throw error("only a blocks job can take turns: a bug in kopt");
      version_process v;
      v.launch = std::make_unique<child_launch>(std::vector<std::string>{}, job, device);
      v.launch->write_job(job);
      v.process = std::make_unique<conversing_process>(v.launch->request);
      if (!v.process->started()) {
        throw error(fmt::format("cannot start a measuring process for a comparison in turns: {}",
                                v.process->start_error()));
      }
      m_versions.push_back(std::move(v));
    }
    // Loading (the context, the buffers, their inputs) is GPU work too: one call of each, in
    // turn, waits until every version is loaded and idle before the first block is timed. A
    // version that fails here fails its first block with the reason.
    for (std::size_t i = 0; i < m_versions.size(); ++i) time_block(i, 1);
  }

  ~block_timing_processes() override { close(); }

  timing_block time_block(std::size_t index, int calls) override {
    version_process& v = m_versions.at(index);
    timing_block block;
    if (!v.failure.empty()) {
      block.failure = v.failure;
      return block;
    }
    const std::string key = v.launch->seal.key();
    const std::optional<std::string> reply =
        v.process->ask(std::to_string(calls), key.empty() ? 1 : 2, std::chrono::seconds(m_block_limit));
    if (!reply) {
      const process_result end = v.process->finish(std::chrono::seconds(1));
      v.failure = end.timed_out || end.succeeded()
                      ? fmt::format("the measuring process gave no block of {} calls within {} s (hung?)",
                                    calls, m_block_limit)
                      : fmt::format("the measuring process ended during a block: {}", how_it_ended(end));
      block.failure = v.failure;
      return block;
    }
    const std::optional<harness::block_reply> document = harness::read_block_reply(*reply, key, ++v.blocks);
    if (!document) {
      v.failure =
          "forged result: a timing block came without the seal kopt gave the measuring process, out of order, or "
          "unreadable";
    } else if (document->status != harness::run_status::ok || !document->timing) {
      v.failure = fmt::format("{}: {}", enum_name(document->status), document->reason);
    } else {
      block.timing = document->timing;
      block.warning = document->warning.value_or("");
      block.placement = document->placement;
      return block;
    }
    v.process->finish(closing_limit);
    block.failure = v.failure;
    return block;
  }

  std::vector<std::string> close() override {
    std::vector<std::string> failures(m_versions.size());
    for (std::size_t i = 0; i < m_versions.size(); ++i) {
      version_process& v = m_versions[i];
      if (!v.process) continue;
      std::string failure;
      if (v.failure.empty()) {
        wrapped_child_run end;
        end.process = v.process->finish(closing_limit);
        end.result = v.launch->seal.read(v.launch->result_file, end.forged_result);
        // Judged as bench judges an ended measuring child.
        const harness::child_report verdict = child_verdict(end, static_cast<int>(closing_limit.count()),
                                                            measuring_side::kernel,
                                                            "the comparison's limit for a process to end");
        if (!verdict.ok()) failure = fmt::format("{}: {}", enum_name(verdict.status), verdict.reason);
      }
      v.process.reset();
      v.launch.reset();
      failures[i] = failure;
    }
    m_gpu_lock.reset();
    return failures;
  }

 private:
  std::unique_ptr<file_lock> m_gpu_lock;
  int m_block_limit;
  std::vector<version_process> m_versions;
};

}  // namespace

std::unique_ptr<block_timing> open_block_timing_processes(const std::vector<harness::bench_job>& jobs,
                                                          const env::gpu_device& device,
                                                          int block_timeout_s) {
  return std::make_unique<block_timing_processes>(jobs, device, block_timeout_s);
}

}  // namespace kopt::pipeline
