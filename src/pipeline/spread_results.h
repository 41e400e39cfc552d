#pragma once
// The document of a command given several files at once (compare's candidates, bench's
// kernels, spread over GPUs or not): one entry per file, in the order given, naming the GPU it
// ran on and holding the document the command writes for one file.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "pipeline/bench_preparation.h"

namespace kopt::pipeline {

struct spread_entry {
  std::string file;              // the candidate or kernel, as given
  int gpu = 0;                   // the CUDA device ordinal it ran on
  std::optional<json> document;  // none: nothing was measured (see failure)
  std::string failure;           // "" unless it did not build
};

// The entry of `file`, which ran on `gpu`: `document()` unless it did not build, else the
// compiler's reason.
spread_entry spread_entry_of(const std::string& file, int gpu,
                             const std::optional<build_failure>& failed_build,
                             const std::function<json()>& document);

// {"command": "kopt compare", "results": [{"file", "gpu", "document", "failure"}, ...]}
json spread_document(const std::string& command, const std::vector<spread_entry>& entries);

}  // namespace kopt::pipeline
