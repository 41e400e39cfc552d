#include "analyze/recommend.h"

#include <algorithm>

#include <fmt/format.h>

#include "analyze/knowledge_base.h"
#include "analyze/quantities.h"
#include "core/text.h"

namespace kopt::analyze {
namespace {

bool holds(const kb_condition& c, const std::map<std::string, double>& q) {
  const auto it = q.find(c.quantity);
  if (it == q.end()) return false;
  const double v = it->second;
  if (c.op == "<") return v < c.value;
  if (c.op == "<=") return v <= c.value;
  if (c.op == ">") return v > c.value;
  if (c.op == ">=") return v >= c.value;
  return v == c.value;
}

// A matched condition says more about this kernel than a class-wide entry; priority orders
// entries that are equally specific.
constexpr double score_per_condition = 10.0;

}  // namespace

std::vector<recommendation> recommend(const kernel_diagnosis& d, std::string_view backend, size_t max_count) {
  const auto quantities = diagnosis_quantities(d);
  std::vector<recommendation> out;
  for (const kb_entry* e : kb_entries_for(backend, d.verdict.cls)) {
    std::vector<std::string> matched;
    bool all_hold = true;
    for (const auto& c : e->when) {
      if (!holds(c, quantities)) {
        all_hold = false;
        break;
      }
      matched.push_back(fmt::format("{} (is {:.3g})", describe(c), quantities.at(c.quantity)));
    }
    if (!all_hold) continue;
    recommendation r;
    r.id = e->id;
    r.title = e->title;
    r.backend = e->backend;
    r.score = score_per_condition * static_cast<double>(e->when.size()) + e->priority;
    r.why = matched.empty() ? fmt::format("class {}", to_string(d.verdict.cls))
                            : fmt::format("class {}; {}", to_string(d.verdict.cls), join(matched, "; "));
    r.tags = e->tags;
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.score > b.score; });
  if (out.size() > max_count) out.resize(max_count);
  return out;
}

}  // namespace kopt::analyze
