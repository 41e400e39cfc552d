// Reproducers: documents kopt reads, damaged. A value of the wrong type, a number beyond a double
// or nesting 200,000 deep in a memory import or a run folder (its manifest resealed), a link that
// loops where a run folder or an output goes, a 30,000-character line in ncu's details page.
// Each ended kopt by a signal; each must be one `kopt: error:` line (JSON under --json), or read.
#include <filesystem>
#include <functional>

#include "core/files.h"

#include <gtest/gtest.h>

#include "hostile_input.h"

namespace kopt::hostile {
namespace {
using testing::first_line;
using testing::run_kopt;

TEST(HostileInput, MemoryImportOfAValueOfTheWrongTypeIsOneLineAndStoresNothing) {
  scratch_dir dir;
  const fs::path db = dir.path() / "memory.db";
  json tags_as_text = toolkit_memory();
  tags_as_text["scopes"].begin().value()["positive"].begin().value()["tags"] = "register_cached_exp";
  json iteration_null = toolkit_memory();
  iteration_null["scopes"].begin().value()["positive"].begin().value()["last_iteration"] = nullptr;
  iteration_null["scopes"].begin().value()["negative"].begin().value()["last_iteration"] = "one";
  json schema_number = memory_export(json::array({exported_outcome("r", "cuda", {"baseline"}, "40f2b8f0ca5ba355")}));
  schema_number["schema"] = 5;
  json iteration_text = memory_export(json::array({exported_outcome("r", "cuda", {"baseline"}, "40f2b8f0ca5ba355")}));
  iteration_text["outcomes"][0]["iteration"] = "two";
  const std::vector<std::pair<std::string, json>> cases = {{"tags_as_text", tags_as_text},
                                                           {"schema_number", schema_number},
                                                           {"iteration_text", iteration_text},
                                                           {"iteration_null_then_text", iteration_null}};
  for (const auto& [name, document] : cases) {
    const fs::path file = dir.write(name + ".json", json_text(document));
    const auto r = run_kopt({"memory", "import", file.string(), "--memory-db", db.string()});
    expect_one_line_error(r, name);
    // The field is named, with the file.
    EXPECT_NE(first_line(r.stderr_text).find(file.string()), std::string::npos) << r.stderr_text;
    EXPECT_NE(first_line(r.stderr_text).find("field "), std::string::npos) << r.stderr_text;
    expect_json_error(run_kopt({"memory", "import", file.string(), "--memory-db", db.string(), "--json"}), name);
  }
  EXPECT_EQ(strategies_in(db), 0u);
  // last_iteration null alone is the toolkit's "unknown": it imports.
  json only_null = toolkit_memory();
  only_null["scopes"].begin().value()["positive"].begin().value()["last_iteration"] = nullptr;
  const auto r = run_kopt({"memory", "import", dir.write("null.json", json_text(only_null)).string(), "--memory-db",
                           db.string()});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(strategies_in(db), 3u);
}

TEST(HostileInput, ReportOfAResealedManifestWithAValueOfTheWrongTypeIsOneLine) {
  scratch_dir dir;
  const fs::path run = copy_of_fixture_run(dir, "run_x");
  const json original = manifest_of(run);
  std::vector<std::pair<std::string, json>> cases;
  json m = original;
  m["schema"] = 5;
  cases.emplace_back("schema_number", m);
  m = original;
  m["iterations"][0]["median_ci95_ms"] = json::array({"low", "high"});
  cases.emplace_back("interval_of_text", m);
  m = original;
  m["iterations"][1]["tags"] = "vectorized";
  cases.emplace_back("tags_as_text", m);
  m = original;
  m["iterations"][1]["comparison"]["ratio"] = "fast";
  cases.emplace_back("comparison_ratio_text", m);
  m = original;
  m["iterations"][0]["step_seconds"]["bench"] = json::array();
  cases.emplace_back("step_seconds_array", m);
  m = original;
  m["best"] = 77;
  cases.emplace_back("best_not_an_iteration", m);
  m = original;
  m["iterations"][1]["median_ms"] = 1e300;
  m["iterations"][0]["iteration"] = 1e300;
  cases.emplace_back("iteration_huge_float", m);
  for (const auto& [name, document] : cases) {
    write_resealed_manifest(run, document);
    const auto r = run_kopt({"report", run.string()});
    expect_one_line_error(r, name);
    EXPECT_NE(first_line(r.stderr_text).find("run_manifest.json"), std::string::npos) << name << ": " << r.stderr_text;
    expect_json_error(run_kopt({"report", run.string(), "--json"}), name);
    expect_one_line_error(loop_in(run, dir), "loop --run-dir " + name);
  }
}

// kopt memory import of `file`, with and without --json: each refuses it in one line, and
// nothing is stored.
void expect_import_refuses(const fs::path& file, const scratch_dir& dir) {
  const fs::path db = dir.path() / "memory.db";
  expect_one_line_error(run_kopt({"memory", "import", file.string(), "--memory-db", db.string()}), "import");
  expect_json_error(run_kopt({"memory", "import", file.string(), "--memory-db", db.string(), "--json"}), "import");
  EXPECT_EQ(strategies_in(db), 0u);
}

// The fixture run with its manifest's text changed by `change`: kopt report, with and without
// --json, and kopt loop --run-dir each refuse it in one line.
void expect_run_readers_refuse(const scratch_dir& dir, const std::function<void(std::string&)>& change) {
  const fs::path run = copy_of_fixture_run(dir, "run_x");
  std::string manifest = bytes_of(run / "run_manifest.json");
  change(manifest);
  write_file_atomic(run / "run_manifest.json", manifest);
  expect_one_line_error(run_kopt({"report", run.string()}), "report");
  expect_json_error(run_kopt({"report", run.string(), "--json"}), "report");
  expect_one_line_error(loop_in(run, dir), "loop --run-dir");
}

TEST(HostileInput, ANumberBeyondADoubleIsOneLineInEveryReader) {
  scratch_dir dir;
  std::string toolkit = json_text(toolkit_memory());
  toolkit.replace(toolkit.find("0.14894"), 7, "1e999");
  expect_import_refuses(dir.write("toolkit.json", toolkit), dir);
  expect_run_readers_refuse(dir, [](std::string& manifest) {
    manifest.replace(manifest.find("\"max_iterations\": 3"), 19, "\"max_iterations\": 1e999");
  });
}

TEST(HostileInput, DeepNestingIsOneLineInEveryReader) {
  scratch_dir dir;
  std::string text =
      json_text(memory_export(json::array({exported_outcome("r", "cuda", {"baseline"}, "40f2b8f0ca5ba355")})), -1);
  text.replace(text.find("\"evidence\":{}"), 13, "\"evidence\":" + deep_array(200000));
  expect_import_refuses(dir.write("deep.json", text), dir);
  expect_run_readers_refuse(dir, [](std::string& manifest) {
    manifest.insert(manifest.find('{') + 1, "\"deep\": " + deep_array(200000) + ",");
  });
}

TEST(HostileInput, ASymlinkLoopAsRunFolderOrOutIsOneLine) {
  scratch_dir dir;
  const fs::path loop = dir.path() / "loop";
  fs::create_symlink(loop, loop);
  const fs::path run = copy_of_fixture_run(dir, "run_x");
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"report of the loop", {"report", loop.string()}},
      {"report --out the loop", {"report", run.string(), "--out", loop.string()}},
      {"report --html into the loop", {"report", run.string(), "--html", (loop / "page.html").string()}},
      {"loop --run-dir the loop",
       {"loop", example("softmax_naive.cu"), "--rows=4", "--cols=4", "--max-iterations", "3", "--run-dir",
        loop.string(), "--memory-db", (dir.path() / "m.db").string()}},
      {"memory export onto the loop", {"memory", "export", loop.string(), "--memory-db", (dir.path() / "m.db").string()}},
      {"memory import of the loop", {"memory", "import", loop.string(), "--memory-db", (dir.path() / "m.db").string()}},
      {"analyze of the loop", {"analyze", loop.string()}}};
  for (const auto& [name, args] : cases) {
    const auto r = run_kopt(args, no_gpu);
    expect_one_line_error(r, name);
    EXPECT_NE(first_line(r.stderr_text).find(loop.string()), std::string::npos) << name << ": " << r.stderr_text;
  }
  EXPECT_TRUE(fs::is_symlink(loop));
}

