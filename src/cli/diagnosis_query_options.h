#pragma once
// --class and --backend of a query by diagnosis (kopt kb match, kopt memory query): both
// required, the classes listed from analyze's own list.

#include <string>

#include <CLI/CLI.hpp>

namespace kopt::cli {

// "the bottleneck class (kopt analyze's): launch, occupancy, ..."
std::string bottleneck_class_help();

// `Backend` is a std::string, or a std::optional<std::string> a command shares with a filter.
template <typename Backend>
void add_diagnosis_query_options(CLI::App& query, std::string& bottleneck_class, Backend& backend) {
  query.add_option("--class", bottleneck_class, bottleneck_class_help())->required();
  query.add_option("--backend", backend, "cuda, cutlass or triton")->required();
}

}  // namespace kopt::cli
