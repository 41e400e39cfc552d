// `kopt memory` as a user runs it: import the toolkit's file, list, query, show; a foreign
// database is an error with exit 2 and nothing written.
#include <gtest/gtest.h>

#include "core/json_io.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {

TEST(MemoryCommand, ImportListQueryAndShow) {
  testing::scratch_dir dir;
  const std::string db = (dir.path() / "memory.db").string();
  const std::string file = (testing::source_dir() / "tests/data/memory/python_toolkit_global_strategy_memory.json").string();
  const auto imported = testing::run_kopt({"memory", "import", file, "--memory-db", db});
  ASSERT_EQ(imported.exit_code, 0) << imported.stderr_text;
  EXPECT_NE(imported.stdout_text.find("3 outcomes added"), std::string::npos) << imported.stdout_text;
  EXPECT_NE(imported.stdout_text.find("skipped 1 entries"), std::string::npos);

  const auto listed = testing::run_kopt({"memory", "--memory-db", db, "list", "--json"});
  ASSERT_EQ(listed.exit_code, 0) << listed.stderr_text;
  const json list = json::parse(listed.stdout_text);
  EXPECT_EQ(list["schema"], "kopt.memory_list/v1");
  EXPECT_EQ(list["strategies"].size(), 3u);

  const auto queried = testing::run_kopt({"memory", "query", "--backend", "cuda", "--class", "dram", "--memory-db", db});
  EXPECT_EQ(queried.exit_code, 0);
  EXPECT_NE(queried.stdout_text.find("nothing recorded yet for dram on cuda"), std::string::npos) << queried.stdout_text;

  const auto shown = testing::run_kopt({"memory", "show", "693f19f37331ba8b", "--memory-db", db});
  EXPECT_EQ(shown.exit_code, 0);
  EXPECT_NE(shown.stdout_text.find("vectorized_float4_io"), std::string::npos);
  const auto missing = testing::run_kopt({"memory", "show", "ffffffffffffffff", "--memory-db", db});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(testing::first_line(missing.stderr_text).rfind("kopt: error: no strategy ffffffffffffffff", 0), 0u);
}

// The toolkit's users get the memory back in their format, and the message says what the
// format cannot hold.
TEST(MemoryCommand, ExportInTheToolkitsFormatSaysWhatWasLeftOut) {
  testing::scratch_dir dir;
  const std::string db = (dir.path() / "memory.db").string();
  const std::string file = (testing::source_dir() / "tests/data/memory/python_toolkit_global_strategy_memory.json").string();
  ASSERT_EQ(testing::run_kopt({"memory", "import", file, "--memory-db", db}).exit_code, 0);
  const std::string out = (dir.path() / "global_strategy_memory.json").string();
  const auto exported = testing::run_kopt({"memory", "export", out, "--format", "toolkit", "--memory-db", db});
  ASSERT_EQ(exported.exit_code, 0) << exported.stderr_text;
  EXPECT_EQ(exported.stdout_text,
            "wrote 3 outcomes in 2 scopes to " + out + " in the Python toolkit's format\n");
  const auto json_run = testing::run_kopt({"memory", "export", out, "--format", "toolkit", "--json", "--memory-db", db});
  const json document = json::parse(json_run.stdout_text);
  EXPECT_EQ(document["format"], "toolkit");
  EXPECT_EQ(document["left_out"]["neutral"], 0);
  const auto bad = testing::run_kopt({"memory", "export", out, "--format", "python", "--memory-db", db});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(testing::first_line(bad.stderr_text).find("--format"), std::string::npos) << bad.stderr_text;
}

TEST(MemoryCommand, AFileThatIsNotAMemoryIsExitTwo) {
  testing::scratch_dir dir;
  const auto bad = dir.write("notes.db", "plain text, not SQLite");
  const auto run = testing::run_kopt({"memory", "list", "--memory-db", bad.string()});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(testing::first_line(run.stderr_text).rfind("kopt: error: strategy memory", 0), 0u) << run.stderr_text;
}

}  // namespace
}  // namespace kopt
