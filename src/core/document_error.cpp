#include "core/document_error.h"

#include <utility>

#include <fmt/format.h>

namespace kopt {
namespace {

std::string headline_of(const std::string& field, const std::string& problem) {
  return field.empty() ? problem : fmt::format("field {}: {}", field, problem);
}

}  // namespace

document_error::document_error(std::string field, std::string problem)
    : error(headline_of(field, problem)), m_field(std::move(field)), m_problem(std::move(problem)) {}

error document_error::in(const std::string& where, const std::string& remedy) const {
  return error(fmt::format("{}: {}{}", where, headline(), remedy.empty() ? "" : "; " + remedy));
}

}  // namespace kopt
