#include "tune/tune_run.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "core/document.h"
#include "core/enum_names.h"
#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "core/json_io.h"
#include "core/utc_time.h"
#include "core/version.h"
#include "env/gpu_probe.h"
#include "kernel/tune_space.h"
#include "measure/outcome.h"
#include "pipeline/bench_preparation.h"
#include "pipeline/comparison_pipeline.h"
#include "tune/tune_strategy.h"
#include "tune/tuned_source.h"

namespace kopt::tune {
namespace {
namespace fs = std::filesystem;

fs::path create_tune_dir(const tune_request& request) {
  const fs::path kernel = fs::absolute(request.bench.target.kernel);
  const fs::path root =
      request.runs_root.empty() ? kernel.parent_path() / "tune_runs" : fs::absolute(request.runs_root);
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec)
    throw error(fmt::format("cannot create {}: {}; pass --out in a folder you can write", root.string(),
                            ec.message()));
  const std::string name = "tune_" + utc_compact_timestamp();
  for (int attempt = 1; attempt < 100; ++attempt) {
    const fs::path dir = root / (attempt == 1 ? name : fmt::format("{}_{}", name, attempt));
    if (fs::create_directory(dir, ec)) return dir;
  }
  throw error(fmt::format("cannot create a tune folder in {}: remove old ones or pass --out", root.string()));
}

// What makes a configuration's result the same as an earlier one's: the sources, the problem,
// the configuration and the other definitions, the protocol and tolerances, the GPU, its
// driver, the compiler named and kopt itself.
json cache_key_fields(const tune_request& request, std::string_view kernel_source,
                      const env::gpu_probe_result& gpus) {
  const pipeline::bench_target& t = request.bench.target;
  const env::gpu_device* device = gpus.device(t.gpu);
  json dims = json::array();
  for (const kernel::dimension_arg& d : t.dims) dims.push_back(d.name + "=" + d.value);
  const json fields{{"kopt_version", version_string},
                    {"kernel", sha256_hex(kernel_source)},
                    {"reference", sha256_hex(read_text_file(t.ref, "reference"))},
                    {"dimensions", dims},
                    {"ptr_size", t.ptr_size ? json(*t.ptr_size) : json(nullptr)},
                    {"defines", t.defines},
                    {"arch", t.arch},
                    {"nvcc", t.nvcc_bin},
                    {"protocol", to_document(request.bench.job.sampling)},
                    {"seed", request.bench.job.seed},
                    {"atol", request.bench.atol ? json(*request.bench.atol) : json(nullptr)},
                    {"rtol", request.bench.rtol ? json(*request.bench.rtol) : json(nullptr)},
                    {"gpu", device != nullptr ? device->uuid : ""},
                    {"driver", gpus.driver_version}};
  return fields;
}

// The fields above, read once a tune, with the configuration.
std::string cache_key(json fields, const kernel::tune_configuration& c) {
  fields["configuration"] = c.text();
  return sha256_hex(json_text(fields, -1));
}

std::optional<measured_configuration> cached(const tune_request& request, const std::string& key) {
  if (!request.cache_folder) return std::nullopt;
  const fs::path file = *request.cache_folder / (key + ".json");
  if (!fs::exists(file)) return std::nullopt;
  try {
    measured_configuration m = from_document<measured_configuration>(read_json_file(file));
    m.cached = true;
    return m;
  } catch (const error&) {
    return std::nullopt;  // a damaged entry (a document_error too) is measured again and written anew
  }
}

void keep(const tune_request& request, const std::string& key, const measured_configuration& m) {
  if (!request.cache_folder) return;
  std::error_code ec;
  fs::create_directories(*request.cache_folder, ec);
  write_json_file(*request.cache_folder / (key + ".json"), to_document(m));
}

measured_configuration measure(const tune_request& request, const kernel::tune_configuration& c,
                               const std::string& label, pipeline::measuring_worker& worker) {
  pipeline::bench_request bench = request.bench;
  for (const std::string& d : c.defines()) bench.target.defines.push_back(d);
  if (request.progress)
    bench.progress = [&](const std::string& step) { request.progress(label + ": " + step); };
  const pipeline::bench_outcome o = pipeline::run_bench(bench, worker);
  measured_configuration m{c.text(), c.defines(), "", "", std::nullopt, std::nullopt, false};
  if (o.prepared.failed_build) {
    m.status = "build_failed";
    m.reason = o.prepared.failed_build->result.failure_reason;
    return m;
  }
  m.status = enum_name(o.result.status);
  m.reason = o.result.reason;
  if (o.result.ok() && o.result.kernel) {
    m.median_ms = o.result.kernel->median_ms;
    m.median_ci95_ms = o.result.kernel->median_ci95_ms;
  }
  return m;
}

// The fastest two that passed, by median, compared in turns from files with their values
// written in: the runner-up wins only when found faster. The winner's file is kept as the tuned
// kernel.
tune_winner choose_winner(const tune_request& request, std::string_view source,
                          const std::vector<const measured_configuration*>& ranked,
                          const std::vector<kernel::tune_configuration>& configurations, const fs::path& dir,
                          pipeline::measuring_worker& worker) {
  const fs::path kernel = request.bench.target.kernel;
  const auto configuration_of = [&](const measured_configuration* m) {
    return *std::find_if(configurations.begin(), configurations.end(),
                         [&](const kernel::tune_configuration& c) { return c.text() == m->configuration; });
  };
  const auto write_tuned = [&](const measured_configuration* m, const std::string& name) {
    const fs::path file = dir / (kernel.stem().string() + name + kernel.extension().string());
    write_file_atomic(file, tuned_source(source, configuration_of(m)));
    return file;
  };
  const measured_configuration* best = ranked[0];
  tune_winner w{
      best->configuration, best->defines, *best->median_ms, "", "the only configuration that passed",
      std::nullopt};
  if (ranked.size() > 1) {
    const measured_configuration* second = ranked[1];
    pipeline::file_comparison_request compare;
    compare.target = request.bench.target;
    compare.baseline = write_tuned(best, "_first");
    compare.candidate = write_tuned(second, "_second");
    compare.job = request.bench.job;
    compare.settings = request.comparison;
    if (request.progress) {
      compare.progress = [&](const std::string& step) {
        request.progress("the fastest two in turns: " + step);
      };
    }
    const pipeline::file_comparison c = pipeline::compare_files(compare, worker);
    const measure::outcome_evidence& e = c.turns.evidence;
    const std::string outcome =
        c.turns.failure.empty() ? std::string(measure::to_string(e.verdict)) : "failed";
    w.comparison =
        winner_comparison{second->configuration, outcome, e.ratio, {e.ratio_ci95.low, e.ratio_ci95.high}};
    if (outcome == "positive") {
      w = tune_winner{second->configuration, second->defines, *second->median_ms, "", "", w.comparison};
      w.reason = fmt::format("faster than {} in turns ({:.4f}x its time)", best->configuration, e.ratio);
    } else {
      w.reason = fmt::format("fastest median; the runner-up {} was {} in turns ({:.4f}x its time)",
                             second->configuration, outcome, e.ratio);
    }
  }
  const auto chosen = std::find_if(ranked.begin(), ranked.end(), [&](const measured_configuration* m) {
    return m->configuration == w.configuration;
  });
  w.tuned_file = write_tuned(*chosen, "_tuned").string();
  return w;
}

}  // namespace

