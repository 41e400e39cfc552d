#pragma once
// Versions held open side by side for a comparison in turns (alternating_comparison.h): each
// version in its own measuring process, loaded once, timing one block of calls when asked,
// while the others wait without touching the GPU. The GPU lock is held for the whole session,
// so no other kopt measures between the blocks.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "measure/timing_document.h"

namespace kopt::pipeline {

struct timing_block {
  std::optional<measure::timing_document> timing;  // the block's timing; none when it failed
  std::string warning;    // another process used the GPU during the block ("" if none did)
  std::string failure;    // "" when timed; else why not (the version crashed, hung, broke a rule)
  int placement = -1;     // which of the version's buffer sets it ran on (-1: not said)
};

class block_timing {
 public:
  virtual ~block_timing() = default;

  // Times `calls` calls of version `version` (an index into the session's jobs) after a short
  // warm-up. A version that failed once fails every later block with the same reason.
  virtual timing_block time_block(std::size_t version, int calls) = 0;

  // Ends every version's process and gives, per version, what it did wrong after its last
  // block (its last call's check, a process it left running, a result without kopt's seal),
  // "" for none. A version that failed a block is not asked again ("").
  virtual std::vector<std::string> close() = 0;
};

}  // namespace kopt::pipeline
