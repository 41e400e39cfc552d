#include "pipeline/precision_settings.h"

#include <regex>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "core/text.h"

namespace kopt::pipeline {
namespace {

// nvcc's defaults (no flag given), and what --use_fast_math implies (nvcc's documentation).
struct float_semantics {
  bool use_fast_math = false;
  bool ftz = false;
  bool prec_div = true;
  bool prec_sqrt = true;
  bool fmad = true;
};

std::optional<bool> truth_of(std::string_view value) {
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  return std::nullopt;
}

// One macro definition (-D NAME[=VALUE], or `#define NAME VALUE` in the source) that the CUDA
// headers read as the flag of the same meaning: nvcc defines them from its flags.
void apply_definition(float_semantics& s, std::string_view name, std::string_view value) {
  const bool on = value.empty() || truth_of(value).value_or(true);
  // The headers ask whether it is defined, whatever its value.
  if (name == "__USE_FAST_MATH__") s.use_fast_math = true;
  if (name == "__CUDA_FTZ") s.ftz = on;
  if (name == "__CUDA_PREC_DIV") s.prec_div = on;
  if (name == "__CUDA_PREC_SQRT") s.prec_sqrt = on;
}

void apply_definitions(float_semantics& s, std::string_view list) {
  // nvcc's -D takes a comma-separated list.
  while (!list.empty()) {
    const auto comma = list.find(',');
    const std::string_view one = list.substr(0, comma);
    const auto equals = one.find('=');
    apply_definition(s, one.substr(0, equals), equals == std::string_view::npos ? std::string_view() : one.substr(equals + 1));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
}

// `flag` when `argument` is it, written with one dash or two, then `=VALUE` or nothing.
std::optional<std::string_view> value_of(std::string_view argument, std::string_view flag) {
  while (argument.starts_with('-')) argument.remove_prefix(1);
  if (!argument.starts_with(flag)) return std::nullopt;
  argument.remove_prefix(flag.size());
  if (argument.empty()) return argument;
  if (argument.front() != '=') return std::nullopt;
  return argument.substr(1);
}

// nvcc's flags that take true or false, and the setting each one sets.
constexpr std::pair<std::string_view, bool float_semantics::*> valued_flags[] = {
    {"ftz", &float_semantics::ftz},
    {"prec-div", &float_semantics::prec_div},
    {"prec-sqrt", &float_semantics::prec_sqrt},
    {"fmad", &float_semantics::fmad}};

void apply_flags(float_semantics& s, const std::vector<std::string>& flags) {
  for (std::size_t i = 0; i < flags.size(); ++i) {
    const std::string& f = flags[i];
    // A value given as the next argument (`-ftz true`, `-D NAME`).
    const std::string_view next = i + 1 < flags.size() ? std::string_view(flags[i + 1]) : std::string_view();
    if (f == "-D" || f == "--define-macro") {
      apply_definitions(s, next);
    } else if (f.starts_with("-D") && !f.starts_with("--")) {
      apply_definitions(s, std::string_view(f).substr(2));
    } else if (const auto macro = value_of(f, "define-macro"); macro && !macro->empty()) {
      apply_definitions(s, *macro);
    } else if (const auto fast = value_of(f, "use_fast_math"); fast && fast->empty()) {
      s.use_fast_math = true;
    } else {
      for (const auto& [name, setting] : valued_flags) {
        const auto value = value_of(f, name);
        if (!value) continue;
        if (const auto truth = truth_of(value->empty() ? next : *value)) s.*setting = *truth;
      }
    }
  }
}

void apply_source(float_semantics& s, std::string_view source) {
  static const std::regex definition(
      R"((?:^|\n)[ \t]*#[ \t]*define[ \t]+(__USE_FAST_MATH__|__CUDA_FTZ|__CUDA_PREC_DIV|__CUDA_PREC_SQRT)\b[ \t]*([^\s]*))");
  const std::string text(source);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), definition); it != std::sregex_iterator(); ++it) {
    apply_definition(s, (*it)[1].str(), (*it)[2].str());
  }
}

