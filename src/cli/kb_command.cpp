// kopt kb list|show|match: the knowledge base of optimization strategies per backend.

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "analyze/bottleneck.h"
#include "analyze/knowledge_base.h"
#include "cli/commands.h"
#include "cli/diagnosis_query_options.h"
#include "core/error.h"
#include "core/json_io.h"
#include "core/text.h"

namespace kopt::cli {
namespace {

using analyze::kb_entry;

std::string class_names(const kb_entry& e) {
  std::vector<std::string> names;
  for (auto c : e.classes) names.emplace_back(analyze::to_string(c));
  return join(names, ",");
}

void print_list(const std::vector<const kb_entry*>& entries, bool as_json, const char* schema) {
  if (as_json) {
    json list = json::array();
    for (const auto* e : entries) list.push_back(analyze::to_json(*e));
    std::fputs((json_text(with_schema(schema, 1, {{"entries", list}})) + "\n").c_str(), stdout);
    return;
  }
  for (const auto* e : entries) {
    std::fputs(fmt::format("{:<44} {:<8} {:<22} {}\n", e->id, e->backend, class_names(*e), e->title).c_str(), stdout);
  }
}

std::string check_backend(const std::optional<std::string>& backend) {
  return backend ? analyze::knowledge_backend_named(*backend) : std::string();
}

class kb_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    sub.require_subcommand(1);
    m_list = sub.add_subcommand("list", "every entry, or one backend's");
    m_list->add_option("--backend", m_backend, "cuda, cutlass or triton");
    m_show = sub.add_subcommand("show", "one entry in full");
    m_show->add_option("id", m_id, "the entry's id (see kopt kb list)")->required();
    m_match = sub.add_subcommand("match", "the entries for a bottleneck class and backend");
    add_diagnosis_query_options(*m_match, m_class, m_backend);
    for (CLI::App* action : {m_list, m_show, m_match}) action->add_flag("--json", m_json, "print JSON");
  }

  int run(const pipeline::services&) override {
    const std::string backend = check_backend(m_backend);
    if (m_list->parsed()) {
      std::vector<const kb_entry*> entries;
      for (const auto& e : analyze::knowledge_base()) {
        if (backend.empty() || e.backend == backend) entries.push_back(&e);
      }
      print_list(entries, m_json, "kb_list");
    } else if (m_show->parsed()) {
      show();
    } else {
      print_list(analyze::kb_entries_for(backend, analyze::bottleneck_named(m_class)), m_json, "kb_match");
    }
    return static_cast<int>(exit_status::ok);
  }

 private:
  void show() const {
    const kb_entry* e = analyze::find_kb_entry(m_id);
    if (!e) throw error(fmt::format("no knowledge-base entry \"{}\": run `kopt kb list` for the ids", m_id));
    if (m_json) {
      std::fputs((json_text(with_schema("kb_entry", 1, analyze::to_json(*e))) + "\n").c_str(), stdout);
      return;
    }
    std::string out = fmt::format("{}  ({})\n{}\n\nclasses  {}\n", e->id, e->backend, e->title, class_names(*e));
    std::vector<std::string> conditions;
    for (const auto& c : e->when) conditions.push_back(analyze::describe(c));
    out += fmt::format("when     {}\n", conditions.empty() ? "any kernel of these classes" : join(conditions, " and "));
    out += fmt::format("tags     {}\n\nchange\n  {}\n\nverify\n  {}\n\nlinks\n", join(e->tags, ", "), e->change, e->verify);
    for (const auto& l : e->links) out += "  " + l + "\n";
    std::fputs(out.c_str(), stdout);
  }

  CLI::App* m_list = nullptr;
  CLI::App* m_show = nullptr;
  CLI::App* m_match = nullptr;
  std::optional<std::string> m_backend;
  std::string m_id;
  std::string m_class;
  bool m_json = false;
};

}  // namespace

std::unique_ptr<command> make_kb_command() { return std::make_unique<kb_command>(); }

}  // namespace kopt::cli
