// kopt inspect KERNEL [dims]: what kopt will do with a kernel, without building or running it:
// backend, solve()'s parameters, roles, buffer sizes and contents, scalar values.

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/dimension_args.h"
#include "cli/kernel_flags.h"
#include "cli/option_checks.h"
#include "cli/terminal.h"
#include "compile/shell_safety.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_io.h"
#include "core/text.h"
#include "core/text_table.h"
#include "kernel/buffer_plan.h"
#include "kernel/tune_space.h"

namespace kopt::cli {
namespace {

std::string values_column(const kernel::buffer_spec& b) {
  if (b.role == kernel::buffer_role::out) return "poison";
  const auto& v = b.values;
  return fmt::format("{} ({})", v.describe(),
                     v.from_annotation ? fmt::format("line {}", v.line) : "default");
}

std::string scalar_text(const kernel::bound_scalar& s) {
  return kernel::format_value(std::holds_alternative<int64_t>(s.value)
                                  ? kernel::element_value{std::get<int64_t>(s.value)}
                                  : kernel::element_value{std::get<double>(s.value)});
}

std::string format_plan(const kernel::kernel_plan& plan) {
  std::string out;
  out += fmt::format("kernel   {}\n", plan.file.string());
  out += fmt::format("backend  {} ({})\n", kernel::to_string(plan.backend), plan.backend_reason);
  if (!plan.solve) {
    out += "solve()  none: a Triton module's buffers come from its setup() at run time\n";
    if (!plan.passed_through.empty()) {
      std::vector<std::string> dims;
      for (const auto& d : plan.passed_through) dims.push_back(fmt::format("{}={}", d.name, d.value));
      out += fmt::format("setup()  {}\n", join(dims, " "));
    }
  } else {
    out += fmt::format("solve()  line {}: {} buffers, {} scalars\n\n", plan.solve->line,
                       plan.buffers.size(), plan.scalars.size());
    std::vector<std::vector<std::string>> rows = {
        {"#", "name", "type", "role", "elements", "bytes", "values", "size / given as"}};
    std::vector<std::vector<std::string>> by_index(plan.solve->parameters.size());
    for (const auto& b : plan.buffers) {
      by_index[static_cast<size_t>(b.param.index)] = {
          std::to_string(b.param.index), b.param.name, b.param.spelled_type,
          std::string(kernel::to_string(b.role)), format_thousands(b.elements),
          format_bytes(static_cast<double>(b.bytes)), values_column(b), b.rule.description};
    }
    for (const auto& s : plan.scalars) {
      by_index[static_cast<size_t>(s.param.index)] = {
          std::to_string(s.param.index), s.param.name, s.param.spelled_type, "scalar", "", "",
          scalar_text(s),
          kernel::spell_dimension({s.param.name, s.text, s.via_dim_flag})};
    }
    rows.insert(rows.end(), by_index.begin(), by_index.end());
    out += format_table(rows);
    out += fmt::format("\ndevice memory  {} ({} bytes) in {} buffers\n",
                       format_bytes(static_cast<double>(plan.total_bytes)),
                       format_thousands(plan.total_bytes), plan.buffers.size());
  }
  if (!plan.notes.empty()) {
    out += "\nnotes\n";
    for (const auto& note : plan.notes) out += fmt::format("  - {}\n", note);
  }
  return out;
}

// The tune() parameters and how many of their configurations the restrictions leave here.
std::string tune_text(const kernel::planned_tune_space& tune) {
  const kernel::tune_space& space = tune.space;
  std::vector<std::string> parameters;
  for (const kernel::tune_parameter& p : space.parameters()) {
    std::vector<std::string> values;
    for (const int64_t v : p.values) values.push_back(std::to_string(v));
    parameters.push_back(fmt::format("{} in {{{}}}", p.name, join(values, ", ")));
  }
  std::string out = fmt::format("\ntune     {}: {} configurations, {} allowed at these dimensions\n",
                                join(parameters, ", "), space.size(), tune.allowed.size());
  for (const kernel::restrict_item& r : space.restrictions()) {
    out += fmt::format("         restrict({}) (line {})\n", r.condition.text(), r.line);
  }
  return out;
}

// --quiet: the plan in one line.
std::string plan_line(const kernel::kernel_plan& plan) {
  if (!plan.solve) {
    return fmt::format("{}: {}, buffers from setup() at run time", plan.file.filename().string(),
                       kernel::to_string(plan.backend));
  }
  return fmt::format("{}: {}, {} buffers, {} scalars, {} of device memory", plan.file.filename().string(),
                     kernel::to_string(plan.backend), plan.buffers.size(), plan.scalars.size(),
                     format_bytes(static_cast<double>(plan.total_bytes)));
}

// --verbose: where each buffer's role, size and values came from.
std::string plan_reasons(const kernel::kernel_plan& plan) {
  if (plan.buffers.empty()) return "";
  std::string out = "\nwhy\n";
  for (const auto& b : plan.buffers) {
    out += fmt::format("  {}: {} from {}; {} elements from {}{}", b.param.name, kernel::to_string(b.role),
                       b.role_source, format_thousands(b.elements), b.rule.description,
                       b.rule.capped ? " (capped at 256 Mi elements)" : "");
    if (b.role != kernel::buffer_role::out) {
      out += fmt::format("; values {}", b.values.from_annotation ? fmt::format("from the annotation (line {})", b.values.line)
                                                                 : std::string("by default"));
    }
    out += '\n';
  }
  return out;
}

class inspect_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    m_sub = &sub;
    sub.allow_extras();
    sub.add_option("kernel", m_kernel, "kernel source: .cu (CUDA, CUTLASS) or .py (Triton)")
        ->required();
    sub.add_option("--backend", m_backend, "cuda, cutlass, triton, or auto (the default: from the file)");
    sub.add_option("--ptr-size", m_ptr_size,
                   "element count of buffers without a size in the kopt annotation")
        ->check(at_least<std::int64_t>(0, "elements"));
    sub.add_option("--dim", m_dim_flags,
                   "NAME=VALUE: set solve()'s scalar NAME; works also for names of kopt's flags")
        ->expected(1)
        ->allow_extra_args(false)  // one NAME=VALUE per --dim; the next word is not another
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    sub.add_option("-D", m_defines,
                   "preprocessor definition NAME[=VALUE] (repeatable): picks which #if variant of solve() is planned");
    add_output_flags(sub, m_output, "print the plan as JSON", true);
    sub.footer("Dimensions: --NAME=VALUE sets solve()'s scalar parameter NAME, e.g. --M=4096.\n"
               "Buffer sizes come from the `// kopt:` annotation (docs/annotations.md).");
  }

