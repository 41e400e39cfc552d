#include "mcp/rpc_messages.h"

#include <fmt/format.h>

#include "core/json_limits.h"
#include "mcp/rpc_channel.h"

namespace kopt::mcp {
namespace {

// The envelope: the fields every message may carry, as their types must be.
struct rpc_envelope {
  static constexpr bool document_open = true;
  std::optional<std::string> jsonrpc;
  std::optional<std::string> method;
  std::optional<json> params;
};
BOOST_DESCRIBE_STRUCT(rpc_envelope, (), (jsonrpc, method, params))

bool is_valid_id(const json& id) { return id.is_string() || id.is_number_integer(); }

// [bytes] a message kopt reads: far more than any request needs.
constexpr std::size_t longest_message = std::size_t{64} << 20;

}  // namespace

rpc_reading read_rpc_message(const json& message) {
  rpc_reading reading;
  if (!message.is_object()) {
    reading.reply = rpc_channel::error_response(nullptr, invalid_request, "a JSON-RPC message is an object");
    return reading;
  }
  const json id = message.contains("id") ? message["id"] : json(nullptr);
  if (!id.is_null() && !is_valid_id(id)) {
    reading.reply = rpc_channel::error_response(nullptr, invalid_request,
                                                "a request's id must be a string or an integer");
    return reading;
  }
  rpc_envelope envelope;
  try {
    envelope = from_document<rpc_envelope>(message);
  } catch (const document_error& e) {
    if (!id.is_null()) reading.reply = rpc_channel::error_response(id, invalid_request, e.headline());
    return reading;
  }
  if (!envelope.method) {
    // A response (to a request kopt never sends) or nothing at all.
    const bool response = message.contains("result") || message.contains("error");
    if (!response && !id.is_null()) {
      reading.reply = rpc_channel::error_response(id, invalid_request, "a request names its method");
    }
    return reading;
  }
  if (envelope.params && !envelope.params->is_object()) {
    if (!id.is_null()) {
      reading.reply = rpc_channel::error_response(
          id, invalid_params, fmt::format("{}: params must be an object of named parameters", *envelope.method));
    }
    return reading;
  }
  reading.message = rpc_message{id, *envelope.method, envelope.params.value_or(json::object())};
  return reading;
}

rpc_reading read_rpc_line(const std::string& line) {
  json message;
  try {
    message = parse_json_checked(line, json_limits{64, longest_message});
  } catch (const document_error& e) {
    rpc_reading reading;
    reading.reply = rpc_channel::error_response(nullptr, parse_error,
                                                "not a JSON-RPC message (one JSON object per line): " + e.headline());
    return reading;
  }
  return read_rpc_message(message);
}

template <typename T>
std::variant<T, json> read_params(const rpc_message& message) {
  try {
    return from_document<T>(message.params);
  } catch (const document_error& e) {
    return rpc_channel::error_response(message.id, invalid_params, fmt::format("{}: {}", message.method, e.headline()));
  }
}

template std::variant<initialize_params, json> read_params<initialize_params>(const rpc_message&);
template std::variant<call_params, json> read_params<call_params>(const rpc_message&);
template std::variant<cancelled_params, json> read_params<cancelled_params>(const rpc_message&);

json progress_token(const call_params& params) {
  if (!params._meta || !params._meta->is_object() || !params._meta->contains("progressToken")) return nullptr;
  const json& token = (*params._meta)["progressToken"];
  return is_valid_id(token) ? token : json(nullptr);
}

}  // namespace kopt::mcp
