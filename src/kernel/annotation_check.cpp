// check_annotations: the annotation against solve()'s signature, before any dimension is
// known, so that a mistake in the source is reported as such and not as a usage error.

#include <fmt/format.h>

#include "core/error.h"
#include "core/text.h"
#include "kernel/annotation.h"

namespace kopt::kernel {
namespace {

std::string names_of(const std::vector<const parameter*>& parameters) {
  std::vector<std::string> names;
  for (const parameter* p : parameters) names.push_back(p->name);
  return names.empty() ? "none" : join(names, ", ");
}

std::vector<const parameter*> integer_scalars(const signature& solve) {
  std::vector<const parameter*> found;
  for (const parameter* p : solve.scalars()) {
    if (p->element.is_integer()) found.push_back(p);
  }
  return found;
}

class checker {
 public:
  checker(const signature& solve, std::string_view file_label)
      : m_solve(solve), m_file(file_label) {}

  const parameter& buffer(const std::string& name, int line) const {
    const parameter* p = m_solve.find(name);
    if (p == nullptr) {
      fail(line, fmt::format("kopt annotation names '{}', which is not a parameter of solve(): "
                             "its buffers are {}",
                             name, names_of(m_solve.pointers())));
    }
    if (!p->is_pointer) {
      fail(line, fmt::format("kopt annotation names '{}', a scalar parameter of solve(): sizes, "
                             "roles and values apply to its buffers ({})",
                             name, names_of(m_solve.pointers())));
    }
    return *p;
  }

  void expression(const int_expression& e, const std::string& written, int line) const {
    for (const std::string& name : e.names()) {
      const parameter* p = m_solve.find(name);
      if (p != nullptr && !p->is_pointer && p->element.is_integer()) continue;
      std::string why = "solve() has no integer parameter " + name;
      if (p != nullptr && p->is_pointer) why = name + " is a buffer, not a dimension";
      if (p != nullptr && !p->is_pointer) {
        why = fmt::format("{} is a {} parameter; expressions use integer parameters", name,
                          p->spelled_type);
      }
      fail(line, fmt::format("unknown dimension '{}' in kopt annotation {}: {} (its integer "
                             "parameters: {})",
                             name, written, why, names_of(integer_scalars(m_solve))));
    }
  }

  void numbers(const values_item& item, const parameter& p) const {
    if (item.kind == distribution_kind::normal && !p.element.is_floating()) {
      fail(item.line, fmt::format("kopt annotation {}: normal() needs a floating-point buffer, "
                                  "but {} holds {}: use range(...) or values(...)",
                                  item.text, p.name, p.element.name));
    }
    for (const auto& number : item.args) {
      if (number.integer) expression(*number.integer, item.text, item.line);
      if (number.floating && !p.element.is_floating()) {
        fail(item.line, fmt::format("kopt annotation {}: '{}' is not an integer, but {} holds "
                                    "{} values: use integers",
                                    item.text, number.text, p.name, p.element.name));
      }
    }
  }

  [[noreturn]] void fail(int line, const std::string& problem) const {
    throw error(fmt::format("{}:{}: {}", m_file, line, problem));
  }

 private:
  const signature& m_solve;
  std::string_view m_file;
};

}  // namespace

void check_annotations(const annotation_set& annotations, const signature& solve,
                       std::string_view file_label) {
  const checker check(solve, file_label);
  for (const auto& item : annotations.sizes) {
    check.buffer(item.buffer, item.line);
    check.expression(item.count, fmt::format("{}[{}]", item.buffer, item.count.text()), item.line);
  }
  for (const auto& item : annotations.roles) {
    const parameter& p = check.buffer(item.buffer, item.line);
    if (p.pointee_is_const && item.role != buffer_role::in) {
      check.fail(item.line,
                 fmt::format("kopt annotation declares {} {}, but solve() takes it as '{}', so "
                             "the kernel cannot write it: drop the const or the annotation",
                             item.buffer, to_string(item.role), p.spelled_type));
    }
  }
  for (const auto& item : annotations.values) {
    check.numbers(item, check.buffer(item.buffer, item.line));
  }
  for (const auto& item : annotations.tunes) {
    if (solve.find(item.name) != nullptr) {
      check.fail(item.line,
                 fmt::format("kopt annotation {} names {}, a parameter of solve(): tune() sets a -D "
                             "macro of the build; pass dimensions as --{}=VALUE",
                             item.text, item.name, item.name));
    }
  }
  for (const auto& item : annotations.restrictions) {
    for (const std::string& name : item.condition.names()) {
      if (annotations.tune_of(name) != nullptr) continue;
      const parameter* p = solve.find(name);
      if (p != nullptr && !p->is_pointer && p->element.is_integer()) continue;
      std::vector<std::string> known;
      for (const tune_item& tune : annotations.tunes) known.push_back(tune.name);
      for (const parameter* scalar : integer_scalars(solve)) known.push_back(scalar->name);
      check.fail(item.line,
                 fmt::format("kopt annotation restrict({}) names '{}', which is neither a tune() "
                             "parameter nor an integer parameter of solve() (known: {})",
                             item.condition.text(), name, known.empty() ? "none" : join(known, ", ")));
    }
  }
  if (!annotations.restrictions.empty() && annotations.tunes.empty()) {
    check.fail(annotations.restrictions.front().line,
               "kopt annotation restrict(...) without any tune(...): declare the parameters it restricts");
  }
}

}  // namespace kopt::kernel
