#include "hostile_input.h"

#include <sqlite3.h>

#include <fstream>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/hash.h"
#include "scripted_run.h"
#include "support/resealed_manifest.h"

namespace kopt::hostile {

const std::map<std::string, std::string> no_gpu = {{"CUDA_VISIBLE_DEVICES", ""}};

std::string example(const std::string& name) { return (testing::source_dir() / "examples" / name).string(); }

std::string deep_array(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

void expect_one_line_error(const process_result& r, const std::string& what) {
  EXPECT_EQ(r.term_signal, 0) << what << ": " << r.describe_end() << "\n" << r.stderr_text.substr(0, 2000);
  EXPECT_EQ(r.exit_code, 2) << what << ": " << r.describe_end() << "\n" << r.stderr_text.substr(0, 2000);
  EXPECT_EQ(testing::first_line(r.stderr_text).rfind("kopt: error: ", 0), 0u) << what << ": "
                                                                               << r.stderr_text.substr(0, 2000);
}

void expect_json_error(const process_result& r, const std::string& what) {
  expect_one_line_error(r, what);
  const json document = json::parse(r.stdout_text, nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << what << ": stdout is not JSON: " << r.stdout_text.substr(0, 500);
  EXPECT_EQ(document.value("schema", ""), "kopt.error/v1") << what;
}

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

json exported_outcome(const std::string& run_id, const std::string& backend, const std::vector<std::string>& tags,
                      const std::string& fingerprint) {
  return json{{"run_id", run_id},
              {"iteration", 1},
              {"candidate", ""},
              {"fingerprint", fingerprint},
              {"tags", tags},
              {"scope", json{{"backend", backend},
                             {"arch", "sm_90a"},
                             {"op", "softmax"},
                             {"op_family", ""},
                             {"dims", "--rows=4096"},
                             {"bottleneck", "dram"}}},
              {"outcome", "positive"},
              {"reason", "faster"},
              {"evidence", json::object()},
              {"recorded_at", "2026-12-01T00:00:00Z"}};
}

json memory_export(const json& outcomes) { return json{{"schema", "kopt.strategy_memory/v1"}, {"outcomes", outcomes}}; }

json toolkit_memory() {
  return json::parse(bytes_of(testing::source_dir() / "tests/data/memory/python_toolkit_global_strategy_memory.json"));
}

std::size_t strategies_in(const fs::path& db) {
  const auto listed = testing::run_kopt({"memory", "list", "--json", "--memory-db", db.string()});
  EXPECT_EQ(listed.exit_code, 0) << listed.stderr_text;
  const json list = json::parse(listed.stdout_text, nullptr, false);
  return list.is_object() && list.contains("strategies") ? list["strategies"].size() : 0;
}

process_result export_to(const fs::path& target, const scratch_dir& dir) {
  const fs::path db = dir.path() / "memory.db";
  if (!fs::exists(db)) {
    const json one = memory_export(json::array({exported_outcome("r", "cuda", {"baseline"}, "40f2b8f0ca5ba355")}));
    const auto imported = testing::run_kopt(
        {"memory", "import", dir.write("one.json", json_text(one)).string(), "--memory-db", db.string()});
    EXPECT_EQ(imported.exit_code, 0) << imported.stderr_text;
  }
  return testing::run_kopt({"memory", "export", target.string(), "--memory-db", db.string()}, {}, dir.path());
}

fs::path sqlite_file(const fs::path& path, const std::string& statements) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  EXPECT_EQ(sqlite3_exec(db, statements.c_str(), nullptr, nullptr, &message), SQLITE_OK) << (message ? message : "");
  sqlite3_free(message);
  sqlite3_close(db);
  return path;
}

void expect_untouched(const fs::path& db, const std::string& before) {
  EXPECT_EQ(bytes_of(db), before) << db;
  EXPECT_FALSE(fs::exists(db.string() + "-wal"));
  EXPECT_FALSE(fs::exists(db.string() + "-shm"));
}

fs::path copy_of_fixture_run(const scratch_dir& dir, const std::string& name) {
  const fs::path fixture = report::testing::fixture_run_dir();
  const fs::path copy = dir.path() / name;
  fs::copy(fixture, copy, fs::copy_options::recursive);
  return copy;
}

json manifest_of(const fs::path& run) { return json::parse(bytes_of(run / "run_manifest.json")); }

void write_resealed_manifest(const fs::path& run, json manifest) {
  testing::write_resealed_manifest(run, std::move(manifest));
}

process_result loop_in(const fs::path& run, const scratch_dir& dir) {
  return testing::run_kopt({"loop", example("softmax_naive.cu"), "--rows=4", "--cols=4", "--max-iterations", "3",
                            "--run-dir", run.string(), "--memory-db", (dir.path() / "loop_memory.db").string()},
                           no_gpu);
}

}  // namespace kopt::hostile
