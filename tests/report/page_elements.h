#pragma once
// The elements of a page that carry a class, with their attributes: how the report's tests read
// the charts' data-* hooks, in the page kopt wrote and in the DOM a browser dumped.

#include <map>
#include <string>
#include <vector>

namespace kopt::report::testing {

using attributes = std::map<std::string, std::string>;

// Every start tag `<tag ...>` whose class attribute is exactly `css_class`, in order.
std::vector<attributes> elements_with_class(const std::string& html, const std::string& tag,
                                            const std::string& css_class);

// The double an attribute holds; throws when it is missing or not a number.
double number_attribute(const attributes& element, const std::string& name);

}  // namespace kopt::report::testing
