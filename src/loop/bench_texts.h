#pragma once
// benchmark.stdout.txt and benchmark.stderr.txt: what a person reads first when the JSON is too
// much (the Python toolkit kept its benchmark script's output under these names): the text kopt
// bench prints for the result (pipeline/bench_text.h), and the failure; and kernel_output.txt,
// what the kernel's process printed (its printf), when it printed anything.

#include <filesystem>

#include "pipeline/bench_pipeline.h"

namespace kopt::loop {

void write_bench_texts(const std::filesystem::path& dir, const pipeline::bench_outcome& bench);

}  // namespace kopt::loop
