// What the tenth kernel gains from the first: a strategy that worked on one operator moves the
// same suggestion up in the proposal for another operator with the same bottleneck on the same
// backend and architecture, compared with the proposal an empty memory gives.
#include <filesystem>
#include <regex>

#include <gtest/gtest.h>

#include "core/document.h"
#include "core/files.h"
#include "loop/loop_step.h"
#include "loop/run_directory.h"
#include "loop/run_manifest.h"
#include "scripted_services.h"
#include "support/kopt_process.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;
using testing::scripted_gpu;
using testing::softmax_version;

// The knowledge-base entries of a proposal's ranked suggestions, in order.
std::vector<std::string> ranked_ids(const std::string& proposal) {
  std::vector<std::string> ids;
  const std::regex entry(R"(\n\d+\. [^\n]*\(`kopt kb show ([^`]+)`\))");
  for (auto it = std::sregex_iterator(proposal.begin(), proposal.end(), entry); it != std::sregex_iterator(); ++it) {
    ids.push_back((*it)[1]);
  }
  return ids;
}

// The tags the proposal gives for entry `id`.
std::vector<std::string> tags_of(const std::string& proposal, const std::string& id) {
  const std::regex entry("`kopt kb show " + id + R"(`\), tags: ([^\n]*))");
  std::smatch match;
  if (!std::regex_search(proposal, match, entry)) return {};
  std::vector<std::string> tags;
  std::string list = match[1];
  for (size_t start = 0; start <= list.size();) {
    const size_t comma = list.find(", ", start);
    tags.push_back(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 2;
  }
  return tags;
}

class MemoryTransfer : public ::testing::Test {
 protected:
  step_outcome baseline(const std::string& kernel_name, const fs::path& memory_db) {
    loop_settings s;
    s.target.kernel = m_work.write(kernel_name, softmax_version(1.0));
    s.target.dims = {{"rows", "4096"}, {"cols", "1024"}};
    s.max_iterations = 3;
    s.memory_db = memory_db;
    return run_loop_step(s, m_gpu.services());
  }

  kopt::testing::scratch_dir m_work;
  scripted_gpu m_gpu;
};

TEST_F(MemoryTransfer, AStrategyThatWorkedOnOneOperatorRanksFirstForTheNextWithTheSameBottleneck) {
  const fs::path learned_db = m_work.path() / "learned.db";
  const fs::path empty_db = m_work.path() / "empty.db";

  // Run 1: softmax. The agent applies the suggestion ranked second, and it works.
  const step_outcome v0 = baseline("softmax.cu", learned_db);
  const fs::path proposal_file = iteration_dir(v0.run_dir, 0) / "optimization_proposal.md";
  const std::string proposal = read_text_file(proposal_file);
  const std::vector<std::string> before = ranked_ids(proposal);
  ASSERT_GE(before.size(), 2u) << proposal;
  const std::vector<std::string> tags = tags_of(proposal, before[1]);
  ASSERT_FALSE(tags.empty());
  std::string filled = proposal;
  for (const auto& t : tags) filled += "- " + t + "\n";
  write_file_atomic(proposal_file, filled);
  loop_settings s;
  s.target.kernel = m_work.path() / "softmax.cu";
  s.target.dims = {{"rows", "4096"}, {"cols", "1024"}};
  s.max_iterations = 3;
  s.memory_db = learned_db;
  s.run_dir = v0.run_dir;
  write_file_atomic(s.target.kernel, softmax_version(0.7));
  ASSERT_EQ(enum_name(run_loop_step(s, m_gpu.services()).record->outcome), "positive");

  // Run 2: another operator, same bottleneck, once with that memory and once with none.
  const step_outcome with_memory = baseline("rowwise_norm.cu", learned_db);
  const step_outcome without_memory = baseline("rowwise_norm_fresh.cu", empty_db);
  const auto ranked_with = ranked_ids(read_text_file(iteration_dir(with_memory.run_dir, 0) / "optimization_proposal.md"));
  const auto ranked_without =
      ranked_ids(read_text_file(iteration_dir(without_memory.run_dir, 0) / "optimization_proposal.md"));
  EXPECT_EQ(ranked_without, before) << "an empty memory leaves the analysis's ranking";
  ASSERT_FALSE(ranked_with.empty());
  EXPECT_EQ(ranked_with.front(), before[1]) << "what worked on softmax leads for the next operator";
  EXPECT_NE(ranked_with, ranked_without);
  const std::string text = read_text_file(iteration_dir(with_memory.run_dir, 0) / "optimization_proposal.md");
  EXPECT_NE(text.find("worked 1x"), std::string::npos) << text;
}

}  // namespace
}  // namespace kopt::loop
