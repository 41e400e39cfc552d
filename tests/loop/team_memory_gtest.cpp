// A loop whose memory is a team's PostgreSQL server: the loop records into it and its report
// reads it back and checks the run folder against its ledger there, and the server's password
// appears nowhere kopt writes (the run folder, the report) while the loop runs with it.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/json_io.h"
#include "loop/loop_step.h"
#include "loop/run_directory.h"
#include "memory/memory_location.h"
#include "memory/memory_store.h"
#include "report/report_json.h"
#include "report/run_report.h"
#include "scripted_services.h"
#include "support/kopt_process.h"
#include "test_memory.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

std::string file_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(TeamMemory, ALoopRecordsIntoPostgreSQLAndNothingItWritesHoldsThePassword) {
  memory::testing::test_memory server(memory::testing::backend::postgresql);
  const std::string url = server.location();
  const std::string password = url.substr(url.find(':', 13) + 1, url.find('@') - url.find(':', 13) - 1);
  ASSERT_GE(password.size(), 16u);

  kopt::testing::scratch_dir work;
  const fs::path kernel = work.write("softmax.cu", testing::softmax_version(1.0));
  fs::copy_file(kopt::testing::source_dir() / "examples" / "softmax_ref.py", work.path() / "softmax_ref.py");
  testing::scripted_gpu gpu;
  const loop_services services = gpu.services();
  loop_settings s;
  s.target.kernel = kernel;
  s.target.ref = work.path() / "softmax_ref.py";
  s.target.dims = {{"rows", "4096"}, {"cols", "1024"}};
  s.max_iterations = 4;
  s.memory_db = url;
  const step_outcome v0 = run_loop_step(s, services);
  s.run_dir = v0.run_dir;
  write_file_atomic(kernel, testing::softmax_version(0.7));
  const fs::path proposal = iteration_dir(v0.run_dir, 0) / "optimization_proposal.md";
  write_file_atomic(proposal, read_text_file(proposal) + "- vectorized_float4_io\n");
  run_loop_step(s, services);

  const memory::memory_store store = memory::memory_store::open_read_only(url);
  std::size_t outcomes = 0;
  for (const auto& o : store.all()) outcomes += o.outcome == "positive" ? 1 : 0;
  EXPECT_EQ(outcomes, 1u) << "the positive outcome of v1 is in the team's memory";

  const run_manifest m = read_run_manifest(v0.run_dir);
  EXPECT_EQ(m.memory_db, memory::shown_location(url));
  for (const auto& entry : fs::recursive_directory_iterator(v0.run_dir)) {
    if (!entry.is_regular_file()) continue;
    EXPECT_EQ(file_text(entry.path()).find(password), std::string::npos) << entry.path() << " holds the password";
  }

  // The report, given the server with its password: it reads the memory and finds the ledger.
  const report::run_report rep = report::gather_run_report(v0.run_dir, fs::path(url));
  EXPECT_TRUE(rep.memory.read) << rep.memory.note;
  EXPECT_EQ(rep.record.status, "verified") << rep.record.detail;
  const std::string report_text = json_text(report::to_json(rep));
  EXPECT_EQ(report_text.find(password), std::string::npos) << "the report holds the password";
  EXPECT_NE(report_text.find(memory::shown_location(url)), std::string::npos);
}

}  // namespace
}  // namespace kopt::loop
