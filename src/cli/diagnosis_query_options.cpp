#include "cli/diagnosis_query_options.h"

#include <vector>

#include "analyze/bottleneck.h"
#include "core/text.h"

namespace kopt::cli {

std::string bottleneck_class_help() {
  std::vector<std::string> classes;
  for (const analyze::bottleneck b : analyze::all_bottlenecks()) classes.emplace_back(analyze::to_string(b));
  return "the bottleneck class (kopt analyze's): " + join(classes, ", ");
}

}  // namespace kopt::cli
