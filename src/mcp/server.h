#pragma once
// kopt's MCP server (`kopt mcp`): the Model Context Protocol over stdio, JSON-RPC 2.0 with the
// initialize handshake (revisions 2025-06-18 and 2025-11-25, and 2025-03-26). It answers
// initialize, ping, tools/list and tools/call, and takes notifications/initialized and
// notifications/cancelled. Tool calls run one at a time on a worker thread, so the reader keeps
// reading: a cancellation kills the running call's child processes and no response follows;
// a call whose request carries a progress token gets notifications/progress as it goes.

#include "mcp/rpc_channel.h"
#include "mcp/workspace.h"
#include "pipeline/services.h"

namespace kopt::mcp {

inline constexpr const char* latest_protocol_revision = "2025-11-25";

// Serves until the input ends; then runs every call still asked for to its answer and returns.
// A malformed message gets a JSON-RPC error response (rpc_messages.h) and the server goes on.
// Tools that measure get their workers through `services`.
void serve(rpc_channel& channel, const workspace& root, const pipeline::services& services);

// The answer to one message (a response, an error response for a malformed one, or nothing for
// a notification); tools/call is run here, on the calling thread. For tests of the protocol's
// pure parts.
json answer(const json& request, const workspace& root, const pipeline::services& services = {});

}  // namespace kopt::mcp
