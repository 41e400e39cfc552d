#pragma once
// The document of a command given several files at once (compare's candidates, bench's
// kernels, spread over GPUs or not): one entry per file, in the order given, naming the GPU it
// ran on and holding the document the command writes for one file.

#include <optional>
#include <string>
#include <vector>

#include "core/json_io.h"

namespace kopt::pipeline {

struct spread_entry {
  std::string file;              // the candidate or kernel, as given
  int gpu = 0;                   // the CUDA device ordinal it ran on
  std::optional<json> document;  // none: nothing was measured (see failure)
  std::string failure;           // "" unless it did not build
};

// {"command": "kopt compare", "results": [{"file", "gpu", "document", "failure"}, ...]}
json spread_document(const std::string& command, const std::vector<spread_entry>& entries);

}  // namespace kopt::pipeline
