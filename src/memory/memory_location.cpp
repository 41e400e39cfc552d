#include "memory/memory_location.h"


namespace kopt::memory {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// The query's parameters without password=..., in their order.
std::string without_password_parameter(std::string_view query) {
  std::string kept;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view parameter = query.substr(0, amp);
    if (!parameter.empty() && !starts_with(parameter, "password=")) {
      if (!kept.empty()) kept += '&';
      kept += parameter;
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return kept;
}

}  // namespace

bool is_postgresql_url(std::string_view location) {
  return starts_with(location, "postgresql://") || starts_with(location, "postgres://");
}

std::string shown_location(std::string_view location) {
  if (!is_postgresql_url(location)) return std::string(location);
  const std::size_t scheme_end = location.find("://") + 3;
  std::string_view rest = location.substr(scheme_end);
  std::string shown(location.substr(0, scheme_end));
  // The user part ends at the last @ before the path (a password may hold @ and :).
  const std::size_t path_start = rest.find_first_of("/?");
  const std::string_view authority = rest.substr(0, path_start);
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    const std::string_view user_info = authority.substr(0, at);
    shown += user_info.substr(0, user_info.find(':'));
    shown += authority.substr(at);
  } else {
    shown += authority;
  }
  if (path_start == std::string_view::npos) return shown;
  rest.remove_prefix(path_start);
  const std::size_t question = rest.find('?');
  shown += rest.substr(0, question);
  if (question != std::string_view::npos) {
    const std::string query = without_password_parameter(rest.substr(question + 1));
    if (!query.empty()) shown += "?" + query;
  }
  return shown;
}

std::string with_credentials(const std::string& recorded, const std::string& given) {
  return !given.empty() && shown_location(given) == recorded ? given : recorded;
}

}  // namespace kopt::memory
