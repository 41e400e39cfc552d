#pragma once
// Registering kopt's MCP server (`kopt mcp`) with a coding agent, beside whatever the file
// already holds (other servers and settings are kept):
//   Claude Code: the project's .mcp.json, {"mcpServers": {"kopt": {"command": ..., "args": ["mcp"]}}}
//   Codex:       $CODEX_HOME/config.toml (default ~/.codex), a [mcp_servers.kopt] table
// An existing kopt entry that differs from kopt's is a conflict (install_plan.h).

#include <filesystem>
#include <string>

#include "cli/install_plan.h"

namespace kopt::cli {

// How an agent starts this kopt: "kopt" when PATH finds this very binary (a project's
// .mcp.json then works for everyone who has kopt on PATH), else its absolute path.
std::string kopt_command_for_agents();

planned_write claude_mcp_registration(const std::filesystem::path& mcp_json, const std::string& command);

// $CODEX_HOME/config.toml, else $HOME/.codex/config.toml; throws kopt::error when neither is set.
std::filesystem::path codex_config_file();
planned_write codex_mcp_registration(const std::filesystem::path& config_toml, const std::string& command);

}  // namespace kopt::cli
