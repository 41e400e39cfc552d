#include "kernel/scalar_binding.h"

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>

#include <fmt/format.h>

#include "core/closest_name.h"
#include "core/error.h"
#include "core/text.h"

namespace kopt::kernel {
namespace {

const dimension_arg* find_arg(const std::vector<dimension_arg>& dims, const std::string& name) {
  for (const auto& arg : dims) {
    if (arg.name == name) return &arg;
  }
  return nullptr;
}

std::string scalar_names(const signature& solve) {
  std::vector<std::string> names;
  for (const parameter* p : solve.scalars()) names.push_back(p->name);
  return join(names, ", ");
}

std::optional<int64_t> parse_int64(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<double> parse_double(const std::string& text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())) != 0) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::string example_value(const element_type& type) {
  if (type.is_floating()) return "2.5";
  if (type.kind == element_kind::boolean) return "1";
  return "4096";
}

[[noreturn]] void bad_value(const parameter& p, const dimension_arg& arg, const std::string& why) {
  throw error(fmt::format("bad value for dimension {}: {} (solve() declares '{} {}'); pass e.g. {}",
                          p.name, why, p.spelled_type, p.name,
                          spell_dimension({p.name, example_value(p.element), arg.via_dim_flag})));
}

scalar_value parse_value(const parameter& p, const dimension_arg& arg) {
  const element_type& type = p.element;
  if (type.is_floating()) {
    const auto value = parse_double(arg.value);
    if (!value) bad_value(p, arg, fmt::format("'{}' is not a finite number", arg.value));
    if (type.size_bytes == 4 && std::fabs(*value) > FLT_MAX) {
      bad_value(p, arg, fmt::format("{} does not fit in a float", arg.value));
    }
    return *value;
  }
  if (type.kind == element_kind::boolean) {
    if (arg.value == "1" || arg.value == "true") return int64_t{1};
    if (arg.value == "0" || arg.value == "false") return int64_t{0};
    bad_value(p, arg, fmt::format("'{}' is not a bool: use 0, 1, true or false", arg.value));
  }
  const auto value = parse_int64(arg.value);
  if (!value) {
    // Digits that do not fit 64 bits are a whole number all the same: say what they do not fit.
    const std::string& v = arg.value;
    const std::size_t digits_from = !v.empty() && (v[0] == '-' || v[0] == '+') ? 1 : 0;
    const bool all_digits = v.size() > digits_from &&
                            v.find_first_not_of("0123456789", digits_from) == std::string::npos;
    if (all_digits) {
      bad_value(p, arg, fmt::format("{} does not fit in {} ({} to {})", v, p.spelled_type, type.min_value(),
                                    type.max_value()));
    }
    const bool is_number = parse_double(v).has_value();
    bad_value(p, arg, fmt::format("'{}' is not {}", v, is_number ? "a whole number" : "an integer"));
  }
  if (*value < type.min_value() || *value > type.max_value()) {
    bad_value(p, arg, fmt::format("{} does not fit in {} ({} to {})", arg.value, p.spelled_type,
                                  type.min_value(), type.max_value()));
  }
  return *value;
}

}  // namespace

std::string spell_dimension(const dimension_arg& arg) {
  return arg.via_dim_flag ? fmt::format("--dim {}={}", arg.name, arg.value)
                          : fmt::format("--{}={}", arg.name, arg.value);
}

scalar_binding bind_scalars(const signature& solve, const std::vector<dimension_arg>& dims,
                            const std::vector<std::string>& own_flag_names) {
  for (const auto& arg : dims) {
    const parameter* p = solve.find(arg.name);
    if (p == nullptr) {
      const std::string scalars = scalar_names(solve);
      // `--warmupp 5` parses like a dimension: a name one typo from an option is that option.
      const std::string option = closest_name(arg.name, own_flag_names);
      throw error(fmt::format("unknown dimension {}: solve() has no scalar parameter {}; {}{}",
                              spell_dimension(arg), arg.name,
                              option.empty() ? "" : fmt::format("did you mean the option --{}? ", option),
                              scalars.empty() ? "it takes no scalars" : "its scalars are " + scalars));
    }
    if (p->is_pointer) {
      throw error(fmt::format("{} names the buffer {} of solve(), not a scalar: buffer sizes come "
                              "from the kopt annotation or --ptr-size",
                              spell_dimension(arg), arg.name));
    }
  }

  scalar_binding result;
  std::vector<std::string> missing;
  for (const parameter* p : solve.scalars()) {
    const dimension_arg* arg = find_arg(dims, p->name);
    const bool collides = std::find(own_flag_names.begin(), own_flag_names.end(), p->name) !=
                          own_flag_names.end();
    if (collides && (arg == nullptr || !arg->via_dim_flag)) {
      throw error(fmt::format("solve() parameter `{0}` has the same name as kopt's --{0} flag; "
                              "set it with --dim {0}=VALUE",
                              p->name));
    }
    if (arg == nullptr) {
      missing.push_back(p->name);
      continue;
    }
    if (collides) {
      result.notes.push_back(fmt::format("solve() parameter {0} shares its name with kopt's --{0} "
                                         "flag; it was set through --dim {0}={1}",
                                         p->name, arg->value));
    }
    result.scalars.push_back({*p, parse_value(*p, *arg), arg->value, arg->via_dim_flag});
  }
  if (missing.size() == 1) {
    throw error(fmt::format("missing dimension: solve() parameter {0} has no value; pass --{0}=VALUE",
                            missing.front()));
  }
  if (!missing.empty()) {
    std::vector<std::string> flags;
    for (const auto& name : missing) flags.push_back(fmt::format("--{}=VALUE", name));
    throw error(fmt::format("missing dimensions: solve() parameters {} have no value; pass {}",
                            join(missing, ", "), join(flags, " ")));
  }
  return result;
}

}  // namespace kopt::kernel
