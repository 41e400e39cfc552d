#pragma once
// The open round's candidates that are not committed yet, measured on the settings' GPU and on
// the services' other GPUs at once (pipeline/gpu_dispatch.h), each committed as it finishes. Each
// candidate is judged, timed, compared in turns with the incumbent and, when faster, profiled
// on the one GPU it was handed to, never across GPUs. With one GPU the candidates take their
// turns in order, and a strategy that an earlier candidate of the round blocked rejects a later
// one without measuring; with several, a candidate is held against the blocks committed when it
// starts.

#include "loop/step_context.h"

namespace kopt::loop {

void evaluate_open_round(const step_context& ctx);

}  // namespace kopt::loop
