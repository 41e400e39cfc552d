#pragma once
// The Python toolkit's strategy memory at a run's start: a global_strategy_memory.json given
// with --global-memory-file is imported (as `kopt memory import` does: one transaction, weaker
// evidence in the loop); one found beside the kernel is offered, once per file content, so that
// a toolkit user learns that what the toolkit learned can come along without it being taken
// behind their back.

#include <string>
#include <vector>

#include "loop/loop_settings.h"
#include "memory/memory_store.h"

namespace kopt::loop {

// The file the toolkit keeps beside a kernel.
inline constexpr const char* toolkit_memory_name = "global_strategy_memory.json";

// One line per thing done or offered (none when there is nothing); throws kopt::error for a
// given file that cannot be imported (nothing is stored then).
std::vector<std::string> bring_toolkit_memory(const loop_settings& settings, memory::memory_store& store);

}  // namespace kopt::loop
