#include "fuzz_targets.h"

#include <fstream>

#include <fmt/format.h>

#include "core/document_error.h"
#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "core/json_limits.h"
#include "loop/run_summaries.h"
#include "loop/version_evaluation.h"
#include "mcp/server.h"
#include "mcp/workspace.h"
#include "memory/memory_files.h"
#include "pipeline/bench_result.h"
#include "pipeline/bench_verdict.h"
#include "pipeline/reference_timing_cache.h"
#include "profile/raw_csv.h"
#include "profile/rule_advice.h"
#include "profile/source_counters.h"
#include "report/html_page.h"
#include "report/report_json.h"
#include "report/run_report.h"
#include "scripted_run.h"
#include "support/kopt_process.h"
#include "support/timings.h"

namespace kopt::fuzz {
namespace fs = std::filesystem;
namespace {

fs::path data() { return testing::source_dir() / "tests/data"; }

// A mutant where a reader finds it: plainly written, without kopt's flush to disk (thousands a
// minute), and through any link as kopt's own writer would be.
void put(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write fuzz input " + file.string());
}

json seed_json(const fs::path& file) { return parse_json_checked(read_text_file(file, "fuzz seed")); }

std::string seed_text(const fs::path& file) { return read_text_file(file, "fuzz seed"); }

// The report's scripted run (tests/report/scripted_run.h), made once per process.
fs::path fixture_run() {
  return report::testing::fixture_run_dir();
}

// The manifest sealed as kopt seals it: an agent can recompute the checksum, so the reader
// must stand on the content alone.
void reseal(json& manifest) {
  if (!manifest.is_object()) return;
  manifest.erase("content_sha256");
  manifest["content_sha256"] = sha256_hex(json_text(manifest, -1));
}

// One memory import, the database under `folder` (kept from one mutant to the next: an import is
// idempotent, and a refused one must store nothing).
void import_into(memory::memory_store& store, const fs::path& folder, const mutant& m) {
  const fs::path file = folder / "import.json";
  put(file, m.text);
  memory::import_memory_file(store, file);
}

fuzz_target memory_target(const std::string& name, const fs::path& seed, const fs::path& work) {
  const fs::path folder = work / name;
  fs::create_directories(folder);
  const json document = seed_json(seed);
  const auto store = std::make_shared<memory::memory_store>(memory::memory_store::open(folder / "memory.db"));
  return {name, [document](std::mt19937_64& random) { return mutate_json(document, random); },
          [store, folder](const mutant& m) { import_into(*store, folder, m); },
          [](const mutant& m, const fs::path& at) {
            put(at / "import.json", m.text);
            return std::vector<std::string>{"memory", "import", (at / "import.json").string(), "--memory-db",
                                            (at / "memory.db").string(), "--json"};
          }};
}

// The run folder: two in three mutants change the manifest (resealed), the others an
// analysis.json it points to. The reader, then every printer of what it read.
fuzz_target run_folder_target(const fs::path& work) {
  const fs::path run = work / "run_folder" / fixture_run().filename();
  fs::create_directories(run.parent_path());
  fs::copy(fixture_run(), run, fs::copy_options::recursive);
  const json manifest = seed_json(run / "run_manifest.json");
  const json analysis = seed_json(run / "iter_v1" / "analysis.json");
  const std::string manifest_text = seed_text(run / "run_manifest.json");
  const std::string analysis_text = seed_text(run / "iter_v1" / "analysis.json");
  // Which file a mutant is for travels in its first line's name.
  const auto place = [=](const mutant& m, const fs::path& folder) {
    const bool is_analysis = m.mutations.rfind("analysis:", 0) == 0;
    put(folder / "run_manifest.json", is_analysis ? manifest_text : m.text);
    put(folder / "iter_v1" / "analysis.json", is_analysis ? m.text : analysis_text);
  };
  return {"run_folder",
          [=](std::mt19937_64& random) {
            if (random() % 3 == 0) {
              mutant m = mutate_json(analysis, random);
              m.mutations = "analysis: " + m.mutations;
              return m;
            }
            mutant m = mutate_json(manifest, random, reseal);
            m.mutations = "manifest: " + m.mutations;
            return m;
          },
          [=](const mutant& m) {
            place(m, run);
            const report::run_report rep = report::gather_run_report(run);
            (void)report::to_json(rep);
            (void)report::report_html(rep, report::page_options{});
            (void)loop::final_summary_markdown(rep.manifest, {});
            for (const auto& r : rep.manifest.iterations) (void)loop::iteration_summary_markdown(rep.manifest, r);
          },
          [=](const mutant& m, const fs::path& at) {
            const fs::path copy = at / run.filename();
            if (!fs::exists(copy)) fs::copy(run, copy, fs::copy_options::recursive);
            place(m, copy);
            return std::vector<std::string>{"report", copy.string(), "--json"};
          }};
}

// A bench result with both sides timed and checked, as kopt writes it.
pipeline::bench_result bench_result_example(double kernel_ms) {
  pipeline::bench_result r;
  r.kernel = testing::timing_around(kernel_ms, 40);
  r.reference = testing::timing_around(0.0613, 40);
  r.correctness.checked = true;
  r.correctness.passed = true;
  r.correctness.seeds = {pipeline::seed_check{0, "before timing", true}};
  pipeline::add_timing_conclusions(r);
  return r;
}

// A version's bench result, read as the loop reads a run folder's, then compared with its
// parent's from their own samples (when the two cannot be timed in turns).
fuzz_target comparison_target() {
  const json candidate = to_document(bench_result_example(0.05));
  const pipeline::bench_result incumbent = bench_result_example(0.06122);
  return {"comparison_record", [candidate](std::mt19937_64& random) { return mutate_json(candidate, random); },
          [incumbent](const mutant& m) {
            json document;
            try {
              document = parse_json_checked(m.text);
            } catch (const document_error& e) {
              throw e.in("benchmark_result.json", "");
            }
            const pipeline::bench_result read = pipeline::read_bench_result(document, "benchmark_result.json");
            (void)loop::compare_bench_results(read, incumbent);
            (void)loop::compare_bench_results(incumbent, read);
          },
          {}};
}

// A cache entry as a bench finds it under its key.
fuzz_target reference_cache_target(const fs::path& work) {
  const fs::path folder = work / "reference_timing";
  fs::create_directories(folder);
  const std::string key = std::string(64, 'a');
  const pipeline::reference_timing_cache cache(folder);
  const std::string stored = cache.store(key, json{{"problem", "fuzz"}}, testing::timing_around(0.0613, 40), {});
  if (!stored.empty()) throw error("cannot seed the reference timing cache: " + stored);
  const json entry = seed_json(folder / (key + ".json"));
  return {"reference_timing_cache", [entry](std::mt19937_64& random) { return mutate_json(entry, random); },
          [folder, key](const mutant& m) {
            put(folder / (key + ".json"), m.text);
            (void)pipeline::reference_timing_cache(folder).find(key);  // a miss or an entry; never an exception
          },
          {}};
}

// ncu's three pages, one mutated at a time, beside the others as kopt profile writes them.
fuzz_target ncu_target(const fs::path& work) {
  const fs::path h200 = data() / "ncu" / "h200";
  struct page {
    std::string suffix;
    std::vector<std::string> seeds;
  };
  std::vector<page> pages = {{"raw.csv", {}}, {"details.csv", {}}, {"source.csv", {}}};
  const std::vector<std::string> kernels = {"softmax_block", "histogram", "cutlass_gemm", "vector_add"};
  for (auto& p : pages) {
    for (const auto& k : kernels) p.seeds.push_back(seed_text(h200 / (k + "_" + p.suffix)));
  }
  pages[1].seeds.push_back(seed_text(data() / "ncu" / "torch_reduce_full_details.txt"));
  const fs::path folder = work / "ncu";
  fs::create_directories(folder);
  return {"ncu_pages",
          [pages](std::mt19937_64& random) {
            const std::size_t which = random() % pages.size();
            const auto& seeds = pages[which].seeds;
            mutant m = mutate_text(seeds[random() % seeds.size()], random);
            m.mutations = pages[which].suffix + ": " + m.mutations;
            return m;
          },
          [](const mutant& m) {
            if (m.mutations.rfind("raw.csv", 0) == 0) {
              (void)profile::parse_raw_csv(m.text, "fuzz_raw.csv");
            } else if (m.mutations.rfind("details.csv", 0) == 0) {
              (void)profile::parse_details(m.text);
            } else {
              (void)profile::parse_source_counters(m.text);
            }
          },
          [h200](const mutant& m, const fs::path& at) {
            for (const char* suffix : {"raw.csv", "details.csv", "source.csv"}) {
              const bool mutated = m.mutations.rfind(suffix, 0) == 0;
              put(at / (std::string("k_") + suffix),
                                mutated ? m.text : seed_text(h200 / (std::string("softmax_block_") + suffix)));
            }
            return std::vector<std::string>{"analyze", (at / "k_raw.csv").string(), "--json", "--out",
                                            (at / "out").string()};
          }};
}

// Real requests of every method kopt answers, the tools that need no GPU among them.
const std::vector<json>& mcp_seeds() {
  static const std::vector<json> seeds = {
      json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
           {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()},
                       {"clientInfo", {{"name", "fuzz"}, {"version", "1"}}}}}},
      json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}},
      json{{"jsonrpc", "2.0"}, {"id", "p"}, {"method", "ping"}},
      json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/list"}},
      json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/call"},
           {"params", {{"name", "kb"}, {"arguments", {{"action", "match"}, {"class", "dram"}, {"backend", "cuda"}}}}}},
      json{{"jsonrpc", "2.0"}, {"id", 4}, {"method", "tools/call"},
           {"params", {{"name", "inspect"},
                       {"arguments", {{"kernel", "examples/softmax_naive.cu"}, {"dims", {{"rows", 64}, {"cols", 32}}}}},
                       {"_meta", {{"progressToken", 9}}}}}},
      json{{"jsonrpc", "2.0"}, {"id", 5}, {"method", "tools/call"},
           {"params", {{"name", "analyze"}, {"arguments", {{"report", "ncu/vector_add_raw.csv"}, {"detail", "summary"}}}}}},
      json{{"jsonrpc", "2.0"}, {"id", 6}, {"method", "tools/call"},
           {"params", {{"name", "memory_query"}, {"arguments", {{"backend", "cuda"}, {"class", "dram"}}}}}},
      json{{"jsonrpc", "2.0"}, {"id", 7}, {"method", "tools/call"},
           {"params", {{"name", "report"}, {"arguments", {{"run_dir", "runs/run"}}}}}},
      json{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 99}, {"reason", "x"}}}},
  };
  return seeds;
}

}  // namespace

