#include "analyze/knowledge_base.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "analyze/knowledge_data.h"
#include "analyze/quantities.h"
#include "core/error.h"
#include "core/json_io.h"
#include "core/text.h"

namespace kopt::analyze {
namespace {

const std::regex id_pattern("[a-z0-9]+(-[a-z0-9]+)*");
const std::regex tag_pattern("[a-z0-9_-]+");
const std::set<std::string> operators = {"<", "<=", ">", ">=", "=="};

[[noreturn]] void reject(std::string_view source, const std::string& what) {
  throw error(fmt::format("knowledge file {} is invalid: {}", source, what));
}

std::string required_text(const json& entry, const char* key, std::string_view source, const std::string& id) {
  if (!entry.contains(key) || !entry[key].is_string() || entry[key].get<std::string>().empty()) {
    reject(source, fmt::format("entry {} lacks a text \"{}\"", id, key));
  }
  return entry[key].get<std::string>();
}

kb_entry parse_entry(const json& e, const std::string& backend, std::string_view source) {
  kb_entry entry;
  entry.backend = backend;
  entry.id = e.value("id", "");
  if (!std::regex_match(entry.id, id_pattern)) reject(source, fmt::format("bad id \"{}\"", entry.id));
  entry.title = required_text(e, "title", source, entry.id);
  entry.change = required_text(e, "change", source, entry.id);
  entry.verify = required_text(e, "verify", source, entry.id);
  entry.priority = e.value("priority", 0);
  for (const auto& c : e.value("classes", json::array())) {
    const auto cls = parse_bottleneck(c.get<std::string>());
    if (!cls) reject(source, fmt::format("entry {} names an unknown class {}", entry.id, c.dump()));
    entry.classes.push_back(*cls);
  }
  if (entry.classes.empty()) reject(source, fmt::format("entry {} applies to no class", entry.id));
  for (const auto& c : e.value("when", json::array())) {
    kb_condition cond{c.value("quantity", ""), c.value("op", ""), c.value("value", 0.0)};
    if (!is_known_quantity(cond.quantity)) {
      reject(source, fmt::format("entry {} tests an unknown quantity \"{}\"", entry.id, cond.quantity));
    }
    if (!operators.count(cond.op)) reject(source, fmt::format("entry {} uses operator \"{}\"", entry.id, cond.op));
    entry.when.push_back(cond);
  }
  for (const auto& t : e.value("tags", json::array())) {
    const std::string tag = t.get<std::string>();
    if (!std::regex_match(tag, tag_pattern)) reject(source, fmt::format("entry {} has tag \"{}\"", entry.id, tag));
    entry.tags.push_back(tag);
  }
  if (entry.tags.empty()) reject(source, fmt::format("entry {} has no strategy tag", entry.id));
  for (const auto& l : e.value("links", json::array())) {
    const std::string link = l.get<std::string>();
    if (link.rfind("https://", 0) != 0) reject(source, fmt::format("entry {} links to \"{}\"", entry.id, link));
    entry.links.push_back(link);
  }
  return entry;
}

std::vector<kb_entry> load_all() {
  std::vector<kb_entry> all;
  const std::pair<const char*, const char*> files[] = {
      {"cuda.json", knowledge_cuda_json}, {"cutlass.json", knowledge_cutlass_json}, {"triton.json", knowledge_triton_json}};
  for (const auto& [name, text] : files) {
    auto entries = parse_knowledge(text, name);
    all.insert(all.end(), entries.begin(), entries.end());
  }
  std::set<std::string> ids;
  for (const auto& e : all) {
    if (!ids.insert(e.id).second) reject("(embedded)", fmt::format("id {} appears twice", e.id));
  }
  return all;
}

}  // namespace

const std::vector<std::string>& knowledge_backends() {
  static const std::vector<std::string> backends = {"cuda", "cutlass", "triton"};
  return backends;
}

const std::string& knowledge_backend_named(const std::string& name) {
  const auto& known = knowledge_backends();
  const auto found = std::find(known.begin(), known.end(), name);
  if (found == known.end()) throw error(fmt::format("unknown backend \"{}\": use one of {}", name, join(known, ", ")));
  return *found;
}

std::vector<kb_entry> parse_knowledge(std::string_view json_text, std::string_view source) {
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::parse_error& e) {
    reject(source, e.what());
  }
  if (doc.value("schema", "") != "kopt.knowledge/v1") reject(source, "schema is not kopt.knowledge/v1");
  const std::string backend = doc.value("backend", "");
  const auto& backends = knowledge_backends();
  if (std::find(backends.begin(), backends.end(), backend) == backends.end()) {
    reject(source, fmt::format("unknown backend \"{}\"", backend));
  }
  std::vector<kb_entry> entries;
  try {
    for (const auto& e : doc.at("entries")) entries.push_back(parse_entry(e, backend, source));
  } catch (const json::exception& e) {
    reject(source, e.what());
  }
  return entries;
}

const std::vector<kb_entry>& knowledge_base() {
  static const std::vector<kb_entry> all = [] {
    try {
      return load_all();
    } catch (const error& e) {
      std::fprintf(stderr, "kopt: internal error: %s\n", e.headline().c_str());
      std::abort();
    }
  }();
  return all;
}

const kb_entry* find_kb_entry(std::string_view id) {
  for (const auto& e : knowledge_base()) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

std::vector<const kb_entry*> kb_entries_for(std::string_view backend, bottleneck cls) {
  std::vector<const kb_entry*> out;
  for (const auto& e : knowledge_base()) {
    if (e.backend != backend) continue;
    if (std::find(e.classes.begin(), e.classes.end(), cls) != e.classes.end()) out.push_back(&e);
  }
  std::stable_sort(out.begin(), out.end(), [](const kb_entry* a, const kb_entry* b) { return a->priority > b->priority; });
  return out;
}

std::string describe(const kb_condition& c) { return fmt::format("{} {} {:g}", c.quantity, c.op, c.value); }

json to_json(const kb_entry& e) {
  json when = json::array();
  for (const auto& c : e.when) when.push_back({{"quantity", c.quantity}, {"op", c.op}, {"value", c.value}});
  std::vector<std::string> classes;
  for (auto c : e.classes) classes.emplace_back(to_string(c));
  return {{"id", e.id},         {"backend", e.backend}, {"title", e.title},   {"classes", classes},
          {"when", when},       {"priority", e.priority}, {"change", e.change}, {"verify", e.verify},
          {"tags", e.tags},     {"links", e.links}};
}

}  // namespace kopt::analyze
