#include "page_elements.h"

#include <regex>
#include <stdexcept>

namespace kopt::report::testing {

std::vector<attributes> elements_with_class(const std::string& html, const std::string& tag,
                                            const std::string& css_class) {
  const std::regex start_tag("<" + tag + "(\\s[^>]*)?>");
  const std::regex attribute(R"(([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*"([^"]*)\")");
  std::vector<attributes> found;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), start_tag); it != std::sregex_iterator(); ++it) {
    const std::string inside = (*it)[1].str();
    attributes element;
    for (auto a = std::sregex_iterator(inside.begin(), inside.end(), attribute); a != std::sregex_iterator(); ++a) {
      element[(*a)[1].str()] = (*a)[2].str();
    }
    if (element.count("class") != 0 && element["class"] == css_class) found.push_back(element);
  }
  return found;
}

double number_attribute(const attributes& element, const std::string& name) {
  const auto it = element.find(name);
  if (it == element.end()) throw std::runtime_error("no attribute " + name);
  std::size_t used = 0;
  const double value = std::stod(it->second, &used);
  if (used != it->second.size()) throw std::runtime_error(name + " is not a number: " + it->second);
  return value;
}

}  // namespace kopt::report::testing
