#include "tune/tuned_source.h"

#include <fmt/format.h>

#include "compile/include_scan.h"
#include "core/json_io.h"
#include "core/text.h"
#include "tune/triton_pin_py.h"

namespace kopt::tune {
namespace {

std::string pinned_module(std::string_view source, const kernel::tune_configuration& configuration) {
  std::vector<std::string> values;
  for (const auto& [name, value] : configuration.values)
    values.push_back(fmt::format("\"{}\": {}", name, value));
  std::string out(source);
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += fmt::format("\n\n# kopt tune: {}\n", configuration.text());
  out += triton_pin_py;
  out += fmt::format("\n\n_kopt_pin(globals(), {{{}}})\n", join(values, ", "));
  return out;
}

// The module's text with a line putting `folder` on Python's import path, after its
// `from __future__` imports.
std::string with_own_folder_importable(const std::string& module, const std::filesystem::path& folder) {
  std::vector<std::string> lines = split_lines(module);
  std::size_t insert_at = 0;  // the path line goes before this line
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].starts_with("from __future__ import")) continue;
    std::size_t end = i;  // a parenthesized list runs to its closing line
    if (lines[i].find('(') != std::string::npos) {
      while (end + 1 < lines.size() && lines[end].find(')') == std::string::npos) ++end;
    }
    insert_at = end + 1;
  }
  lines.insert(
      lines.begin() + static_cast<std::ptrdiff_t>(insert_at),
      fmt::format("import sys as _kopt_sys; _kopt_sys.path.append({})  # kopt tune: the module's own folder",
                  json(folder.string()).dump()));
  return join(lines, "\n") + "\n";
}

// The kernel's text with each `#include "NAME"` that `folder` holds naming the header by its
// absolute path: nvcc looks for NAME beside the file it builds, which for a copy is the run
// folder. A path that cannot stand between quotes is left as it was (and nvcc names it).
std::string with_own_headers_by_path(std::string_view source, const std::filesystem::path& folder) {
  std::vector<std::string> lines = split_lines(source);
  for (std::string& line : lines) {
    const std::optional<compile::quoted_include> include = compile::quoted_include_of(line);
    if (!include || std::filesystem::path(include->name).is_absolute()) continue;
    const std::filesystem::path header = (folder / include->name).lexically_normal();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(header, ec)) continue;
    if (header.string().find_first_of("\"\n") != std::string::npos) continue;
    line.replace(include->begin, include->length, header.string());
  }
  return join(lines, "\n") + "\n";
}

}  // namespace

std::string tuned_source(std::string_view source, const kernel::tune_configuration& configuration,
                         kernel::backend backend) {
  if (backend == kernel::backend::triton) return pinned_module(source, configuration);
  std::string out = fmt::format("// kopt tune: {}\n", configuration.text());
  for (const auto& [name, value] : configuration.values) {
    out += fmt::format("#ifndef {0}\n#define {0} {1}\n#endif\n", name, value);
  }
  out += source;
  return out;
}

std::string tuned_copy_source(std::string_view source, const kernel::tune_configuration& configuration,
                              kernel::backend backend, const std::filesystem::path& kernel_file) {
  const std::filesystem::path folder = std::filesystem::absolute(kernel_file).parent_path();
  if (backend != kernel::backend::triton) {
    return tuned_source(with_own_headers_by_path(source, folder), configuration, backend);
  }
  return with_own_folder_importable(tuned_source(source, configuration, backend), folder);
}

}  // namespace kopt::tune
