// Moving the memory: the Python toolkit's global_strategy_memory.json imports under its own
// fingerprints (an entry whose key is not its tags' fingerprint is skipped and named), a
// second import adds nothing, and kopt's export reads back whole into an empty memory.
#include "memory/memory_files.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/files.h"
#include "memory/outcome_document.h"
#include "support/kopt_process.h"

namespace kopt::memory {
namespace {
namespace fs = std::filesystem;

fs::path toolkit_file() { return testing::source_dir() / "tests/data/memory/python_toolkit_global_strategy_memory.json"; }

TEST(MemoryFiles, ThePythonToolkitsFileImportsWithMatchingFingerprints) {
  testing::scratch_dir dir;
  memory_store store = memory_store::open(dir.path() / "memory.db");
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

TEST(MemoryFiles, AnExportReadsBackWholeIntoAnEmptyMemory) {
  testing::scratch_dir dir;
  memory_store first = memory_store::open(dir.path() / "first.db");
  import_memory_file(first, toolkit_file());
  export_memory_file(first, dir.path() / "export.json");
  memory_store second = memory_store::open(dir.path() / "second.db");
  const import_report report = import_memory_file(second, dir.path() / "export.json");
  EXPECT_EQ(report.format, "kopt");
  EXPECT_EQ(report.added, 3u);
  ASSERT_EQ(second.all().size(), first.all().size());
  for (std::size_t i = 0; i < first.all().size(); ++i) EXPECT_EQ(to_document(second.all()[i]), to_document(first.all()[i]));
}

TEST(MemoryFiles, AFileOfAnotherKindIsRefusedWithItsName) {
  testing::scratch_dir dir;
  memory_store store = memory_store::open(dir.path() / "memory.db");
  const fs::path other = dir.write("other.json", R"({"kernels": []})");
  try {
    import_memory_file(store, other);
    FAIL() << "another kind of file must be refused";
  } catch (const error& e) {
    EXPECT_NE(e.headline().find("other.json is neither a kopt memory export nor"), std::string::npos) << e.headline();
  }
}

TEST(MemoryFiles, AFieldOfTheWrongTypeIsNamedAndNothingIsStored) {
  testing::scratch_dir dir;
  memory_store store = memory_store::open(dir.path() / "memory.db");
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

}  // namespace
}  // namespace kopt::memory
