#include "cli/mcp_registration.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/install_layout.h"
#include "core/json_io.h"
#include "core/subprocess.h"
#include "core/text.h"

namespace kopt::cli {
namespace {
namespace fs = std::filesystem;

constexpr const char* server_name = "kopt";
constexpr const char* codex_table = "[mcp_servers.kopt]";

// A TOML basic string.
std::string toml_string(const std::string& text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

bool is_table_header(std::string_view line) { return !line.empty() && line.front() == '['; }

// `kopt = ...`, `kopt.command = ...`: a key line naming kopt's server.
bool names_kopt(std::string_view line) {
  return line.substr(0, 4) == server_name && (line.size() == 4 || line[4] == ' ' || line[4] == '=' || line[4] == '.');
}

// kopt's server written another way than as its own table ([mcp_servers] kopt = {...}): kopt
// would add a second definition, which Codex refuses to load.
void refuse_other_spellings(const fs::path& file, const std::vector<std::string>& lines) {
  bool in_servers = false;
  for (const std::string& line : lines) {
    const std::string_view t = trim(line);
    if (is_table_header(t)) {
      in_servers = t == "[mcp_servers]";
    } else if ((in_servers && names_kopt(t)) || t.rfind("mcp_servers.kopt", 0) == 0) {
      throw error(fmt::format("{} defines the kopt MCP server as a key (\"{}\"), which kopt does not edit: "
                              "rewrite it as a {} table with command and args, or remove it",
                              file.string(), t, codex_table));
    }
  }
}

}  // namespace

std::string kopt_command_for_agents() {
  const fs::path self = kopt_executable();
  std::error_code ec;
  if (const auto on_path = find_executable(server_name); on_path && fs::equivalent(*on_path, self, ec)) return server_name;
  return self.string();
}

planned_write claude_mcp_registration(const fs::path& file, const std::string& command) {
  const json wanted = {{"command", command}, {"args", {"mcp"}}};
  json doc = json::object();
  std::error_code ec;
  if (fs::exists(file, ec)) {
    doc = json::parse(read_text_file(file, "MCP configuration"), nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || (doc.contains("mcpServers") && !doc["mcpServers"].is_object())) {
      throw error(fmt::format("{} is not an MCP configuration kopt can add to (a JSON object whose \"mcpServers\" "
                              "is an object): fix it, or move it aside and run kopt skills install again",
                              file.string()));
    }
  }
  planned_write w{file, std::nullopt, ""};
  if (doc.contains("mcpServers") && doc["mcpServers"].contains(server_name)) {
    const json& have = doc["mcpServers"][server_name];
    if (have.is_object() && have.value("command", json()) == wanted["command"] && have.value("args", json()) == wanted["args"]) {
      return w;
    }
    w.conflict = fmt::format("its \"kopt\" server is {}, not {}", have.dump(), wanted.dump());
  }
  json& entry = doc["mcpServers"][server_name];
  if (!entry.is_object()) entry = json::object();
  entry["command"] = wanted["command"];  // the entry's other keys (env, ...) are the user's and stay
  entry["args"] = wanted["args"];
  w.content = json_text(doc) + "\n";
  return w;
}

fs::path codex_config_file() {
  for (const char* variable : {"CODEX_HOME", "HOME"}) {
    const char* value = std::getenv(variable);
    if (value == nullptr || *value == '\0') continue;
    return std::string(variable) == "HOME" ? fs::path(value) / ".codex" / "config.toml" : fs::path(value) / "config.toml";
  }
  throw error("cannot find Codex's configuration: neither CODEX_HOME nor HOME is set; set one and run kopt skills "
              "install again");
}

planned_write codex_mcp_registration(const fs::path& file, const std::string& command) {
  const std::vector<std::string> wanted = {"command = " + toml_string(command), "args = [\"mcp\"]"};
  std::error_code ec;
  const std::string text = fs::exists(file, ec) ? read_text_file(file, "Codex configuration") : std::string();
  const std::vector<std::string> lines = split_lines(text);
  std::size_t header = 0;
  while (header < lines.size() && trim(lines[header]) != codex_table) ++header;
  planned_write w{file, std::nullopt, ""};
  if (header == lines.size()) {
    refuse_other_spellings(file, lines);
    w.content = text + (text.empty() || text.back() == '\n' ? "" : "\n") + (text.empty() ? "" : "\n") + codex_table +
                "\n" + join(wanted, "\n") + "\n";
    return w;
  }
  // In kopt's table, command and args are kopt's; any other key (env, a timeout) is the user's
  // and stays.
  std::vector<std::string> have;  // its command and args lines, trimmed
  std::vector<std::string> kept;  // the table's other lines, as written
  std::size_t end = header + 1;
  for (; end < lines.size() && !is_table_header(trim(lines[end])); ++end) {
    const std::string_view t = trim(lines[end]);
    const std::size_t equals = t.find('=');
    const std::string_view key = equals == std::string_view::npos ? std::string_view() : trim(t.substr(0, equals));
    if (key == "command" || key == "args") {
      have.emplace_back(t);
    } else {
      kept.push_back(lines[end]);
    }
  }
  std::vector<std::string> sorted_wanted = wanted;
  std::sort(sorted_wanted.begin(), sorted_wanted.end());
  std::sort(have.begin(), have.end());
  if (have == sorted_wanted) return w;
  w.conflict = fmt::format("its {} table's command and args are not `{}`", codex_table, join(wanted, "; "));
  std::vector<std::string> out(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(header) + 1);
  out.insert(out.end(), wanted.begin(), wanted.end());
  out.insert(out.end(), kept.begin(), kept.end());
  out.insert(out.end(), lines.begin() + static_cast<std::ptrdiff_t>(end), lines.end());
  w.content = join(out, "\n") + "\n";
  return w;
}

}  // namespace kopt::cli