std::vector<fuzz_target> fuzz_targets(const fs::path& work) {
  std::vector<fuzz_target> targets;
  targets.push_back(memory_target("memory_export", data() / "memory" / "kopt_export.json", work));
  targets.push_back(
      memory_target("memory_toolkit", data() / "memory" / "python_toolkit_global_strategy_memory.json", work));
  targets.push_back(run_folder_target(work));
  targets.push_back(comparison_target());
  targets.push_back(reference_cache_target(work));
  targets.push_back(ncu_target(work));
  return targets;
}

std::vector<std::string> mcp_session_lines(std::mt19937_64& random, std::size_t count) {
  std::vector<std::string> lines = {json_text(mcp_seeds().front(), -1)};
  for (std::size_t i = 0; i < count; ++i) {
    const json& seed = mcp_seeds()[random() % mcp_seeds().size()];
    std::string text = mutate_json(seed, random).text;
    // One request, one line: the text's own line breaks are the protocol's separators.
    for (char& c : text) c = c == '\n' || c == '\r' ? ' ' : c;
    lines.push_back(std::move(text));
  }
  return lines;
}

fs::path mcp_workspace(const fs::path& work) {
  const fs::path root = work / "mcp_workspace";
  if (fs::exists(root)) return root;
  fs::create_directories(root / "ncu");
  fs::create_directories(root / "runs");
  fs::copy(testing::source_dir() / "examples", root / "examples", fs::copy_options::recursive);
  fs::copy_file(data() / "ncu" / "h200" / "vector_add_raw.csv", root / "ncu" / "vector_add_raw.csv");
  fs::copy(fixture_run(), root / "runs" / "run", fs::copy_options::recursive);
  return root;
}

void answer_mcp_line(const std::string& line, const fs::path& workspace) {
  json message;
  try {
    message = parse_json_checked(line, json_limits{64, std::size_t{64} << 20});
  } catch (const document_error&) {
    return;  // the server answers a parse error; nothing else runs
  }
  (void)mcp::answer(message, mcp::workspace(workspace));
}

}  // namespace kopt::fuzz
