#include "loop/toolkit_run_adoption.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "core/document_schema.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_io.h"
#include "core/text.h"
#include "core/utc_time.h"
#include "loop/run_directory.h"
#include "loop/run_manifest.h"
#include "loop/strategy_tags.h"

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

const std::string toolkit_manifest_name = std::string(toolkit_prefix) + run_manifest_name;

bool is_present(const fs::path& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

// The run folder's files the toolkit wrote at its top: set aside with the prefix.
const char* const toolkit_top_files[] = {"final_summary.md", "preflight_check.json", "preflight_check.md"};

// "iter_v3" -> 3; none for anything else.
std::optional<std::int64_t> iteration_of_folder(const std::string& name) {
  static const std::regex pattern("iter_v([0-9]{1,6})");
  std::smatch match;
  if (!std::regex_match(name, match, pattern)) return std::nullopt;
  return std::stoll(match[1].str());
}

// Renames `from` to `to` unless `to` is there already (a killed call moved it: then `from`, if
// any, is kopt's own, begun after the move).
void move_aside(const fs::path& from, const fs::path& to) {
  if (!is_present(from) || is_present(to)) return;
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec) {
    throw error(fmt::format("cannot set the Python toolkit's {} aside as {}: {}", from.string(), to.filename().string(),
                            ec.message()),
                "kopt keeps the toolkit's files as they are, under new names; free the folder and run again");
  }
}

// The toolkit's snapshot of an iteration, where it lies once set aside ("" when it is in neither
// place: before the folders move or after).
std::string set_aside_snapshot(const fs::path& run_dir, const toolkit_iteration& it) {
  if (!it.snapshot_file || it.snapshot_file->empty()) return "";
  const fs::path folder = fs::path(std::string(toolkit_prefix) + fmt::format("iter_v{}", it.iteration));
  const fs::path snapshot = folder / fs::path(*it.snapshot_file).filename();
  return is_present(run_dir / snapshot) || is_present(run_dir / fs::path(*it.snapshot_file).parent_path().filename() /
                                                  snapshot.filename())
             ? snapshot.string()
             : "";
}

// The tags of the toolkit's last proposal: the strategy of the version its agent wrote next.
std::vector<std::string> last_proposal_tags(const fs::path& run_dir, const toolkit_run_manifest& toolkit) {
  if (toolkit.iterations.empty()) return {};
  const fs::path proposal = run_dir / fmt::format("iter_v{}", toolkit.iterations.back().iteration) / "optimization_proposal.md";
  if (!is_present(proposal)) return {};
  return parse_strategy_tags(read_text_file(proposal, "the toolkit's proposal"));
}

toolkit_adoption adoption_of(const fs::path& run_dir, const toolkit_run_manifest& toolkit, const fs::path& given_kernel) {
  toolkit_adoption a;
  a.adopted_at = utc_timestamp();
  a.toolkit_manifest = toolkit_manifest_name;
  const fs::path toolkit_kernel = toolkit.source_file.value_or("");
  a.run_kernel = (!toolkit_kernel.empty() && fs::is_regular_file(toolkit_kernel) ? toolkit_kernel : fs::absolute(given_kernel))
                     .string();
  a.dims = toolkit.dims_args.value_or(std::vector<std::string>{});
  a.toolkit_best = toolkit.best_iteration;
  a.next_tags = last_proposal_tags(run_dir, toolkit);
  for (const toolkit_iteration& it : toolkit.iterations) {
    toolkit_iteration_figures f;
    f.iteration = it.iteration;
    f.folder = std::string(toolkit_prefix) + fmt::format("iter_v{}", it.iteration);
    f.snapshot = set_aside_snapshot(run_dir, it);
    f.median_ms = toolkit_median_ms(it);
    if (it.strategy) {
      f.outcome = it.strategy->outcome.value_or("");
      f.tags = it.strategy->tags.value_or(std::vector<std::string>{});
    }
    a.iterations.push_back(std::move(f));
  }
  const toolkit_iteration_figures* v0 = a.find(0);
  if (v0 == nullptr || v0->snapshot.empty()) {
    throw error(fmt::format("{}: the Python toolkit's run has no v0 snapshot (iter_v0/), so there is no baseline to "
                            "judge again",
                            (run_dir / run_manifest_name).string()),
                "continue it with the toolkit, or start a new kopt run with --new-run in another folder");
  }
  return a;
}

