#pragma once
// The MCP stdio transport: JSON-RPC 2.0 messages, one per line, read from one descriptor and
// written to another. Writing is serialised, so a tool's progress notifications from the worker
// thread and the reader's responses never interleave within a line.

#include <mutex>
#include <optional>
#include <string>

#include "core/json_io.h"

namespace kopt::mcp {

class rpc_channel {
 public:
  rpc_channel(int in_fd, int out_fd) : m_in(in_fd), m_out(out_fd) {}

  // The next line, or nothing at the end of the input. A line over 64 MiB is cut there.
  std::optional<std::string> read_line();
  // One message, as one line.
  void send(const json& message);

  static json response(const json& id, const json& result);
  static json error_response(const json& id, int code, const std::string& message);
  static json notification(const std::string& method, const json& params);

 private:
  int m_in;
  int m_out;
  std::string m_buffer;
  std::mutex m_write;
};

// JSON-RPC's error codes.
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;

}  // namespace kopt::mcp
