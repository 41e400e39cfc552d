// kopt memory list|show|query|export|import|copy: the strategy memory, read and moved.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "analyze/bottleneck.h"
#include "analyze/knowledge_base.h"
#include "cli/commands.h"
#include "cli/diagnosis_query_options.h"
#include "cli/terminal.h"
#include "core/error.h"
#include "core/json_io.h"
#include "core/text.h"
#include "memory/memory_copy.h"
#include "memory/memory_files.h"
#include "memory/memory_location.h"
#include "memory/memory_store.h"
#include "memory/outcome_document.h"
#include "memory/strategy_summaries.h"
#include "memory/toolkit_export.h"

namespace kopt::cli {
namespace {

using memory::strategy_summary;

void print(const std::string& text) { std::fputs(text.c_str(), stdout); }

void print_summaries(const std::vector<strategy_summary>& list, bool as_json, const char* schema,
                     const std::string& empty_message) {
  if (as_json) {
    json entries = json::array();
    for (const auto& s : list) entries.push_back(to_document(s));
    print(json_text(with_schema(schema, 1, json{{"strategies", entries}})) + "\n");
    return;
  }
  if (list.empty()) {
    print(empty_message + "\n");
    return;
  }
  print(fmt::format("{:<16}  {:<8} {:>4} {:>4} {:>4} {:>4} {:>4}  {}\n", "fingerprint", "backend", "pos", "neg", "neu",
                    "inc", "rej", "tags"));
  for (const auto& s : list) {
    print(fmt::format("{:<16}  {:<8} {:>4} {:>4} {:>4} {:>4} {:>4}  {}\n", s.fingerprint, s.backend, s.positive,
                      s.negative, s.neutral, s.inconclusive, s.rejected, join(s.tags, ", ")));
  }
}


class memory_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    sub.require_subcommand(1);
    sub.add_option("--memory-db", m_db, "the memory: a SQLite file or a postgresql:// URL (default: "
                                        "$KOPT_MEMORY_DB, else $XDG_DATA_HOME/kopt/memory.db)");
    m_list = sub.add_subcommand("list", "every strategy with its outcomes");
    m_list->add_option("--backend", m_backend, "only this backend's (cuda, cutlass, triton)");
    m_show = sub.add_subcommand("show", "one strategy's every outcome, with its scope and evidence");
    m_show->add_option("fingerprint", m_fingerprint, "its fingerprint (see kopt memory list)")->required();
    m_query = sub.add_subcommand("query", "what worked for a bottleneck on a backend, best first");
    add_diagnosis_query_options(*m_query, m_class, m_backend);
    m_query->add_option("--arch", m_arch, "only on this architecture (sm_90a, ...)");
    m_export = sub.add_subcommand("export", "write every outcome to a file");
    m_export->add_option("file", m_file, "where to write (JSON)")->required();
    m_export->add_option("--format", m_format,
                         "kopt (every outcome, kopt.strategy_memory/v1) or toolkit (the Python toolkit's "
                         "global_strategy_memory.json)")
        ->check(CLI::IsMember({"kopt", "toolkit"}))
        ->default_val("kopt");
    m_copy = sub.add_subcommand("copy", "copy the memory (outcomes, offered files, run ledger) into another: a SQLite "
                                        "file into a PostgreSQL server, or back");
    m_copy->add_option("--to", m_to, "the memory to copy into: a path or a postgresql:// URL (made when missing)")
        ->required();
    m_import = sub.add_subcommand("import", "read a kopt export or the Python toolkit's global_strategy_memory.json");
    m_import->add_option("file", m_file, "the file to read")->required();
    // Every action prints JSON with --json, and takes --memory-db after its name too (kopt memory
    // list --memory-db F).
    for (CLI::App* action : {m_list, m_show, m_query, m_export, m_import, m_copy}) {
      action->add_flag("--json", m_output.json, "print JSON");
      action->fallthrough();
    }
    add_verbosity_flags(*m_import, m_output.level, false);
    add_verbosity_flags(*m_copy, m_output.level, false);
  }

