#pragma once
// What the fuzz driver mutates, reader by reader: the strategy memory's import (kopt's export and
// the Python toolkit's file), the run folder (its manifest, resealed, and the analyses it points
// to; the summaries and the report printed from what was read), the comparison records (a
// version's bench result read against its parent's), the reference-timing cache, ncu's raw,
// details and source pages, and MCP requests. Each target reads a mutant in this process (the
// CI pass: a kopt::error is a refusal, anything else a finding) and, where a command reads it,
// says how `kopt` reads it as a whole program (the campaign: no signal, no hang, JSON on stdout
// under --json).

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "structured_mutation.h"

namespace kopt::fuzz {

struct fuzz_target {
  std::string name;
  // A new mutant of one of the target's seeds.
  std::function<mutant(std::mt19937_64&)> make;
  // Reads the mutant here. Throws kopt::error when the reader refuses it.
  std::function<void(const mutant&)> read;
  // Writes the mutant where `kopt` reads it (under `folder`) and gives the command's words
  // after `kopt` (--json among them); empty when no command reads it without a GPU.
  std::function<std::vector<std::string>(const mutant&, const std::filesystem::path& folder)> command;
};

// Every target, its inputs copied under `work` (which must exist and outlive them).
std::vector<fuzz_target> fuzz_targets(const std::filesystem::path& work);

// Requests for the MCP server: a session's lines, mutants of real requests, `count` of them
// after an initialize.
std::vector<std::string> mcp_session_lines(std::mt19937_64& random, std::size_t count);

// The workspace an MCP session serves (examples, a raw CSV, a run folder) under `work`.
std::filesystem::path mcp_workspace(const std::filesystem::path& work);

// One request handled in this process as the server handles a line: a response or nothing,
// never an exception (a finding if one escapes).
void answer_mcp_line(const std::string& line, const std::filesystem::path& workspace);

}  // namespace kopt::fuzz
