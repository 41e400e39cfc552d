#include "cli/bench_report.h"

#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/text.h"
#include "harness/result_fields.h"
#include "measure/timer_resolution.h"

namespace kopt::cli {
namespace {

std::string scalar_text(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// What Triton compiled and launched for one run_kernel() call.
void print_triton_facts(std::FILE* out, const json& triton) {
  for (const auto& k : triton.value("kernels", json::array())) {
    std::vector<std::string> constexprs;
    for (const auto& [name, value] : k["constexprs"].items()) constexprs.push_back(name + "=" + scalar_text(value));
    std::vector<std::int64_t> grid_dims;
    for (const auto& g : k.value("grid", json::array())) grid_dims.push_back(g.get<std::int64_t>());
    const std::string grid = grid_dims.empty() ? "" : fmt::format("grid ({}), ", fmt::join(grid_dims, ", "));
    std::fprintf(out, "triton kernel %s: %s%s, num_warps %s, num_stages %s, %s registers/thread, %s spills, %s bytes shared\n",
                k.value("name", "?").c_str(), grid.c_str(),
                constexprs.empty() ? "no constexprs" : fmt::format("{}", fmt::join(constexprs, " ")).c_str(),
                scalar_text(k["num_warps"]).c_str(), scalar_text(k["num_stages"]).c_str(),
                scalar_text(k["registers_per_thread"]).c_str(), scalar_text(k["spills"]).c_str(),
                scalar_text(k["shared_memory_bytes"]).c_str());
    if (k.contains("autotuner")) {
      const json& tuner = k["autotuner"];
      std::fprintf(out, "  autotuner: chose %s among %d configs\n",
                  tuner["chosen"].is_null() ? "nothing" : tuner["chosen"].dump().c_str(), tuner["configs"].get<int>());
    }
  }
  if (triton.value("interpreted", false)) std::fprintf(out, "triton: interpreted (TRITON_INTERPRET=1), nothing compiled\n");
}

void print_python_runner(std::FILE* out, const char* what, const json& runner) {
  const json& torch = runner["torch"];
  const json& overhead = runner["overhead_s"];
  // Only a reference for a CUDA kernel exchanges data with kopt through files.
  const std::string exchange =
      overhead.contains("exchange_s") ? fmt::format(", data exchange {:.3f} s", overhead["exchange_s"].get<double>()) : "";
  std::fprintf(out, "%s ran in Python: torch %s (CUDA %s, TF32 matmul %s, cuDNN TF32 %s); runner %.2f s in all "
              "(start-up %.2f s%s)\n",
              what, torch.value("version", "?").c_str(), torch.value("cuda", "?").c_str(),
              torch.value("tf32_matmul", false) ? "on" : "off", torch.value("tf32_cudnn", false) ? "on" : "off",
              overhead.value("runner_wall_s", overhead.value("total_s", 0.0)), overhead.value("startup_s", 0.0),
              exchange.c_str());
}

// A reference timing from an earlier run is said so: its figures are that run's.
void print_reference_timing_source(std::FILE* out, const json& cache) {
  if (!cache.is_object()) return;
  if (cache.value("from_cache", false)) {
    std::fprintf(out, "reference timing: kept from %s (same reference, problem, protocol, GPU and kopt; "
                 "--fresh-reference times it again)\n",
                 cache.value("measured_at", std::string("an earlier run")).c_str());
  } else if (cache.contains("why")) {
    std::fprintf(out, "reference timing: measured now, not kept: %s\n", cache["why"].get<std::string>().c_str());
  }
}

}  // namespace

void print_bench_result(std::FILE* out, const pipeline::bench_result& r, std::int64_t buffer_bytes) {
  if (!r.protocol.empty()) std::fprintf(out, "protocol: %s\n", r.protocol.c_str());
  if (r.correctness.checked) {
    for (const auto& seed : r.correctness.seeds) {
      for (const auto& o : seed["outputs"]) {
        std::fprintf(out, "check (seed %llu, %s): %s\n", static_cast<unsigned long long>(seed["seed"].get<std::uint64_t>()),
                     seed["when"].get<std::string>().c_str(), o["summary"].get<std::string>().c_str());
      }
    }
  } else {
    std::fprintf(out, "check: no reference given, outputs not validated (guards and inputs were checked)\n");
  }
  const bool triton = !r.triton.is_null();
  if (triton) print_triton_facts(out, r.triton);
  if (r.kernel.is_null()) return;
  std::fprintf(out, "\n%-10s %10s %10s %22s %10s %10s %10s %8s  %s\n", "", "time ms", "median ms", "95% CI of median",
               "min ms", "p90 ms", "host ms", "samples", "stopped");
  const std::pair<const char*, const json*> timed[] = {{"kernel", &r.kernel}, {"reference", &r.reference}};
  for (const auto& [who, timing] : timed) {
    if (timing->is_null()) continue;
    const json& t = *timing;
    std::fprintf(out, "%-10s %10.4f %10.4f %10.4f-%-11.4f %10.4f %10.4f %10.4f %8zu  %s\n", who, harness::headline_ms(t),
                 t["median_ms"].get<double>(), t["median_ci95_ms"][0].get<double>(), t["median_ci95_ms"][1].get<double>(),
                 t["min_ms"].get<double>(), t["p90_ms"].get<double>(), t["host_end_to_end_median_ms"].get<double>(),
                 t["sample_count"].get<std::size_t>(), t["stop_reason"].get<std::string>().c_str());
  }
  const bool span = r.kernel.value("time_source", "").find("first start to the last end") != std::string::npos;
  std::fprintf(out, "(GPU time from device timestamps, %s of one %s call; host ms is the call plus synchronisation, "
               "for comparison)\n",
               span ? "from the first start to the last end of all the work" : "summed over the kernels",
               triton ? "run_kernel()" : "solve()");
  for (const auto& [who, timing] : timed) {
    if (timing->is_null() || timing->value("estimator", "median") == "median") continue;
    std::fprintf(out, "(%s time: 20%% trimmed mean of the samples, as the call lasts under %.0f steps of the %llu ns timer "
                 "and its median can only move by whole steps)\n",
                 who, measure::fine_ticks, static_cast<unsigned long long>((*timing)["timer_tick_ns"].get<std::uint64_t>()));
  }
  if (!r.timed_call_checks.is_null()) {
    std::fprintf(out, "timed calls: %llu, each with fresh inputs and poisoned outputs; %zu checked in full at random\n",
                 static_cast<unsigned long long>(r.timed_call_checks["calls"].get<std::uint64_t>()),
                 r.timed_call_checks["checked"].get<std::size_t>());
  }
  const double kernel_ms = harness::headline_ms(r.kernel);
  if (kernel_ms > 0) {
    std::fprintf(out, "approximate bandwidth: %.1f GB/s (buffer bytes / time; an estimate, not a measurement)\n",
                 static_cast<double>(buffer_bytes) / (kernel_ms * 1e-3) / 1e9);
  }
  if (r.speedup_vs_reference) {
    std::string interval;
    if (r.speedup_vs_reference_ci95.is_array()) {
      interval = fmt::format(", 95% interval {:.3f}-{:.3f}", r.speedup_vs_reference_ci95[0].get<double>(),
                             r.speedup_vs_reference_ci95[1].get<double>());
    }
    const json& verdict = r.kernel_vs_reference;
    std::fprintf(out, "speedup vs reference: %.3fx (ratio of GPU times%s); kernel is %s than the reference (%s)\n",
                 *r.speedup_vs_reference, interval.c_str(),
                 verdict["verdict"] == "same" ? "no faster or slower" : verdict["verdict"].get<std::string>().c_str(),
                 verdict["reason"].get<std::string>().c_str());
  }
  print_reference_timing_source(out, r.reference_timing_cache);
  if (!r.reference_runner.is_null()) print_python_runner(out, "reference", r.reference_runner);
  if (!r.python_runner.is_null()) print_python_runner(out, "kernel and reference", r.python_runner);
  for (const std::string& warning : r.warnings) std::fprintf(out, "warning: %s\n", warning.c_str());
}

void print_phases(std::FILE* out, const pipeline::bench_result& r) {
  if (!r.phases_s.is_object()) return;
  std::vector<std::string> parts;
  for (const auto& [name, value] : r.phases_s.items()) {
    if (!value.is_number()) continue;
    std::string part = fmt::format("{} {:.2f} s", name, value.get<double>());
    // "kernel_process" has the kernel's own steps under "kernel".
    const std::string side = name.size() > 8 && name.ends_with("_process") ? name.substr(0, name.size() - 8) : "";
    if (!side.empty() && r.phases_s.contains(side) && r.phases_s[side].is_object()) {
      std::vector<std::string> steps;
      std::vector<std::string> ahead;  // spent before the process's gate, during the build
      for (const auto& [step, seconds] : r.phases_s[side].items()) {
        if (!seconds.is_number()) continue;
        const std::string shown = fmt::format("{} {:.2f}", step, seconds.get<double>());
        (step.ends_with("_made_ahead") ? ahead : steps).push_back(shown);
      }
      if (!steps.empty()) part += " (" + join(steps, ", ") + ")";
      if (!ahead.empty()) part += " [before it, during the build: " + join(ahead, ", ") + "]";
    }
    parts.push_back(part);
  }
  if (!parts.empty()) std::fprintf(out, "where the time went: %s\n", join(parts, "; ").c_str());
}

}  // namespace kopt::cli