  int run(const pipeline::services&) override {
    if (m_query->parsed()) check_query();
    if (m_copy->parsed()) return copy();
    memory::memory_store store = memory::memory_store::open(memory::default_memory_path(m_db));
    if (m_list->parsed()) {
      print_summaries(store.summarize({m_backend.value_or(""), "", ""}), m_output.json, "memory_list",
                      fmt::format("the strategy memory {} holds no outcome yet", store.shown_name()));
    } else if (m_show->parsed()) {
      show(store);
    } else if (m_query->parsed()) {
      auto list = store.summarize({m_backend.value_or(""), m_class, m_arch.value_or("")});
      memory::rank_by_success(list);
      print_summaries(list, m_output.json, "memory_query",
                      fmt::format("nothing recorded yet for {} on {}{}", m_class, *m_backend,
                                  m_arch ? " (" + *m_arch + ")" : ""));
    } else if (m_export->parsed()) {
      m_format == "toolkit" ? export_for_toolkit(store) : export_all(store);
    } else {
      import(store);
    }
    return static_cast<int>(exit_status::ok);
  }

 private:
  int copy() const {
    const memory::memory_store from = memory::memory_store::open_read_only(memory::default_memory_path(m_db));
    memory::memory_store to = memory::memory_store::open(m_to);
    if (from.shown_name() == to.shown_name()) {
      throw error(fmt::format("kopt memory copy: {} is the memory being copied: give --to another", to.shown_name()));
    }
    const memory::memory_copy_counts c = memory::copy_memory(from, to);
    if (m_output.json) {
      print(json_text(with_schema("memory_copy", 1,
                                  json{{"from", from.shown_name()},
                                       {"to", to.shown_name()},
                                       {"outcomes_added", c.outcomes_added},
                                       {"outcomes_already_there", c.outcomes_already_there},
                                       {"offered_files_added", c.offers_added},
                                       {"ledger_entries_added", c.ledger.copied},
                                       {"ledger_entries_already_there", c.ledger.already_there},
                                       {"ledger_entries_seal_broken", c.ledger.seal_broken}})) +
            "\n");
      return static_cast<int>(exit_status::ok);
    }
    const printer out(m_output.level);
    out.result(fmt::format("copied {} to {}: {} outcomes added ({} already there), {} offered files, {} run-ledger "
                           "entries",
                           from.shown_name(), to.shown_name(), c.outcomes_added, c.outcomes_already_there,
                           c.offers_added, c.ledger.copied));
    if (c.ledger.seal_broken > 0) {
      out.line(fmt::format("left out {} run-ledger entries whose seal does not hold in {} (changed outside kopt): "
                           "their run folders will read as unverified",
                           c.ledger.seal_broken, from.shown_name()));
    }
    return static_cast<int>(exit_status::ok);
  }

  // What an export did goes to standard output, or beside it on standard error when the file
  // is standard output.
  void say_exported(const std::string& line, const json& document) const {
    if (m_file == "-" || m_file == "/dev/stdout") {
      std::fprintf(stderr, "%s\n", line.c_str());
    } else if (m_output.json) {
      print(json_text(with_schema("memory_export", 1, document)) + "\n");
    } else {
      print(line + "\n");
    }
  }

  void export_all(const memory::memory_store& store) const {
    memory::export_memory_file(store, m_file);
    const std::size_t outcomes = store.all().size();
    say_exported(fmt::format("wrote {} outcomes to {}", outcomes, m_file == "-" ? "standard output" : m_file),
                 json{{"file", std::filesystem::absolute(m_file).string()}, {"format", "kopt"}, {"outcomes", outcomes}});
  }