std::string on_off(bool value) { return value ? "on" : "off"; }

template <typename T>
void compare(std::vector<std::string>& out, std::string_view what, const std::optional<T>& kernel,
             const std::optional<T>& reference, const T& fallback) {
  const T k = kernel.value_or(fallback);
  const T r = reference.value_or(fallback);
  if (k == r) return;
  if constexpr (std::is_same_v<T, bool>) {
    out.push_back(fmt::format("{}: kernel {}, reference {}", what, on_off(k), on_off(r)));
  } else {
    out.push_back(fmt::format("{}: kernel {}, reference {}", what, k, r));
  }
}

}  // namespace

precision_settings torch_side_precision(const harness::torch_facts& torch) {
  precision_settings s;
  s.source = "torch";
  s.float32_matmul_precision = torch.float32_matmul_precision;
  s.tf32_matmul = torch.tf32_matmul;
  s.tf32_cudnn = torch.tf32_cudnn;
  s.fp16_reduced_precision_reduction = torch.fp16_reduced_precision_reduction;
  s.bf16_reduced_precision_reduction = torch.bf16_reduced_precision_reduction;
  s.nvidia_tf32_override = torch.nvidia_tf32_override;
  return s;
}

precision_settings nvcc_side_precision(const std::vector<std::string>& build_flags, std::string_view source,
                                       const std::optional<std::string>& nvidia_tf32_override) {
  float_semantics f;
  apply_source(f, source);
  apply_flags(f, build_flags);
  if (f.use_fast_math) {
    f.ftz = true;
    f.prec_div = false;
    f.prec_sqrt = false;
    f.fmad = true;
  }
  return {.source = "nvcc",
          .nvidia_tf32_override = nvidia_tf32_override,
          .use_fast_math = f.use_fast_math,
          .ftz = f.ftz,
          .prec_div = f.prec_div,
          .prec_sqrt = f.prec_sqrt,
          .fmad = f.fmad};
}

std::vector<std::string> precision_differences(const precision_settings& k, const precision_settings& r) {
  // torch's defaults, then nvcc's (float_semantics), for a side that lacks the setting.
  std::vector<std::string> out;
  compare(out, "TF32 matmul", k.tf32_matmul, r.tf32_matmul, false);
  compare(out, "cuDNN TF32", k.tf32_cudnn, r.tf32_cudnn, true);
  compare(out, "float32 matmul precision", k.float32_matmul_precision, r.float32_matmul_precision,
          std::string("highest"));
  compare(out, "fp16 reduced-precision reduction", k.fp16_reduced_precision_reduction,
          r.fp16_reduced_precision_reduction, true);
  compare(out, "bf16 reduced-precision reduction", k.bf16_reduced_precision_reduction,
          r.bf16_reduced_precision_reduction, true);
  compare(out, "NVIDIA_TF32_OVERRIDE", k.nvidia_tf32_override, r.nvidia_tf32_override, std::string("unset"));
  const float_semantics nvcc;
  compare(out, "fast math", k.use_fast_math, r.use_fast_math, nvcc.use_fast_math);
  compare(out, "flush to zero", k.ftz, r.ftz, nvcc.ftz);
  compare(out, "IEEE division", k.prec_div, r.prec_div, nvcc.prec_div);
  compare(out, "IEEE square root", k.prec_sqrt, r.prec_sqrt, nvcc.prec_sqrt);
  compare(out, "FMA contraction", k.fmad, r.fmad, nvcc.fmad);
  return out;
}

precision_record compare_precision(precision_settings kernel, precision_settings reference) {
  precision_record record{std::move(kernel), std::move(reference), {}};
  record.differences = precision_differences(record.kernel, record.reference);
  return record;
}

std::optional<std::string> precision_warning(const precision_record& record) {
  if (record.differences.empty()) return std::nullopt;
  return fmt::format(
      "precision mismatch: the kernel and the reference ran in different precision modes ({}); a speedup may "
      "come from the mode, not the kernel: set both sides alike (or say so) before reading it",
      join(record.differences, "; "));
}

}  // namespace kopt::pipeline
