#pragma once
// What a client sends, read by the one checking reader (core/json_limits.h, core/document.h)
// before the server acts on it: a JSON-RPC message (id, method, params), then the params of the
// methods kopt answers. A line that is not JSON, nests deeper than 64 levels or holds a number
// beyond a double is a parse error; a message whose method is not a string or whose id is not a
// string or an integer is an invalid request; params of the wrong shape are invalid params. The
// answer to each is a JSON-RPC error response, and the server goes on. Fields a later revision
// of the protocol adds are passed over.

#include <optional>
#include <string>
#include <variant>

#include "core/document.h"
#include "core/json_io.h"

namespace kopt::mcp {

// A request (with an id: it gets one response) or a notification (none).
struct rpc_message {
  json id = nullptr;  // a string or an integer; null for a notification
  std::string method;
  json params = json::object();  // always an object (MCP's params are named)

  bool is_request() const { return !id.is_null(); }
};

// What came in: a message to act on, an error response to send at once, or nothing to do (a
// response the client sent, a malformed notification: JSON-RPC answers neither).
struct rpc_reading {
  std::optional<rpc_message> message;
  json reply = nullptr;
};

// One line of the channel.
rpc_reading read_rpc_line(const std::string& line);
// One message already parsed (the server's tests give it this way).
rpc_reading read_rpc_message(const json& message);

// The params of the methods kopt answers, as the protocol defines them.
struct initialize_params {
  static constexpr bool document_open = true;
  std::optional<std::string> protocolVersion;
};
BOOST_DESCRIBE_STRUCT(initialize_params, (), (protocolVersion))

struct call_params {
  static constexpr bool document_open = true;
  std::string name;
  std::optional<json> arguments;  // checked against the tool's schema (argument_problem); absent: {}
  std::optional<json> _meta;      // {"progressToken": ...}
};
BOOST_DESCRIBE_STRUCT(call_params, (), (name, arguments, _meta))

struct cancelled_params {
  static constexpr bool document_open = true;
  json requestId = nullptr;
  std::optional<std::string> reason;
};
BOOST_DESCRIBE_STRUCT(cancelled_params, (), (requestId, reason))

// `message`'s params as T, or the invalid-params error response naming the field ("tools/call:
// field name: must be a string, found number 5").
template <typename T>
std::variant<T, json> read_params(const rpc_message& message);

// A progress token the client may give (a string or an integer); null otherwise.
json progress_token(const call_params& params);

}  // namespace kopt::mcp
