#pragma once
// The document of a command given several files at once (compare's candidates, bench's
// kernels, spread over GPUs or not): one entry per file, in the order given, naming the GPU it
// ran on and holding the document the command writes for one file.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe.hpp>

#include "core/json_io.h"
#include "pipeline/bench_preparation.h"

namespace kopt::pipeline {

struct spread_entry {
  std::string file;                    // the candidate or kernel, as given
  int gpu = 0;                         // the CUDA device ordinal it ran on
  std::optional<json> document;        // none: nothing was measured (see failure)
  std::optional<std::string> failure;  // set when it did not build
};
BOOST_DESCRIBE_STRUCT(spread_entry, (), (file, gpu, document, failure))

struct spread_results {
  static constexpr std::string_view document_schema = "kopt.spread_results/v1";
  std::string command;  // "kopt compare"
  std::vector<spread_entry> results;
};
BOOST_DESCRIBE_STRUCT(spread_results, (), (command, results))

// The entry of `file`, which ran on `gpu`: `document()` unless it did not build, else the
// compiler's reason.
spread_entry spread_entry_of(const std::string& file, int gpu,
                             const std::optional<build_failure>& failed_build,
                             const std::function<json()>& document);

// The document's writer and its checking reader (core/document.h).
json to_json(const spread_results& results);
spread_results read_spread_results(const json& document, std::string_view where);

}  // namespace kopt::pipeline