  void export_for_toolkit(const memory::memory_store& store) const {
    const memory::toolkit_export_counts c = memory::export_toolkit_memory_file(store, m_file);
    std::string line = fmt::format("wrote {} outcomes in {} scopes to {} in the Python toolkit's format", c.written,
                                   c.scopes, m_file == "-" ? "standard output" : m_file);
    if (c.neutral + c.inconclusive > 0) {
      line += fmt::format("; left out {} neutral and {} inconclusive (the toolkit has no bucket for them)", c.neutral,
                          c.inconclusive);
    }
    if (c.superseded > 0) line += fmt::format("; left out {} superseded attempts", c.superseded);
    if (c.reference_unknown > 0) {
      line += fmt::format("; {} recorded before kopt kept the run's reference file are under no_ref", c.reference_unknown);
    }
    say_exported(line, json{{"file", std::filesystem::absolute(m_file).string()},
                            {"format", "toolkit"},
                            {"outcomes", c.written},
                            {"scopes", c.scopes},
                            {"left_out", {{"neutral", c.neutral}, {"inconclusive", c.inconclusive}, {"superseded", c.superseded}}},
                            {"reference_unknown", c.reference_unknown}});
  }

  void check_query() const {
    analyze::knowledge_backend_named(*m_backend);
    analyze::bottleneck_named(m_class);
  }

  void show(const memory::memory_store& store) const {
    const auto history = store.history(m_fingerprint);
    if (history.empty()) {
      throw error(fmt::format("no strategy {} in {}: run `kopt memory list` for the fingerprints", m_fingerprint,
                              store.shown_name()));
    }
    if (m_output.json) {
      json outcomes = json::array();
      for (const auto& o : history) outcomes.push_back(to_document(o));
      print(json_text(with_schema("memory_strategy", 1,
                                  json{{"fingerprint", m_fingerprint}, {"tags", history.front().tags},
                                       {"outcomes", outcomes}})) +
            "\n");
      return;
    }
    print(fmt::format("{}  ({})\ntags  {}\n\n", m_fingerprint, history.front().scope.backend,
                      join(history.front().tags, ", ")));
    for (const auto& o : history) {
      print(fmt::format("{}  {:<12} {}  run {} iteration {}{}  op {} dims {} arch {} class {}\n", o.recorded_at,
                        o.outcome, o.reason, o.run_id, o.iteration, o.candidate.empty() ? "" : " " + o.candidate,
                        o.scope.op.empty() ? "?" : o.scope.op, o.scope.dims.empty() ? "?" : o.scope.dims,
                        o.scope.arch.empty() ? "?" : o.scope.arch,
                        o.scope.bottleneck.empty() ? "?" : o.scope.bottleneck));
    }
  }

  void import(memory::memory_store& store) const {
    const memory::import_report report = memory::import_memory_file(store, m_file);
    if (m_output.json) {
      print(json_text(with_schema("memory_import", 1,
                                  json{{"format", report.format},
                                       {"added", report.added},
                                       {"already_present", report.already_present},
                                       {"fingerprint_mismatches", report.fingerprint_mismatches}})) +
            "\n");
      return;
    }
    const printer out(m_output.level);
    out.result(fmt::format("imported {} ({}): {} outcomes added, {} already present", m_file, report.format, report.added,
                           report.already_present));
    if (!report.fingerprint_mismatches.empty()) {
      out.line(fmt::format("skipped {} entries whose key is not the fingerprint of their tags: {}",
                           report.fingerprint_mismatches.size(), join(report.fingerprint_mismatches, ", ")));
    }
  }

  CLI::App* m_list = nullptr;
  CLI::App* m_show = nullptr;
  CLI::App* m_query = nullptr;
  CLI::App* m_export = nullptr;
  std::string m_format = "kopt";
  CLI::App* m_import = nullptr;
  CLI::App* m_copy = nullptr;
  std::string m_to;
  std::optional<std::string> m_db;
  std::optional<std::string> m_backend;
  std::optional<std::string> m_arch;
  std::string m_fingerprint;
  std::string m_class;
  std::string m_file;
  output_choice m_output;
};

}  // namespace

std::unique_ptr<command> make_memory_command() { return std::make_unique<memory_command>(); }

}  // namespace kopt::cli
