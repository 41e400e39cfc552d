#pragma once
// The knowledge base of optimization strategies: entries per backend (cuda, cutlass, triton),
// each saying when it applies (bottleneck classes and metric conditions), what to change, how
// to verify it worked, and the strategy tags the loop records. The entries live as JSON files in
// src/analyze/knowledge/ and are embedded into the binary at build time.

#include <string>
#include <string_view>
#include <vector>

#include "analyze/bottleneck.h"
#include "core/json_io.h"

namespace kopt::analyze {

// A condition on a diagnosis quantity (see quantities.h): "waves_per_sm < 1".
struct kb_condition {
  std::string quantity;
  std::string op;  // <, <=, >, >=, ==
  double value = 0;
};

struct kb_entry {
  std::string id;       // "cuda-more-blocks"
  std::string backend;  // "cuda", "cutlass", "triton"
  std::string title;
  std::vector<bottleneck> classes;
  std::vector<kb_condition> when;  // all must hold; empty: any kernel of those classes
  int priority = 0;                // 0..5, higher first among equally specific entries
  std::string change;
  std::string verify;
  std::vector<std::string> tags;   // lower-case [a-z0-9_-]
  std::vector<std::string> links;  // official documentation
};

const std::vector<std::string>& knowledge_backends();
// `name` when it is one of knowledge_backends(); throws kopt::error listing them otherwise.
const std::string& knowledge_backend_named(const std::string& name);

// Every entry of every backend, parsed and checked once. A broken embedded file is a bug in
// kopt itself and aborts with the reason.
const std::vector<kb_entry>& knowledge_base();

// The entry as `kopt kb --json` and the MCP server give it.
json to_json(const kb_entry& entry);

// Parses and checks one backend's file; throws kopt::error naming `source` and the problem.
std::vector<kb_entry> parse_knowledge(std::string_view json_text, std::string_view source);

// nullptr when no entry has that id.
const kb_entry* find_kb_entry(std::string_view id);

// The backend's entries for a class, highest priority first.
std::vector<const kb_entry*> kb_entries_for(std::string_view backend, bottleneck cls);

std::string describe(const kb_condition& c);  // "waves_per_sm < 1"

}  // namespace kopt::analyze
