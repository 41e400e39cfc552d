#include "compile/shell_safety.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"

namespace kopt::compile {
namespace fs = std::filesystem;

namespace {

bool is_identifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) != 0) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

// The original path as a C string literal for #line: backslashes and quotes escaped.
std::string c_string_literal(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace

void check_defines(const std::vector<std::string>& defines) {
  for (const std::string& define : defines) {
    const std::size_t equals = define.find('=');
    const std::string name = define.substr(0, equals);
    if (!is_identifier(name)) {
      throw error(fmt::format("-D{}: '{}' is not a macro name (letters, digits and _, not starting with a digit)",
                              define, name));
    }
    if (equals == std::string::npos) continue;
    const std::string value = define.substr(equals + 1);
    if (const auto bad = value.find_first_of("$`\\\n\r"); bad != std::string::npos) {
      throw error(fmt::format("-D{}: the value holds '{}', which nvcc would hand to a shell to expand; kopt refuses "
                              "it (write the value without $, `, \\ or line breaks)",
                              name, value[bad] == '\n' || value[bad] == '\r' ? std::string("a line break")
                                                                             : std::string(1, value[bad])));
    }
  }
}

bool shell_safe(const std::string& text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || std::string_view("_./+-=,@%:").find(c) != std::string_view::npos;
  });
}

std::string safe_stem(const std::string& stem) {
  std::string out = stem;
  for (char& c : out) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_' && c != '.' && c != '-') c = '_';
  }
  return out.empty() ? "kernel" : out;
}

private_source make_private_source(const fs::path& source, const fs::path& build_dir) {
  private_source p{build_dir / "kernel.cu", build_dir / "source_dir"};
  write_file_atomic(p.copy, fmt::format("#line 1 {}\n{}", c_string_literal(source.string()),
                                        read_text_file(source, "kernel file")));
  std::error_code ec;
  fs::create_directory_symlink(source.parent_path(), p.include_dir, ec);
  if (ec) {
    throw error(fmt::format("cannot link the kernel's folder into the build folder {}: {}", build_dir.string(),
                            ec.message()));
  }
  return p;
}

}  // namespace kopt::compile
