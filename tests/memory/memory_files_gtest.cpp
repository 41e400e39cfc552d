// Moving the memory: the Python toolkit's global_strategy_memory.json imports under its own
// fingerprints (an entry whose key is not its tags' fingerprint is skipped and named), a
// second import adds nothing, and kopt's export reads back whole into an empty memory; on a
// SQLite file and on a PostgreSQL server alike.
#include "memory/memory_files.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/files.h"
#include "memory/outcome_document.h"
#include "memory/strategy_fingerprint.h"
#include "memory/toolkit_export.h"
#include "support/kopt_process.h"
#include "test_memory.h"

namespace kopt::memory {
namespace {
namespace fs = std::filesystem;

fs::path toolkit_file() { return kopt::testing::source_dir() / "tests/data/memory/python_toolkit_global_strategy_memory.json"; }

// Each test on a SQLite file and on the PostgreSQL server.
class MemoryFilesOn : public ::testing::TestWithParam<testing::backend> {
 protected:
  testing::test_memory m{GetParam()};
};

TEST_P(MemoryFilesOn, ThePythonToolkitsFileImportsWithMatchingFingerprints) {
  kopt::testing::scratch_dir dir;
  memory_store store = memory_store::open(m.location());
  const import_report report = import_memory_file(store, toolkit_file());
  EXPECT_EQ(report.format, "python toolkit");
  EXPECT_EQ(report.added, 3u);
  EXPECT_EQ(report.fingerprint_mismatches, std::vector<std::string>{"0123456789abcdef"});
  const auto winner = store.history("693f19f37331ba8b");
  ASSERT_EQ(winner.size(), 1u);
  EXPECT_EQ(winner[0].outcome, "positive");
  EXPECT_EQ(winner[0].scope.backend, "cutlass");
  EXPECT_EQ(winner[0].scope.op, "cutlass_softmax");
  EXPECT_EQ(winner[0].scope.dims, "--rows=4096 --cols=1024");
  EXPECT_EQ(winner[0].scope.arch, "sm_90a");
  EXPECT_DOUBLE_EQ(winner[0].evidence["evidence"]["current_median_ms"].get<double>(), 0.10317);
  const auto rejected = store.history("40f2b8f0ca5ba355");
  ASSERT_EQ(rejected.size(), 1u);
  EXPECT_EQ(rejected[0].reason, "correctness_failed");
  EXPECT_EQ(rejected[0].scope.arch, "");  // the toolkit's "auto" architecture is unknown here

  const import_report again = import_memory_file(store, toolkit_file());
  EXPECT_EQ(again.added, 0u);
  EXPECT_EQ(again.already_present, 3u);
}

TEST_P(MemoryFilesOn, AnExportReadsBackWholeIntoAnEmptyMemory) {
  kopt::testing::scratch_dir dir;
  memory_store first = memory_store::open(m.location("first"));
  import_memory_file(first, toolkit_file());
  export_memory_file(first, dir.path() / "export.json");
  memory_store second = memory_store::open(m.location("second"));
  const import_report report = import_memory_file(second, dir.path() / "export.json");
  EXPECT_EQ(report.format, "kopt");
  EXPECT_EQ(report.added, 3u);
  ASSERT_EQ(second.all().size(), first.all().size());
  for (std::size_t i = 0; i < first.all().size(); ++i) EXPECT_EQ(to_document(second.all()[i]), to_document(first.all()[i]));
}

// The toolkit's scope key, by its rule (DESIGN.md): stems with non-alphanumerics as `_`, the
// dimension flags sorted and hashed.
TEST(ToolkitExport, TheScopeKeyFollowsTheToolkitsRule) {
  EXPECT_EQ(toolkit_scope_key("cuda", "softmax", "softmax_ref", "sm_90a", {"--rows=4096", "--cols=1024"}),
            "cuda__softmax__softmax_ref__sm_90a__339090bb90fe");
  EXPECT_EQ(toolkit_scope_key("triton", "my-kernel.v2", "", "", {"--cols=1024", "--rows=4096"}),
            "triton__my_kernel_v2__no_ref__auto_arch__339090bb90fe");
}

recorded_outcome kopt_outcome(std::int64_t iteration, const char* verdict) {
  recorded_outcome o;
  o.run_id = "run_20261205_010000";
  o.iteration = iteration;
  o.tags = {"vectorized_float4_io"};
  o.scope = {"cuda", "sm_90a", "softmax", "", "--rows=4096 --cols=1024", "dram"};
  o.outcome = verdict;
  o.reason = "test";
  o.evidence = {{"parent_iteration", 0}, {"parent_median_ms", 0.2}, {"candidate_median_ms", 0.1},
                {"kernel_file", "/p/softmax.cu"}, {"reference_file", "/p/softmax_ref.py"}};
  return o;
}

// What kopt learned goes back to a team on the toolkit: positive, negative and rejected under
// the toolkit's scope keys (the toolkit's own outcomes under theirs), neutral, inconclusive and
// superseded ones left out and counted; the file reads back into kopt.
TEST_P(MemoryFilesOn, TheMemoryGoesBackInTheToolkitsFormatAndReadsBack) {
  kopt::testing::scratch_dir dir;
  memory_store store = memory_store::open(m.location());
  import_memory_file(store, toolkit_file());
  store.record(kopt_outcome(1, "positive"));
  store.record(kopt_outcome(2, "neutral"));
  store.record(kopt_outcome(3, "inconclusive"));
  store.record(kopt_outcome(4, "negative"));
  store.supersede("run_20261205_010000", 4, 1);
  const fs::path file = dir.path() / "global_strategy_memory.json";
  const toolkit_export_counts c = export_toolkit_memory_file(store, file);
  EXPECT_EQ(c.written, 4u);
  EXPECT_EQ(c.scopes, 3u);
  EXPECT_EQ(c.neutral, 1u);
  EXPECT_EQ(c.inconclusive, 1u);
  EXPECT_EQ(c.superseded, 1u);
  EXPECT_EQ(c.reference_unknown, 0u);

  const json written = read_json_file(file);
  EXPECT_FALSE(written.contains("schema")) << "the toolkit's file has none";
  const json& scope = written["scopes"]["cuda__softmax__softmax_ref__sm_90a__339090bb90fe"];
  EXPECT_EQ(scope["meta"]["source_file"], "/p/softmax.cu");
  EXPECT_EQ(scope["meta"]["dims_args"], json::array({"--rows=4096", "--cols=1024"}));
  ASSERT_TRUE(scope.is_object()) << written.dump(1);
  const json& entry = scope.at("positive").at(strategy_fingerprint("cuda", {"vectorized_float4_io"}));
  EXPECT_EQ(entry["tags"], json::array({"vectorized_float4_io"}));
  EXPECT_EQ(entry["last_outcome"], "positive");
  EXPECT_EQ(entry["evidence"]["current_median_ms"], 0.1);
  EXPECT_TRUE(written["scopes"].contains("cutlass__cutlass_softmax__softmax_ref__sm_90a__5d1c0e2b7a41"))
      << "an outcome imported from the toolkit goes back under its own key";

  memory_store back = memory_store::open(m.location("back"));
  const import_report report = import_memory_file(back, file);
  EXPECT_EQ(report.format, "python toolkit");
  EXPECT_EQ(report.added, 4u);
  EXPECT_TRUE(report.fingerprint_mismatches.empty());
}

TEST_P(MemoryFilesOn, AFileOfAnotherKindIsRefusedWithItsName) {
  kopt::testing::scratch_dir dir;
  memory_store store = memory_store::open(m.location());
  const fs::path other = dir.write("other.json", R"({"kernels": []})");
  try {
    import_memory_file(store, other);
    FAIL() << "another kind of file must be refused";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("other.json is neither a kopt memory export nor"), std::string::npos) << e.headline();
  }
}

TEST_P(MemoryFilesOn, AFieldOfTheWrongTypeIsNamedAndNothingIsStored) {
  kopt::testing::scratch_dir dir;
  memory_store store = memory_store::open(m.location());
  std::string text = read_text_file(toolkit_file());
  text.replace(text.find("\"last_iteration\": 1,"), 20, "\"last_iteration\": \"x\",");
  const fs::path file = dir.write("toolkit.json", text);
  try {
    import_memory_file(store, file);
    FAIL() << "a last_iteration of text was imported";
  } catch (const error& e) {
    EXPECT_EQ(e.headline(),
              file.string() + ": field scopes.cutlass__cutlass_softmax__softmax_ref__sm_90a__5d1c0e2b7a41.negative."
                              "d576b5ea15008131.last_iteration: must be a whole number, found string \"x\"; nothing "
                              "was imported: mend the file, or export it again");
  }
  EXPECT_TRUE(store.all().empty());
  // Fields a later toolkit adds are passed over; kopt's own export is strict.
  text = read_text_file(toolkit_file());
  text.insert(text.find('{') + 1, "\"written_by\": \"toolkit 2\",");
  EXPECT_EQ(import_memory_file(store, dir.write("newer.json", text)).added, 3u);
}

INSTANTIATE_TEST_SUITE_P(Backends, MemoryFilesOn, testing::every_backend(), testing::backend_test_name);

}  // namespace
}  // namespace kopt::memory
