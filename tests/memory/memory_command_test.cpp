// `kopt memory` as a user runs it: import the toolkit's file, list, query, show; a foreign
// database is an error with exit 2 and nothing written; a memory copied into a PostgreSQL server
// and back keeps everything, and the server's password is shown nowhere.
#include <gtest/gtest.h>

#include "core/json_io.h"
#include "memory/memory_location.h"
#include "support/kopt_process.h"
#include "test_memory.h"

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

// Everything a user sees of a command: what it printed, both streams.
std::string all_output(const process_result& r) { return r.stdout_text + r.stderr_text; }

TEST(MemoryCommand, ACopyIntoPostgreSQLAndBackKeepsEverythingAndShowsNoPassword) {
  memory::testing::test_memory server(memory::testing::backend::postgresql);
  const std::string url = server.location();
  const std::string password = url.substr(url.find(':', 13) + 1, url.find('@') - url.find(':', 13) - 1);
  ASSERT_FALSE(password.empty());
  testing::scratch_dir dir;
  const std::string db = (dir.path() / "memory.db").string();
  const std::string file = (testing::source_dir() / "tests/data/memory/python_toolkit_global_strategy_memory.json").string();
  ASSERT_EQ(testing::run_kopt({"memory", "import", file, "--memory-db", db}).exit_code, 0);

  const auto copied = testing::run_kopt({"memory", "copy", "--to", url, "--memory-db", db, "--json"});
  ASSERT_EQ(copied.exit_code, 0) << copied.stderr_text;
  EXPECT_EQ(all_output(copied).find(password), std::string::npos) << "the password was shown";
  const json report = json::parse(copied.stdout_text);
  EXPECT_EQ(report["outcomes_added"], 3);
  EXPECT_EQ(report["to"], memory::shown_location(url));
  const auto again = testing::run_kopt({"memory", "copy", "--to", url, "--memory-db", db});
  ASSERT_EQ(again.exit_code, 0) << again.stderr_text;
  EXPECT_NE(again.stdout_text.find("0 outcomes added (3 already there)"), std::string::npos) << again.stdout_text;
  EXPECT_EQ(all_output(again).find(password), std::string::npos);

  const auto listed_here = testing::run_kopt({"memory", "list", "--json", "--memory-db", db});
  const auto listed_there = testing::run_kopt({"memory", "list", "--json"}, {{"KOPT_MEMORY_DB", url}});
  ASSERT_EQ(listed_there.exit_code, 0) << listed_there.stderr_text;
  EXPECT_EQ(json::parse(listed_there.stdout_text), json::parse(listed_here.stdout_text));

  const std::string back = (dir.path() / "back.db").string();
  const auto returned = testing::run_kopt({"memory", "copy", "--to", back, "--memory-db", url});
  ASSERT_EQ(returned.exit_code, 0) << returned.stderr_text;
  const auto listed_back = testing::run_kopt({"memory", "list", "--json", "--memory-db", back});
  EXPECT_EQ(json::parse(listed_back.stdout_text), json::parse(listed_here.stdout_text));
  const auto exported_here = testing::run_kopt({"memory", "export", "-", "--memory-db", db});
  const auto exported_back = testing::run_kopt({"memory", "export", "-", "--memory-db", back});
  EXPECT_EQ(exported_back.stdout_text, exported_here.stdout_text) << "an outcome changed on the way";

  // A wrong password: one line naming the server, not the password given.
  std::string wrong = url;
  wrong.replace(wrong.find(password), password.size(), "not-the-password");
  const auto refused = testing::run_kopt({"memory", "list", "--memory-db", wrong});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(testing::first_line(refused.stderr_text).rfind("kopt: error: strategy memory postgresql://kopt@", 0), 0u)
      << refused.stderr_text;
  EXPECT_NE(refused.stderr_text.find("cannot connect"), std::string::npos) << refused.stderr_text;
  EXPECT_EQ(all_output(refused).find("not-the-password"), std::string::npos);
}

// Without libpq, a PostgreSQL memory names what is missing; a SQLite one does not need it.
TEST(MemoryCommand, WithoutLibpqAServerMemoryNamesWhatIsMissing) {
  testing::scratch_dir dir;
  const std::map<std::string, std::string> no_libpq = {{"KOPT_LIBPQ", (dir.path() / "libpq.so.5").string()}};
  const auto run = testing::run_kopt({"memory", "list", "--memory-db", "postgresql://team:s3cret@127.0.0.1:1/kopt"}, no_libpq);
  EXPECT_EQ(run.exit_code, 2);
  const std::string line = testing::first_line(run.stderr_text);
  EXPECT_NE(line.find("libpq"), std::string::npos) << line;
  EXPECT_NE(line.find("apt-get install libpq5"), std::string::npos) << line;
  EXPECT_EQ(all_output(run).find("s3cret"), std::string::npos);
  const auto sqlite = testing::run_kopt({"memory", "list", "--memory-db", (dir.path() / "m.db").string()}, no_libpq);
  EXPECT_EQ(sqlite.exit_code, 0) << sqlite.stderr_text;
}

}  // namespace
}  // namespace kopt
