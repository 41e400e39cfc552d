// Reproducers: the strategy memory. A database of schema -5 (a negative index into the
// migrations), another program's SQLite file (switched to WAL before it was refused), an import
// that fails half-way (kept what it stored), two first uses of a new memory at once (one lost
// to "database is locked"). Each must be refused untouched, store all or nothing, lose nothing.
#include <thread>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include "hostile_input.h"

namespace kopt::hostile {
namespace {
using testing::first_line;
using testing::run_kopt;

TEST(HostileInput, AMemoryOfSchemaVersionMinusFiveIsRefusedUntouched) {
  scratch_dir dir;
  const fs::path db = sqlite_file(dir.path() / "minus5.db",
                                  "PRAGMA application_id=1802465396; PRAGMA user_version=-5; "
                                  "CREATE TABLE outcomes (run_id TEXT);");
  const std::string before = bytes_of(db);
  for (const std::vector<std::string>& action : std::vector<std::vector<std::string>>{{"list"}, {"export", "-"}}) {
    std::vector<std::string> args = {"memory"};
    args.insert(args.end(), action.begin(), action.end());
    args.insert(args.end(), {"--memory-db", db.string()});
    const auto r = run_kopt(args);
    expect_one_line_error(r, action.front());
    EXPECT_NE(first_line(r.stderr_text).find("-5"), std::string::npos) << r.stderr_text;
    EXPECT_NE(first_line(r.stderr_text).find(db.string()), std::string::npos) << r.stderr_text;
  }
  expect_untouched(db, before);
}

TEST(HostileInput, AFailedImportStoresNothingAndSaysSo) {
  scratch_dir dir;
  const fs::path db = dir.path() / "memory.db";
  const json outcomes = json::array({exported_outcome("a", "cuda", {"baseline"}, "40f2b8f0ca5ba355"),
                                     exported_outcome("b", "cutlass", {"baseline"}, "d576b5ea15008131"),
                                     exported_outcome("c", "cuda", {"tiled"}, "0000000000000000")});
  const fs::path file = dir.write("export.json", json_text(memory_export(outcomes)));
  const auto r = run_kopt({"memory", "import", file.string(), "--memory-db", db.string()});
  expect_one_line_error(r, "import");
  EXPECT_NE(first_line(r.stderr_text).find("nothing was imported"), std::string::npos) << r.stderr_text;
  EXPECT_EQ(strategies_in(db), 0u);
}

TEST(HostileInput, ADatabaseKoptRefusesIsNotTouched) {
  scratch_dir dir;
  const fs::path db = sqlite_file(dir.path() / "other.db", "CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('x');");
  const std::string before = bytes_of(db);
  const fs::path file =
      dir.write("one.json", json_text(memory_export(json::array(
                                {exported_outcome("a", "cuda", {"baseline"}, "40f2b8f0ca5ba355")}))));
  expect_one_line_error(run_kopt({"memory", "list", "--memory-db", db.string()}), "list");
  expect_one_line_error(run_kopt({"memory", "import", file.string(), "--memory-db", db.string()}), "import");
  expect_untouched(db, before);
}

TEST(HostileInput, TwoFirstUsesOfANewMemoryAtOnceLoseNothing) {
  scratch_dir dir;
  const std::vector<json> exports = {
      memory_export(json::array({exported_outcome("a", "cuda", {"baseline"}, "40f2b8f0ca5ba355")})),
      memory_export(json::array({exported_outcome("b", "cutlass", {"baseline"}, "d576b5ea15008131")})),
      memory_export(json::array({exported_outcome(
          "c", "cutlass",
          {"register_cached_exp", "rowwise_softmax_shape_specialization", "thread_retile_128", "vectorized_float4_io"},
          "693f19f37331ba8b")}))};
  std::vector<fs::path> files;
  for (std::size_t i = 0; i < exports.size(); ++i) {
    files.push_back(dir.write(fmt::format("export_{}.json", i), json_text(exports[i])));
  }
  // Four at once, the first file twice: before, about one round in twenty lost an import
  // ("database is locked"), so a hundred rounds show it.
  files.push_back(files.front());
  constexpr int rounds = 100;
  int lost = 0;
  for (int round = 0; round < rounds; ++round) {
    const fs::path db = dir.path() / fmt::format("round_{}", round) / "memory.db";  // none exists yet
    std::vector<process_result> results(files.size());
    std::vector<std::thread> imports;
    for (std::size_t i = 0; i < files.size(); ++i) {
      imports.emplace_back([&, i] { results[i] = run_kopt({"memory", "import", files[i].string(), "--memory-db", db.string()}); });
    }
    for (auto& t : imports) t.join();
    for (const auto& r : results) {
      EXPECT_EQ(r.exit_code, 0) << "round " << round << ": " << r.stderr_text;
      lost += r.exit_code == 0 ? 0 : 1;
    }
    EXPECT_EQ(strategies_in(db), exports.size()) << "round " << round;
    if (lost > 0) break;
  }
  EXPECT_EQ(lost, 0);
}

}  // namespace
}  // namespace kopt::hostile
