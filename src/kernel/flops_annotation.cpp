#include "kernel/flops_annotation.h"

#include <charconv>

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"
#include "kernel/expression.h"

namespace kopt::kernel {
namespace {

constexpr std::string_view flops_marker = "kopt: flops=";

std::optional<int64_t> integer_of(std::string_view text) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<double> annotated_flops(const std::filesystem::path& file, std::string_view text,
                                      const std::vector<dimension_arg>& dims) {
  std::optional<double> flops;
  int line = 0;
  int found_at = 0;
  for (const std::string& row : split_lines(text)) {
    ++line;
    const std::size_t at = row.find(flops_marker);
    if (at == std::string_view::npos) continue;
    const std::string where = fmt::format("{}:{}", file.string(), line);
    if (flops) {
      throw error(fmt::format("{}: a second `kopt: flops=` (the first is on line {}): state the problem's FLOPs once",
                              where, found_at));
    }
    const std::string_view expression = trim(std::string_view(row).substr(at + flops_marker.size()));
    try {
      const int_expression parsed = int_expression::parse(expression);
      const int64_t value = parsed.evaluate([&](std::string_view name) -> std::optional<int64_t> {
        for (const dimension_arg& d : dims) {
          if (d.name == name) return integer_of(d.value);
        }
        return std::nullopt;
      });
      if (value < 0) throw expression_error(fmt::format("is {}, a negative count", value));
      flops = static_cast<double>(value);
      found_at = line;
    } catch (const expression_error& e) {
      throw error(fmt::format("{}: kopt: flops={}: {}: write an integer expression of the dimensions given on the "
                              "command line (2*M*N*K)",
                              where, std::string(expression), e.what()));
    }
  }
  return flops;
}

}  // namespace kopt::kernel
