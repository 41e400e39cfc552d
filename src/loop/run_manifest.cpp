#include "loop/run_manifest.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

constexpr const char* checksum_key = "content_sha256";

template <typename T>
json optional_json(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

template <typename T>
std::optional<T> optional_from(const json& node, const char* key) {
  if (!node.contains(key) || node[key].is_null()) return std::nullopt;
  return node[key].get<T>();
}

json checks_json(const std::vector<shape_check>& checks) {
  json out = json::array();
  for (const auto& c : checks) out.push_back({{"dims", c.dims}, {"status", c.status}, {"reason", c.reason}});
  return out;
}

// A v1 manifest has no "checks": none were asked for.
std::vector<shape_check> checks_from(const json& node) {
  std::vector<shape_check> checks;
  if (!node.contains("checks")) return checks;
  for (const json& c : node.at("checks")) {
    checks.push_back({c.at("dims").get<std::string>(), c.at("status").get<std::string>(),
                      c.at("reason").get<std::string>()});
  }
  return checks;
}

void put_version(json& out, const version_record& r) {
  out.update({{"snapshot", r.snapshot},
              {"source_sha256", r.source_sha256},
              {"library_sha256", r.library_sha256},
              {"parent", optional_json(r.parent)},
              {"tags", r.tags},
              {"fingerprint", r.fingerprint},
              {"outcome", r.outcome},
              {"reason", r.reason},
              {"eligible", r.eligible},
              {"median_ms", optional_json(r.median_ms)},
              {"median_ci95_ms", r.median_ci95_ms},
              {"reference_median_ms", optional_json(r.reference_median_ms)},
              {"speedup_vs_reference", optional_json(r.speedup_vs_reference)},
              {"bottleneck", r.bottleneck},
              {"at_hardware_limit", r.at_hardware_limit},
              {"comparison", r.comparison},
              {"checks", checks_json(r.checks)},
              {"step_seconds", r.step_seconds},
              {"finished_at", r.finished_at}});
}

void get_version(const json& node, version_record& r) {
  r.snapshot = node.at("snapshot").get<std::string>();
  r.source_sha256 = node.at("source_sha256").get<std::string>();
  r.library_sha256 = node.value("library_sha256", "");  // absent before comparisons in turns
  r.parent = optional_from<std::int64_t>(node, "parent");
  r.tags = node.at("tags").get<std::vector<std::string>>();
  r.fingerprint = node.at("fingerprint").get<std::string>();
  r.outcome = node.at("outcome").get<std::string>();
  r.reason = node.at("reason").get<std::string>();
  r.eligible = node.at("eligible").get<bool>();
  r.median_ms = optional_from<double>(node, "median_ms");
  r.median_ci95_ms = node.at("median_ci95_ms");
  r.reference_median_ms = optional_from<double>(node, "reference_median_ms");
  r.speedup_vs_reference = optional_from<double>(node, "speedup_vs_reference");
  r.bottleneck = node.at("bottleneck").get<std::string>();
  r.at_hardware_limit = node.at("at_hardware_limit").get<bool>();
  r.comparison = node.at("comparison");
  r.checks = checks_from(node);
  r.step_seconds = node.value("step_seconds", json::object());
  r.finished_at = node.at("finished_at").get<std::string>();
}

json iteration_json(const iteration_record& r) {
  json out = {{"iteration", r.iteration}};
  put_version(out, r);
  json candidates = json::array();
  for (const auto& c : r.candidates) {
    json node = {{"candidate", c.candidate}};
    put_version(node, c);
    candidates.push_back(node);
  }
  out["candidates"] = candidates;
  out["chosen_candidate"] = optional_json(r.chosen);
  return out;
}

iteration_record iteration_from(const json& node) {
  iteration_record r;
  r.iteration = node.at("iteration").get<std::int64_t>();
  get_version(node, r);
  if (node.contains("candidates")) {  // v1: single versions only
    for (const json& c : node.at("candidates")) {
      candidate_record candidate;
      candidate.candidate = c.at("candidate").get<int>();
      get_version(c, candidate);
      r.candidates.push_back(candidate);
    }
    r.chosen = optional_from<int>(node, "chosen_candidate");
  }
  return r;
}

std::vector<std::string> strings_or_none(const json& node, const char* key) {
  return node.contains(key) ? node.at(key).get<std::vector<std::string>>() : std::vector<std::string>{};
}

run_manifest manifest_from(const json& d) {
  run_manifest m;
  m.run_id = d.at("run_id").get<std::string>();
  m.kopt_version = d.at("kopt_version").get<std::string>();
  m.created_at = d.at("created_at").get<std::string>();
  m.updated_at = d.at("updated_at").get<std::string>();
  m.kernel = d.at("kernel").get<std::string>();
  m.reference = d.at("reference").get<std::string>();
  m.backend = d.at("backend").get<std::string>();
  m.arch = d.at("arch").get<std::string>();
  m.op = d.at("op").get<std::string>();
  m.op_family = d.at("op_family").get<std::string>();
  m.max_iterations = d.at("max_iterations").get<std::int64_t>();
  m.memory_db = d.at("memory_db").get<std::string>();
  const json& f = d.at("frozen");
  m.frozen.reference_sha256 = f.at("reference_sha256").get<std::string>();
  m.frozen.problem_sha256 = f.at("problem_sha256").get<std::string>();
  m.frozen.tolerances = f.at("tolerances").get<std::string>();
  m.frozen.dims = f.at("dims").get<std::vector<std::string>>();
  m.frozen.check_dims = strings_or_none(f, "check_dims");
  m.frozen.check_problem_sha256 = strings_or_none(f, "check_problem_sha256");
  m.settings = d.at("settings");
  for (const json& node : d.at("iterations")) m.iterations.push_back(iteration_from(node));
  m.best = optional_from<std::int64_t>(d, "best");
  m.blocked = d.at("blocked").get<std::vector<std::string>>();
  if (d.contains("open_round") && !d["open_round"].is_null()) m.open_round = iteration_from(d["open_round"]);
  return m;
}

std::string checksum_of(const json& document_without_checksum) {
  return sha256_hex(json_text(document_without_checksum, -1));
}

std::string schema_text(int version) {
  return fmt::format("kopt.{}/v{}", run_manifest_schema, version);
}

}  // namespace

