#include "mcp/server.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "core/cancellation.h"
#include "core/error.h"
#include "core/escaped_error.h"
#include "core/version.h"
#include "mcp/rpc_messages.h"
#include "mcp/tool.h"

namespace kopt::mcp {
namespace {

const std::vector<std::string> supported_revisions = {"2025-11-25", "2025-06-18", "2025-03-26"};

json initialize_result(const initialize_params& params) {
  const std::string asked = params.protocolVersion.value_or("");
  const bool known = std::find(supported_revisions.begin(), supported_revisions.end(), asked) != supported_revisions.end();
  return json{{"protocolVersion", known ? asked : latest_protocol_revision},
              {"capabilities", json{{"tools", json{{"listChanged", false}}}}},
              {"serverInfo", json{{"name", "kopt"}, {"version", version_string}}},
              {"instructions",
               "kopt validates, times, profiles and diagnoses GPU kernels (CUDA, CUTLASS, Triton) under a judge that "
               "catches cheating kernels. Paths are files in the workspace. Start with inspect; bench before claiming "
               "a kernel is right or fast; profile then analyze to decide what to change; loop_step to run the "
               "optimization loop with its memory."}};
}

json tools_list() {
  json tools = json::array();
  for (const tool& t : tool_table()) {
    // The hints (MCP 2025-06-18): a tool that is not read-only adds or replaces kopt's own files
    // (analysis, profile, run folder, report page), never the user's; none reaches outside the machine.
    json annotations{{"readOnlyHint", t.read_only}, {"openWorldHint", false}};
    if (!t.read_only) annotations["destructiveHint"] = false;
    tools.push_back(json{{"name", t.name},
                         {"description", t.description},
                         {"inputSchema", t.input_schema},
                         {"outputSchema", t.output_schema},
                         {"annotations", annotations}});
  }
  return json{{"tools", tools}};
}

const tool* find_tool(const std::string& name) {
  for (const tool& t : tool_table()) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

// A tool's failure is a result the agent reads, not a protocol error.
json error_result(const std::string& full_headline, const std::string& detail) {
  const std::string headline = in_tool_words(full_headline);
  std::string text = headline;
  if (!detail.empty()) text += "\n" + in_tool_words(detail.size() > 4000 ? detail.substr(0, 4000) + "\n..." : detail);
  return json{{"content", json::array({json{{"type", "text"}, {"text", text}}})},
              {"structuredContent", json{{"error", headline}}},
              {"isError", true}};
}

// tools/call's result, or a protocol error response for an unknown tool or bad arguments.
// Whatever a tool throws becomes its result: never an exception out of here.
json call_tool(const rpc_message& call, const workspace& root, const pipeline::services& services,
               const std::function<void(const std::string&)>& progress) {
  const auto read = read_params<call_params>(call);
  if (const json* refused = std::get_if<json>(&read)) return *refused;
  const call_params& params = std::get<call_params>(read);
  const tool* t = find_tool(params.name);
  if (t == nullptr) {
    return rpc_channel::error_response(call.id, invalid_params, fmt::format("unknown tool '{}'", params.name));
  }
  const json arguments = params.arguments.value_or(json::object());
  if (const std::string problem = argument_problem(t->input_schema, arguments); !problem.empty()) {
    return rpc_channel::error_response(call.id, invalid_params,
                                       fmt::format("invalid arguments for {}: {}", params.name, problem));
  }
  try {
    const tool_output out = t->run(tool_call{arguments, root, services, progress});
    return rpc_channel::response(
        call.id,
        json{{"content", json::array({json{{"type", "text"}, {"text", in_tool_words(out.summary)}}})},
             {"structuredContent", out.structured.is_object() ? out.structured : json{{"value", out.structured}}},
             {"isError", false}});
  } catch (...) {
    const error e = current_exception_as_error();
    return rpc_channel::response(call.id, error_result(e.headline(), e.detail()));
  }
}

// The answer to a message other than tools/call (which the worker runs): a response, or null
// for a notification.
json answer_message(const rpc_message& message, const workspace& root, const pipeline::services& services) {
  if (message.method == "initialize") {
    const auto read = read_params<initialize_params>(message);
    if (const json* refused = std::get_if<json>(&read)) return *refused;
    return rpc_channel::response(message.id, initialize_result(std::get<initialize_params>(read)));
  }
  if (message.method == "ping") return rpc_channel::response(message.id, json::object());
  if (message.method == "tools/list") return rpc_channel::response(message.id, tools_list());
  if (message.method == "tools/call") return call_tool(message, root, services, [](const std::string&) {});
  if (!message.is_request()) return nullptr;  // a notification kopt has nothing to do for
  return rpc_channel::error_response(message.id, method_not_found,
                                     fmt::format("kopt's MCP server has no method '{}'", message.method));
}

// One tool call waiting or running on the worker.
struct pending_call {
  rpc_message message;
  std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
};

class call_worker {
 public:
  call_worker(rpc_channel& channel, const workspace& root, const pipeline::services& services)
      : m_channel(channel), m_root(root), m_services(services), m_thread([this] { work(); }) {}
  // Leaving early (an exception in the reader): what is queued or running is cancelled.
  ~call_worker() {
    if (!m_thread.joinable()) return;
    {
      const std::lock_guard<std::mutex> lock(m_mutex);
      m_stopping = true;
      for (auto& c : m_queue) *c.cancelled = true;
      if (m_running) *m_running->cancelled = true;
    }
    m_ready.notify_all();
    m_thread.join();
  }

  void submit(pending_call call) {
    {
      const std::lock_guard<std::mutex> lock(m_mutex);
      m_queue.push_back(std::move(call));
    }
    m_ready.notify_all();
  }

  void cancel(const json& id) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    for (auto& c : m_queue) {
      if (c.message.id == id) *c.cancelled = true;
    }
    if (m_running && m_running->message.id == id) *m_running->cancelled = true;
  }

  // The input ended: every call asked for still runs and is answered, then the worker stops.
  void finish() {
    {
      const std::lock_guard<std::mutex> lock(m_mutex);
      m_finishing = true;
    }
    m_ready.notify_all();
    m_thread.join();
  }

 private:
  void work() {
    while (true) {
      pending_call call;
      {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_ready.wait(lock, [&] { return m_stopping || m_finishing || !m_queue.empty(); });
        if (m_queue.empty() || m_stopping) return;
        call = std::move(m_queue.front());
        m_queue.pop_front();
        m_running = &call;
      }
      if (!*call.cancelled) run(call);
      const std::lock_guard<std::mutex> lock(m_mutex);
      m_running = nullptr;
    }
  }

  void run(const pending_call& call) {
    set_thread_cancellation(call.cancelled.get());
    json token = nullptr;
    if (const auto read = read_params<call_params>(call.message); std::holds_alternative<call_params>(read)) {
      token = progress_token(std::get<call_params>(read));
    }
    int step = 0;
    const auto progress = [&](const std::string& message) {
      if (token.is_null() || *call.cancelled) return;
      m_channel.send(rpc_channel::notification(
          "notifications/progress", json{{"progressToken", token}, {"progress", ++step}, {"message", message}}));
    };
    json response;
    try {
      response = call_tool(call.message, m_root, m_services, progress);
    } catch (...) {
      response = rpc_channel::error_response(call.message.id, internal_error, current_exception_as_error().headline());
    }
    set_thread_cancellation(nullptr);
    // A cancelled request gets no response (the protocol's rule).
    if (!*call.cancelled) m_channel.send(response);
  }

  rpc_channel& m_channel;
  const workspace& m_root;
  const pipeline::services& m_services;
  std::mutex m_mutex;
  std::condition_variable m_ready;
  std::deque<pending_call> m_queue;
  pending_call* m_running = nullptr;
  bool m_stopping = false;
  bool m_finishing = false;
  std::thread m_thread;
};

// What the reader does with one line: answers it at once, hands a call to the worker, or
// cancels one. Whatever fails in it is an internal error response; the server goes on.
void take_line(const std::string& line, rpc_channel& channel, call_worker& worker, const workspace& root,
               const pipeline::services& services) {
  const rpc_reading reading = read_rpc_line(line);
  if (!reading.reply.is_null()) channel.send(reading.reply);
  if (!reading.message) return;
  const rpc_message& message = *reading.message;
  try {
    if (message.method == "tools/call" && message.is_request()) {
      worker.submit(pending_call{message});
    } else if (message.method == "notifications/cancelled") {
      const auto read = read_params<cancelled_params>(message);
      if (const auto* params = std::get_if<cancelled_params>(&read)) worker.cancel(params->requestId);
    } else if (const json reply = answer_message(message, root, services); !reply.is_null()) {
      channel.send(reply);
    }
  } catch (...) {
    if (message.is_request()) {
      channel.send(rpc_channel::error_response(message.id, internal_error, current_exception_as_error().headline()));
    }
  }
}

}  // namespace

json answer(const json& request, const workspace& root, const pipeline::services& services) {
  const rpc_reading reading = read_rpc_message(request);
  if (!reading.message) return reading.reply;
  return answer_message(*reading.message, root, services);
}

void serve(rpc_channel& channel, const workspace& root, const pipeline::services& services) {
  call_worker worker(channel, root, services);
  while (const std::optional<std::string> line = channel.read_line()) {
    if (line->find_first_not_of(" \t\r") == std::string::npos) continue;
    take_line(*line, channel, worker, root, services);
  }
  worker.finish();
}

}  // namespace kopt::mcp
