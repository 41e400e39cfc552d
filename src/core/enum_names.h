#pragma once
// An enumerator's name from the enum's one list of names (BOOST_DESCRIBE_ENUM), so that its
// to_string, its documents and its messages spell it alike.

#include <string_view>

#include <boost/describe/enum.hpp>
#include <boost/describe/enum_to_string.hpp>

namespace kopt {

// The name of `value`, or `otherwise` for a value that is none of the enumerators. The text
// lives as long as the program.
template <typename E>
std::string_view enumerator_name(E value, std::string_view otherwise = "unknown") {
  const char* name = boost::describe::enum_to_string(value, nullptr);
  return name != nullptr ? std::string_view(name) : otherwise;
}

}  // namespace kopt
