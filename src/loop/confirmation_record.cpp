#include "loop/confirmation_record.h"

#include <fmt/format.h>

#include "core/document_schema.h"
#include "core/json_io.h"
#include "loop/toolkit_run_adoption.h"
#include "measure/interval_text.h"

namespace kopt::loop {

const confirmation_attempt* final_confirmation::confirmed_attempt() const {
  for (const auto& a : attempts) {
    if (best && a.iteration == *best && a.confirmed) return &a;
  }
  return nullptr;
}

void write_confirmation(const std::filesystem::path& run_dir, const final_confirmation& confirmation) {
  write_json_file(run_dir / confirmation_file_name, to_document(confirmation));
}

std::optional<final_confirmation> read_confirmation(const std::filesystem::path& run_dir) {
  const std::filesystem::path file = run_dir / confirmation_file_name;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return std::nullopt;
  return read_document_file<final_confirmation>(
      file,
      "it is kopt's record of the final confirmation: run kopt loop --finish --run-dir to write it again");
}

std::string confirmed_speedups(const confirmation_attempt& a, std::int64_t baseline) {
  // The ratio is this version's time over the baseline's: the speedup is its inverse, and so are
  // the interval's ends, swapped.
  std::optional<std::array<double, 2>> faster;
  if (a.ratio_ci95) faster = std::array<double, 2>{1 / (*a.ratio_ci95)[1], 1 / (*a.ratio_ci95)[0]};
  std::string text = fmt::format("{:.3f}x faster than v{}{}", 1 / a.ratio_vs_baseline.value_or(1), baseline,
                                 measure::interval_after(faster, "{:.3f}"));
  if (a.speedup_vs_reference) {
    text += fmt::format(", {:.3f}x the reference{}", *a.speedup_vs_reference,
                        measure::interval_after(a.speedup_vs_reference_ci95, "{:.3f}"));
  }
  return text;
}

bool confirmation_is_current(const final_confirmation& c, const run_manifest& m) {
  if (c.iterations_recorded != static_cast<std::int64_t>(m.iterations.size()) || m.open_round) return false;
  return c.verdict != confirmation_verdict::confirmed || (c.best && m.best == c.best);
}

std::vector<pipeline::document_schema_entry> run_folder_document_schemas() {
  return {{"final_confirmation", json_schema_of<final_confirmation>("a loop run's final confirmation")},
          {"toolkit_adoption", toolkit_adoption_schema()}};
}

}  // namespace kopt::loop
