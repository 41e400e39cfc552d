#include "pipeline/bench_text.h"

#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/text.h"
#include "measure/timer_resolution.h"

namespace kopt::pipeline {
namespace {

std::string scalar_text(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// What Triton compiled and launched for one run_kernel() call (Triton's own facts: read as they
// come, nothing assumed of them).
std::string triton_text(const json& triton) {
  if (!triton.is_object()) return "";
  std::string out;
  for (const auto& k : triton.value("kernels", json::array())) {
    if (!k.is_object()) continue;
    std::vector<std::string> constexprs;
    const json constexpr_values = k.value("constexprs", json::object());
    for (const auto& [name, value] : constexpr_values.items())
      constexprs.push_back(name + "=" + scalar_text(value));
    std::vector<std::string> grid_dims;
    const json grid_values = k.value("grid", json::array());
    for (const auto& g : grid_values) grid_dims.push_back(scalar_text(g));
    const std::string grid = grid_dims.empty() ? "" : fmt::format("grid ({}), ", fmt::join(grid_dims, ", "));
    out += fmt::format(
        "triton kernel {}: {}{}, num_warps {}, num_stages {}, {} registers/thread, {} spills, {} bytes "
        "shared\n",
        k.value("name", "?"), grid,
        constexprs.empty() ? "no constexprs" : fmt::format("{}", fmt::join(constexprs, " ")),
        scalar_text(k.value("num_warps", json())), scalar_text(k.value("num_stages", json())),
        scalar_text(k.value("registers_per_thread", json())), scalar_text(k.value("spills", json())),
        scalar_text(k.value("shared_memory_bytes", json())));
    if (k.contains("autotuner") && k["autotuner"].is_object()) {
      const json& tuner = k["autotuner"];
      out += fmt::format("  autotuner: chose {} among {} configs\n",
                         tuner.value("chosen", json()).is_null() ? "nothing" : tuner["chosen"].dump(),
                         scalar_text(tuner.value("configs", json())));
    }
  }
  if (triton.value("interpreted", false))
    out += "triton: interpreted (TRITON_INTERPRET=1), nothing compiled\n";
  return out;
}

std::string runner_text(const char* what, const harness::runner_facts& runner) {
  const harness::torch_facts& torch = runner.torch;
  const harness::runner_overhead& o = runner.overhead_s;
  // Only a reference for a CUDA kernel exchanges data with kopt through files.
  const std::string exchange = o.exchange_s ? fmt::format(", data exchange {:.3f} s", *o.exchange_s) : "";
  return fmt::format(
      "{} ran in Python: torch {} (CUDA {}, TF32 matmul {}, cuDNN TF32 {}); runner {:.2f} s in all "
      "(start-up {:.2f} s{})\n",
      what, torch.version, torch.cuda, torch.tf32_matmul ? "on" : "off", torch.tf32_cudnn ? "on" : "off",
      o.runner_wall_s.value_or(o.total_s.value_or(0.0)), o.startup_s.value_or(0.0), exchange);
}

// A reference timing from an earlier run is said so: its figures are that run's.
std::string reference_timing_source(const std::optional<reference_cache_note>& cache) {
  if (!cache) return "";
  if (cache->from_cache) {
    return fmt::format(
        "reference timing: kept from {} (same reference, problem, protocol, GPU and kopt; "
        "--fresh-reference times it again)\n",
        cache->measured_at.value_or("an earlier run"));
  }
  if (cache->why) return fmt::format("reference timing: measured now, not kept: {}\n", *cache->why);
  return "";
}

std::string timing_table(const bench_result& r, bool triton) {
  std::string out =
      fmt::format("\n{:<10} {:>10} {:>10} {:>22} {:>10} {:>10} {:>10} {:>8}  {}\n", "", "time ms",
                  "median ms", "95% CI of median", "min ms", "p90 ms", "host ms", "samples", "stopped");
  const std::pair<const char*, const std::optional<measure::timing_document>*> timed[] = {
      {"kernel", &r.kernel}, {"reference", &r.reference}};
  for (const auto& [who, timing] : timed) {
    if (!*timing) continue;
    const measure::timing_document& t = **timing;
    out += fmt::format(
        "{:<10} {:>10.4f} {:>10.4f} {:>10.4f}-{:<11.4f} {:>10.4f} {:>10.4f} {:>10.4f} {:>8}  {}\n", who,
        t.headline_ms(), t.median_ms, t.median_ci95_ms[0], t.median_ci95_ms[1], t.min_ms, t.p90_ms,
        t.host_end_to_end_median_ms, t.sample_count, t.stop_reason);
  }
  const bool span = r.kernel->time_source.find("first start to the last end") != std::string::npos;
  out += fmt::format(
      "(GPU time from device timestamps, {} of one {} call; host ms is the call plus synchronisation, "
      "for comparison)\n",
      span ? "from the first start to the last end of all the work" : "summed over the kernels",
      triton ? "run_kernel()" : "solve()");
  for (const auto& [who, timing] : timed) {
    if (!*timing || (*timing)->estimator == "median") continue;
    out += fmt::format(
        "({} time: 20% trimmed mean of the samples, as the call lasts under {:.0f} steps of the {} ns "
        "timer and its median can only move by whole steps)\n",
        who, measure::fine_ticks, (*timing)->timer_tick_ns);
  }
  return out;
}

}  // namespace

std::string bench_text(const bench_result& r) {
  std::string out;
  if (!r.protocol.empty()) out += fmt::format("protocol: {}\n", r.protocol);
  if (r.correctness.checked) {
    for (const seed_check& seed : r.correctness.seeds) {
      for (const json& o : seed.outputs) {
        out += fmt::format("check (seed {}, {}): {}\n", seed.seed, seed.when,
                           o.value("summary", std::string("?")));
      }
    }
  } else {
    out += "check: no reference given, outputs not validated (guards and inputs were checked)\n";
    for (const harness::buffer_preview& p : r.previews.value_or(std::vector<harness::buffer_preview>{})) {
      out += fmt::format("preview: {} ({}, {} x {}): {}{}\n", p.buffer, p.role, p.elements, p.type, join(p.first, " "),
                         p.elements > static_cast<std::int64_t>(p.first.size()) ? " ..." : "");
    }
  }
  const bool triton = !r.triton.is_null();
  out += triton_text(r.triton);
  if (!r.kernel) return out;
  out += timing_table(r, triton);
  if (r.timed_call_checks) {
    out += fmt::format(
        "timed calls: {}, each with fresh inputs and poisoned outputs; {} checked in full at random\n",
        r.timed_call_checks->calls, r.timed_call_checks->checked);
  }
  const double kernel_ms = r.kernel->headline_ms();
  if (kernel_ms > 0) {
    out += fmt::format(
        "approximate bandwidth: {:.1f} GB/s (buffer bytes / time; an estimate, not a measurement)\n",
        static_cast<double>(r.buffer_bytes) / (kernel_ms * 1e-3) / 1e9);
  }
  if (r.speedup_vs_reference) {
    const std::string interval = r.speedup_vs_reference_ci95 ? fmt::format(", 95% interval {:.3f}-{:.3f}",
                                                                           (*r.speedup_vs_reference_ci95)[0],
                                                                           (*r.speedup_vs_reference_ci95)[1])
                                                             : "";
    std::string verdict = "?";
    std::string why;
    if (r.kernel_vs_reference) {
      verdict = r.kernel_vs_reference->verdict == measure::verdict::same
                    ? "no faster or slower"
                    : enum_name(r.kernel_vs_reference->verdict);
      why = r.kernel_vs_reference->reason;
    }
    out += fmt::format(
        "speedup vs reference: {:.3f}x (ratio of GPU times{}); kernel is {} than the reference ({})\n",
        *r.speedup_vs_reference, interval, verdict, why);
  }
  out += reference_timing_source(r.reference_timing_cache);
  if (r.reference_runner) out += runner_text("reference", *r.reference_runner);
  if (r.python_runner) out += runner_text("kernel and reference", *r.python_runner);
  for (const std::string& warning : r.warnings) out += fmt::format("warning: {}\n", warning);
  return out;
}

std::string bench_summary_line(const bench_result& r) {
  if (!r.kernel) return "";
  const measure::timing_document& k = *r.kernel;
  std::string line = fmt::format("kernel {:.6g} ms ({}), 95 % interval of the median [{:.6g}, {:.6g}]",
                                 k.headline_ms(), k.estimator, k.median_ci95_ms[0], k.median_ci95_ms[1]);
  if (r.speedup_vs_reference) line += fmt::format(", {:.3f}x the reference", *r.speedup_vs_reference);
  return line;
}

std::string phases_text(const bench_result& r) {
  std::vector<std::string> parts;
  for (const auto& [name, seconds] : r.phases_s.steps) {
    std::string part = fmt::format("{} {:.2f} s", name, seconds);
    // "kernel_process" has the kernel's own steps, "reference_process" the reference's.
    const phase_seconds* side = name == "kernel_process"      ? &r.phases_s.kernel
                                : name == "reference_process" ? &r.phases_s.reference
                                                              : nullptr;
    if (side != nullptr && !side->empty()) {
      std::vector<std::string> steps;
      std::vector<std::string> ahead;  // spent before the process's gate, during the build
      for (const auto& [step, step_seconds] : *side) {
        (step.ends_with("_made_ahead") ? ahead : steps)
            .push_back(fmt::format("{} {:.2f}", step, step_seconds));
      }
      if (!steps.empty()) part += " (" + join(steps, ", ") + ")";
      if (!ahead.empty()) part += " [before it, during the build: " + join(ahead, ", ") + "]";
    }
    parts.push_back(part);
  }
  return parts.empty() ? "" : "where the time went: " + join(parts, "; ") + "\n";
}

std::string sanitizer_text(const sanitizer_record& pass) {
  const std::string outcome = pass.status == sanitizer_status::clean ? "no errors"
                              : pass.status == sanitizer_status::errors
                                  ? fmt::format("{} error(s)", pass.errors)
                                  : "the kernel failed under the tool";
  std::string out = fmt::format("compute-sanitizer {}: {}\n", pass.tool, outcome);
  if (pass.status == sanitizer_status::clean) return out;
  for (const std::string& line : pass.report) out += fmt::format("  {}\n", line);
  return out;
}

}  // namespace kopt::pipeline