// The adopted versions are judged at the call's dimensions: they must be those the toolkit ran.
void check_dims(const fs::path& run_dir, const toolkit_adoption& a, std::vector<std::string> given) {
  std::vector<std::string> toolkit = a.dims;
  std::sort(toolkit.begin(), toolkit.end());
  std::sort(given.begin(), given.end());
  if (toolkit.empty() || toolkit == given) return;
  throw error(fmt::format("the Python toolkit's run in {} was made at {}, but this call gives {}: give the run's "
                          "dimensions to continue it, or start a new run",
                          run_dir.string(), join(a.dims, " "), given.empty() ? "none" : join(given, " ")));
}

void write_adoption(const fs::path& run_dir, const toolkit_adoption& a) {
  write_json_file(run_dir / toolkit_adoption_name, to_document(a));
}

}  // namespace

const toolkit_iteration_figures* toolkit_adoption::find(std::int64_t iteration) const {
  for (const auto& f : iterations) {
    if (f.iteration == iteration) return &f;
  }
  return nullptr;
}

adoption_step pending_adoption(const fs::path& run_dir) {
  const fs::path manifest = run_dir / run_manifest_name;
  if (is_present(manifest)) {
    if (is_toolkit_run_manifest(read_json_file(manifest))) return adoption_step::set_aside;
    const std::optional<toolkit_adoption> a = read_toolkit_adoption(run_dir);
    if (!a || !a->toolkit_best || *a->toolkit_best == 0) return adoption_step::none;
    const toolkit_iteration_figures* best = a->find(*a->toolkit_best);
    if (best == nullptr || best->snapshot.empty() || best->judged_as) return adoption_step::none;
    return read_run_manifest(run_dir).iterations.size() == 1 ? adoption_step::judge_best : adoption_step::none;
  }
  return is_present(run_dir / toolkit_manifest_name) && is_present(run_dir / toolkit_adoption_name) ? adoption_step::judge_v0
                                                                                              : adoption_step::none;
}

toolkit_adoption set_toolkit_run_aside(const fs::path& run_dir, const fs::path& given_kernel,
                                       const std::vector<std::string>& given_dims) {
  if (const std::optional<toolkit_adoption> done = read_toolkit_adoption(run_dir);
      done && is_present(run_dir / toolkit_manifest_name)) {
    check_dims(run_dir, *done, given_dims);
    return *done;  // a killed call set everything aside already
  }
  const fs::path manifest = run_dir / run_manifest_name;
  const auto toolkit = read_document_file<toolkit_run_manifest>(
      manifest, "it is the Python toolkit's record of its run, which kopt adopts; restore the toolkit's file");
  toolkit_adoption a = adoption_of(run_dir, toolkit, given_kernel);
  check_dims(run_dir, a, given_dims);
  // The folders first, the manifest last: until it moves, a new call starts the adoption over.
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(run_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && iteration_of_folder(name)) move_aside(entry.path(), run_dir / (toolkit_prefix + name));
  }
  for (const char* file : toolkit_top_files) move_aside(run_dir / file, run_dir / (std::string(toolkit_prefix) + file));
  write_adoption(run_dir, a);
  move_aside(manifest, run_dir / toolkit_manifest_name);
  return a;
}

std::optional<toolkit_adoption> read_toolkit_adoption(const fs::path& run_dir) {
  const fs::path file = run_dir / toolkit_adoption_name;
  if (!is_present(file)) return std::nullopt;
  return read_document_file<toolkit_adoption>(
      file, "it is kopt's record of the Python toolkit's run it adopted; restore it from the toolkit's files");
}

void record_judged_as(const fs::path& run_dir, std::int64_t iteration, std::int64_t judged_as) {
  std::optional<toolkit_adoption> a = read_toolkit_adoption(run_dir);
  if (!a) return;
  for (auto& f : a->iterations) {
    if (f.iteration == iteration) f.judged_as = judged_as;
  }
  write_adoption(run_dir, *a);
}

json toolkit_adoption_schema() {
  return json_schema_of<toolkit_adoption>("the Python toolkit's run that kopt adopted, with its unverified figures");
}

}  // namespace kopt::loop