TEST(HostileInput, AnalyzeReadsADetailsTextWithA30000CharacterLine) {
  scratch_dir dir;
  const fs::path raw = dir.path() / "vector_add_raw.csv";
  fs::copy_file(testing::source_dir() / "tests/data/ncu/h200/vector_add_raw.csv", raw);
  std::string words;
  while (words.size() < 30000) words += "word ";
  const fs::path details = dir.write(
      "details.txt",
      "[860] kopt@127.0.0.1\n"
      "  vector_add_kernel(const float *, const float *, float *, int) (65536, 1, 1)x(256, 1, 1), Context 1, "
      "Stream 7, Device 0, CC 9.0\n"
      "    Section: GPU Speed Of Light Throughput\n"
      "    OPT   " + words + "\n"
      "          " + words + "\n");
  const auto r = run_kopt({"analyze", raw.string(), "--details", details.string(), "--json"});
  ASSERT_EQ(r.term_signal, 0) << r.describe_end();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const json analysis = json::parse(r.stdout_text);
  ASSERT_EQ(analysis["kernels"].size(), 1u);
  const json& advice = analysis["kernels"][0]["ncu_advice"];
  ASSERT_EQ(advice.size(), 1u) << advice;
  EXPECT_GT(advice[0]["message"].get<std::string>().size(), 59000u);
}

}  // namespace
}  // namespace kopt::hostile
