// The documents kopt exchanges, held to their definitions: each schema, derived from the one
// field list its writer and reader come from, is the one kept in docs/schemas (a field renamed,
// retyped or dropped fails here until its schema version and docs/schemas say so), and the Python
// runner's reader refuses what kopt's refuses, naming the same field.
#include "pipeline/documents.h"
#include "loop/confirmation_record.h"

#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/python.h"
#include "harness/bench_job.h"
#include "harness/child_report.h"
#include "measure/timing_document.h"
#include "support/kopt_process.h"

namespace kopt::pipeline {
namespace {
namespace fs = std::filesystem;

const fs::path kept_schemas = testing::source_dir() / "docs" / "schemas";

TEST(Documents, EverySchemaIsTheOneKeptInDocs) {
  auto entries = exchanged_document_schemas();
  for (auto& entry : loop::run_folder_document_schemas()) entries.push_back(std::move(entry));
  ASSERT_GE(entries.size(), 10U);
  std::set<std::string> names;
  for (const auto& entry : entries) {
    names.insert(entry.name + ".schema.json");
    const fs::path kept = kept_schemas / (entry.name + ".schema.json");
    ASSERT_TRUE(fs::exists(kept)) << kept
                                  << ": write it with cmake --build build/ci --target kopt_document_schemas && build/ci/bin/kopt_document_schemas docs/schemas";
    EXPECT_EQ(read_json_file(kept), entry.schema)
        << entry.name << "'s shape changed: give it a new schema version, then write docs/schemas again with "
        << "cmake --build build/ci --target kopt_document_schemas && build/ci/bin/kopt_document_schemas docs/schemas";
  }
  for (const auto& file : fs::directory_iterator(kept_schemas)) {
    EXPECT_TRUE(names.count(file.path().filename().string()))
        << file.path() << " describes no document kopt exchanges";
  }
}

// What the Python runner's reader says of `text` read as `name` ("ok", or its one line).
std::string python_verdict(const std::string& text, const std::string& name) {
  testing::scratch_dir dir;
  const fs::path file = dir.write("document.json", text);
  const fs::path share = testing::kopt_binary().parent_path().parent_path() / "share" / "kopt";
  const std::string script =
      "import sys\nfrom kopt_runtime import documents\ntry:\n    documents.parse(open(sys.argv[1]).read(), "
      "sys.argv[2])\n    print('ok')\nexcept documents.DocumentError as e:\n    print(e)\n";
  const process_result run = run_process({.argv = {python_command(), "-c", script, file.string(), name},
                                          .extra_env = {{"PYTHONPATH", share.string()}},
                                          .timeout = std::chrono::seconds(60)});
  EXPECT_TRUE(run.succeeded()) << run.stderr_text;
  return testing::first_line(run.stdout_text);
}

std::string python_verdict(const json& document, const std::string& name) {
  return python_verdict(json_text(document), name);
}

// What kopt's reader says of it ("ok", or its one line).
template <typename T>
std::string kopt_verdict(const json& document) {
  try {
    (void)from_document<T>(document);
    return "ok";
  } catch (const document_error& e) {
    return e.headline();
  }
}

TEST(Documents, ThePythonRunnersReaderRefusesWhatKoptsRefusesByTheSameField) {
  harness::bench_job job;
  job.kernel_source = "/k/softmax.py";
  job.backend = "triton";
  job.dims = {{"rows", "4096", false}};
  job.validation = harness::job_validation{"", {{harness::evidence_kind::seed, 0, "before timing"}}, 2, true};
  job.idle_peers = 0;
  const json good = to_document(job);
  EXPECT_EQ(python_verdict(good, "harness_job"), "ok");
  EXPECT_EQ(kopt_verdict<harness::bench_job>(good), "ok");

  std::vector<std::pair<std::string, json>> mutants;
  json renamed = good;
  renamed["kernel_sources"] = renamed["kernel_source"];
  renamed.erase("kernel_source");
  mutants.emplace_back("kernel_source", renamed);
  json retyped = good;
  retyped["sampling"]["warmup"] = "3";
  mutants.emplace_back("sampling.warmup", retyped);
  json out_of_range = good;
  out_of_range["sampling"]["repeat"] = 0;
  mutants.emplace_back("sampling.repeat", out_of_range);
  json not_a_kind = good;
  not_a_kind["kind"] = "judge";
  mutants.emplace_back("kind", not_a_kind);
  json deep = good;
  deep["validation"]["evidence"][0]["kind"] = 5;
  mutants.emplace_back("validation.evidence[0].kind", deep);
  json another_kinds_part = good;
  another_kinds_part["turn_peers"] = 1;
  mutants.emplace_back("turn_peers", another_kinds_part);
  json without_its_part = good;
  without_its_part["validation"] = nullptr;
  mutants.emplace_back("validation", without_its_part);
  json other_version = good;
  other_version["schema"] = "kopt.harness_job/v5";
  mutants.emplace_back("schema", other_version);
  for (const auto& [field, mutant] : mutants) {
    const std::string python = python_verdict(mutant, "harness_job");
    const std::string kopt = kopt_verdict<harness::bench_job>(mutant);
    EXPECT_EQ(python.rfind("field " + field + ":", 0), 0U) << "Python: " << python;
    EXPECT_EQ(kopt.rfind("field " + field + ":", 0), 0U) << "kopt: " << kopt;
  }
  // The parts of each kind are one table, carried in the schema: both readers say the same.
  EXPECT_EQ(python_verdict(another_kinds_part, "harness_job"),
            "field turn_peers: is not part of a kernel job");
  EXPECT_EQ(kopt_verdict<harness::bench_job>(another_kinds_part),
            "field turn_peers: is not part of a kernel job");
  EXPECT_EQ(python_verdict(without_its_part, "harness_job"),
            kopt_verdict<harness::bench_job>(without_its_part));
}

TEST(Documents, ThePythonRunnersReaderRefusesTextsBeyondTheLimits) {
  EXPECT_NE(python_verdict(std::string(100000, '[') + std::string(100000, ']'), "harness_job")
                .find("deeper than 64"),
            std::string::npos);
  const std::string timing = json_text(to_document(measure::timing_document{}), -1);
  EXPECT_EQ(python_verdict(timing, "timing"), "ok");
  const std::string zero = "\"estimate_ms\":0.0";
  ASSERT_NE(timing.find(zero), std::string::npos) << timing;
  std::string infinite = timing;
  infinite.replace(timing.find(zero), zero.size(), "\"estimate_ms\":1e999");
  EXPECT_EQ(python_verdict(infinite, "timing"), "field estimate_ms: is not a finite number");
  EXPECT_EQ(
      python_verdict(std::string("{\"estimate_ms\": NaN}"), "timing").rfind("NaN is not a JSON number", 0),
      0U);
}

}  // namespace
}  // namespace kopt::pipeline