  int run(const pipeline::services&) override {
    const std::vector<kernel::dimension_arg> dims =
        collect_dimension_args(m_sub->remaining(), m_dim_flags, m_sub);
    const std::optional<kernel::backend> requested = kernel::parse_backend_request(m_backend.value_or(""));
    const std::string source = read_text_file(m_kernel, "kernel source");
    compile::check_defines(m_defines);
    const kernel::kernel_plan plan = kernel::plan_kernel(m_kernel, source, requested, dims,
                                                         m_ptr_size, kopt_flag_names(*m_sub), m_defines);
    // What kopt tune would try at these dimensions.
    const kernel::planned_tune_space tune = kernel::plan_tune_space(plan, source);
    if (m_output.json) {
      std::fputs((json_text(with_schema("inspect", 1, kernel::inspect_document(plan, tune))) + "\n").c_str(),
                 stdout);
    } else if (m_output.level == verbosity::quiet) {
      printer(m_output.level).result(plan_line(plan));
    } else {
      std::fputs(format_plan(plan).c_str(), stdout);
      if (!tune.space.empty()) std::fputs(tune_text(tune).c_str(), stdout);
      if (m_output.level == verbosity::verbose) std::fputs(plan_reasons(plan).c_str(), stdout);
    }
    return static_cast<int>(exit_status::ok);
  }

 private:
  CLI::App* m_sub = nullptr;
  std::string m_kernel;
  std::optional<std::string> m_backend;
  std::optional<int64_t> m_ptr_size;
  std::vector<std::string> m_defines;
  std::vector<std::string> m_dim_flags;
  output_choice m_output;
};

}  // namespace

std::unique_ptr<command> make_inspect_command() { return std::make_unique<inspect_command>(); }

}  // namespace kopt::cli