const candidate_record* iteration_record::find_candidate(int candidate) const {
  for (const auto& c : candidates) {
    if (c.candidate == candidate) return &c;
  }
  return nullptr;
}

const iteration_record* run_manifest::find(std::int64_t iteration) const {
  for (const auto& r : iterations) {
    if (r.iteration == iteration) return &r;
  }
  return nullptr;
}

json to_json(const run_manifest& m) {
  json iterations = json::array();
  for (const auto& r : m.iterations) iterations.push_back(iteration_json(r));
  return with_schema(run_manifest_schema, run_manifest_version,
                     {{"run_id", m.run_id},
                      {"kopt_version", m.kopt_version},
                      {"created_at", m.created_at},
                      {"updated_at", m.updated_at},
                      {"kernel", m.kernel},
                      {"reference", m.reference},
                      {"backend", m.backend},
                      {"arch", m.arch},
                      {"op", m.op},
                      {"op_family", m.op_family},
                      {"max_iterations", m.max_iterations},
                      {"memory_db", m.memory_db},
                      {"frozen",
                       {{"reference_sha256", m.frozen.reference_sha256},
                        {"problem_sha256", m.frozen.problem_sha256},
                        {"tolerances", m.frozen.tolerances},
                        {"dims", m.frozen.dims},
                        {"check_dims", m.frozen.check_dims},
                        {"check_problem_sha256", m.frozen.check_problem_sha256}}},
                      {"settings", m.settings},
                      {"iterations", iterations},
                      {"best", optional_json(m.best)},
                      {"blocked", m.blocked},
                      {"open_round", m.open_round ? iteration_json(*m.open_round) : json(nullptr)}});
}

void write_run_manifest(const fs::path& run_dir, run_manifest manifest) {
  json document = to_json(manifest);
  document[checksum_key] = checksum_of(document);
  write_json_file(run_dir / run_manifest_name, document);
}

run_manifest read_run_manifest(const fs::path& run_dir) {
  const fs::path file = run_dir / run_manifest_name;
  json document = read_json_file(file);
  const std::string schema = document.is_object() ? document.value("schema", "") : "";
  if (schema != schema_text(run_manifest_version) && schema != schema_text(1)) {
    throw error(
        fmt::format("{} is not a kopt run manifest ({}): pass the folder of a run started by this kopt, or "
                    "start a new run without --run-dir",
                    file.string(), schema_text(run_manifest_version)));
  }
  const std::string recorded = document.value(checksum_key, "");
  document.erase(checksum_key);
  if (recorded != checksum_of(document)) {
    throw error(fmt::format("{} was changed outside kopt (its checksum does not match its content): kopt alone "
                            "writes the run's record; restore the file or start a new run",
                            file.string()));
  }
  try {
    return manifest_from(document);
  } catch (const json::exception& e) {
    throw error(fmt::format("{} lacks a field kopt wrote ({}): start a new run", file.string(), e.what()));
  }
}

}  // namespace kopt::loop
