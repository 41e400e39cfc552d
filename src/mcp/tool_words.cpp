// The tools speak of their arguments, not of kopt's flags: the messages kopt's modules write for
// the command line are rephrased on their way out of the MCP server.
#include <functional>
#include <initializer_list>
#include <regex>
#include <string>
#include <utility>

#include "mcp/tool.h"

namespace kopt::mcp {
namespace {

// Flags that are the tools' arguments by another spelling (run-dir -> run_dir).
const std::regex argument_flag(
    R"(--(ref|backend|arch|seed|atol|rtol|hot|out|run-dir|max-iterations|check-dims|min-seconds|max-seconds)\b(=(\S+))?)");
// `--N=VALUE --M=VALUE`: dimensions the command line asks for, one or several in a row.
const std::regex dimension_run(R"(--[A-Za-z_]\w*=VALUE(?: --[A-Za-z_]\w*=VALUE)*)");
const std::regex one_dimension(R"(--([A-Za-z_]\w*)=VALUE)");
// `kopt bench`: a command that is also a tool of the same name.
const std::regex command_name(R"(\bkopt (preflight|inspect|compile|bench|compare|profile|analyze|report)\b)");
// `--dim N=4`: a dimension as a tool call gives it.
const std::regex dim_flag(R"(--dim ([A-Za-z_]\w*)=([^\s:;,)]+))");

std::string quoted_value(const std::string& value) {
  const bool number = std::regex_match(value, std::regex(R"(-?[0-9.eE+-]+)"));
  return number || value == "VALUE" ? value : "\"" + value + "\"";
}

std::string replace_each(const std::string& text, const std::regex& pattern,
                         const std::function<std::string(const std::smatch&)>& with) {
  std::string out;
  auto from = text.cbegin();
  for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it) {
    out.append(from, (*it)[0].first);
    out += with(*it);
    from = (*it)[0].second;
  }
  out.append(from, text.cend());
  return out;
}

}  // namespace

std::string in_tool_words(const std::string& text) {
  std::string out = text;
  for (const auto& [flag, words] : std::initializer_list<std::pair<const char*, const char*>>{
           {"pass the path of an existing nvcc to --nvcc-bin", "put nvcc's folder on the PATH kopt mcp is started with"},
           {"or pass --nvcc-bin", "or start kopt mcp with nvcc's folder on PATH (or CUDA_HOME set)"},
           {"(--nvcc-bin)", "(the nvcc on kopt mcp's PATH)"},
           {"or pass --ncu-bin", "or start kopt mcp with ncu's folder on PATH (or CUDA_HOME set)"},
           {"check --ncu-bin", "check the ncu on kopt mcp's PATH"},
           {"--nvcc-bin", "the nvcc on kopt mcp's PATH"},
           {"--ncu-bin", "the ncu on kopt mcp's PATH"}}) {
    for (std::size_t at; (at = out.find(flag)) != std::string::npos;) out.replace(at, std::string(flag).size(), words);
  }
  out = replace_each(out, dimension_run, [](const std::smatch& run) {
    std::string names;
    const std::string matched = run.str();
    for (std::sregex_iterator it(matched.begin(), matched.end(), one_dimension), end; it != end; ++it) {
      names += (names.empty() ? "" : ", ") + ("\"" + (*it)[1].str() + "\": VALUE");
    }
    return "dims {" + names + "}";
  });
  out = replace_each(out, dim_flag, [](const std::smatch& m) {
    return "dims {\"" + m[1].str() + "\": " + quoted_value(m[2].str()) + "}";
  });
  out = replace_each(out, command_name, [](const std::smatch& m) { return "the " + m[1].str() + " tool"; });
  out = replace_each(out, argument_flag, [](const std::smatch& m) {
    std::string name = m[1].str();
    for (char& c : name) c = c == '-' ? '_' : c;
    return m[3].matched ? "\"" + name + "\": " + quoted_value(m[3].str()) : "\"" + name + "\"";
  });
  return out;
}

json output_object(json properties, json required) {
  return json{{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)}};
}

}  // namespace kopt::mcp