fs::path default_tune_cache_folder() {
  return cache_root() / "tune";
}

tune_outcome run_tune(const tune_request& request, pipeline::measuring_worker& worker) {
  const pipeline::bench_target& target = request.bench.target;
  if (target.ref.empty()) {
    throw error(
        "kopt tune judges every configuration against a reference: give --ref REF (a .py module or a .cu "
        "file)");
  }
  const kernel::kernel_plan plan = pipeline::plan_target(target);
  if (!plan.solve) {
    throw error(
        fmt::format("{} is a Triton module: kopt tune searches the -D macros of a CUDA or CUTLASS kernel's "
                    "tune(...) annotations; Triton @autotune configurations are not searched yet",
                    target.kernel.string()));
  }
  const std::string source = read_text_file(target.kernel, "kernel source");
  const kernel::planned_tune_space tune = kernel::plan_tune_space(plan, source);
  if (tune.space.empty()) {
    throw error(
        fmt::format("{} declares no tune parameters: add // kopt: tune(MACRO, V1, V2, ...) for its -D macros "
                    "(docs/annotations.md)",
                    target.kernel.string()));
  }
  const std::vector<kernel::tune_configuration>& configurations = tune.allowed;
  if (configurations.empty()) {
    throw error(
        fmt::format("{}: the restrict() conditions leave none of the {} configurations at these dimensions",
                    target.kernel.string(), tune.space.size()));
  }
  std::unique_ptr<tune_proposer> proposer =
      make_tune_proposer(request.strategy, tune, request.seed, request.budget);
  const json key_fields = cache_key_fields(request, source, worker.probe_gpus());
  tune_outcome out{{}, create_tune_dir(request)};
  tune_result& r = out.result;
  r = tune_result{target.kernel.string(),
                  target.ref.string(),
                  out.run_dir.string(),
                  {},
                  request.strategy,
                  request.seed,
                  request.budget,
                  request.minutes,
                  "every allowed configuration measured",
                  tune.space.size(),
                  configurations.size(),
                  {},
                  std::nullopt};
  for (const kernel::dimension_arg& d : target.dims) r.dimensions.push_back(d.name + "=" + d.value);
  const fs::path result_file = out.run_dir / "tune_result.json";
  const auto began = std::chrono::steady_clock::now();
  std::vector<measured_point> so_far;
  int measured = 0;
  while (const std::optional<std::size_t> index = proposer->next(so_far)) {
    if (std::any_of(so_far.begin(), so_far.end(),
                    [&](const measured_point& p) { return p.index == *index; })) {
      throw error(fmt::format("the {} strategy proposed configuration {} twice: a bug in kopt",
                              request.strategy, configurations[*index].text()));
    }
    const kernel::tune_configuration& c = configurations[*index];
    const std::string key = cache_key(key_fields, c);
    if (std::optional<measured_configuration> earlier = cached(request, key)) {
      r.measured.push_back(std::move(*earlier));
    } else {
      if (request.budget && measured >= *request.budget) {
        r.stopped = fmt::format("stopped by --budget {}", *request.budget);
        break;
      }
      const std::chrono::duration<double, std::ratio<60>> elapsed = std::chrono::steady_clock::now() - began;
      if (request.minutes && elapsed.count() >= *request.minutes) {
        r.stopped = fmt::format("stopped by --minutes {:g}", *request.minutes);
        break;
      }
      const std::string label = fmt::format(
          "configuration {} of {} ({})", so_far.size() + 1,
          request.budget
              ? std::min<std::size_t>(configurations.size(), so_far.size() + *request.budget - measured)
              : configurations.size(),
          c.text());
      r.measured.push_back(measure(request, c, label, worker));
      ++measured;
      keep(request, key, r.measured.back());
    }
    const measured_configuration& m = r.measured.back();
    so_far.push_back({*index, m.passed() ? m.median_ms : std::nullopt});
    write_json_file(result_file, to_json(r));  // a killed tune leaves what it measured
  }
  std::vector<const measured_configuration*> ranked;
  for (const measured_configuration& m : r.measured) {
    if (m.passed()) ranked.push_back(&m);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const measured_configuration* a, const measured_configuration* b) {
                     return *a->median_ms < *b->median_ms;
                   });
  if (!ranked.empty()) r.winner = choose_winner(request, source, ranked, configurations, out.run_dir, worker);
  write_json_file(result_file, to_json(r));
  return out;
}

}  // namespace kopt::tune
