#include "mcp/server.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "core/cancellation.h"
#include "core/error.h"
#include "core/version.h"
#include "mcp/tool.h"

namespace kopt::mcp {
namespace {

const std::vector<std::string> supported_revisions = {"2025-11-25", "2025-06-18", "2025-03-26"};

json initialize_result(const json& params) {
  const std::string asked = params.value("protocolVersion", std::string());
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
    tools.push_back(json{{"name", t.name}, {"description", t.description}, {"inputSchema", t.input_schema}});
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
json error_result(const std::string& headline, const std::string& detail) {
  std::string text = headline;
  if (!detail.empty()) text += "\n" + (detail.size() > 4000 ? detail.substr(0, 4000) + "\n..." : detail);
  return json{{"content", json::array({json{{"type", "text"}, {"text", text}}})},
              {"structuredContent", json{{"error", headline}}},
              {"isError", true}};
}

// tools/call's result, or a protocol error response for an unknown tool or bad arguments.
json call_tool(const json& id, const json& params, const workspace& root,
               const std::function<void(const std::string&)>& progress) {
  const std::string name = params.value("name", std::string());
  const tool* t = find_tool(name);
  if (t == nullptr) return rpc_channel::error_response(id, invalid_params, fmt::format("unknown tool '{}'", name));
  const json arguments = params.value("arguments", json::object());
  if (const std::string problem = argument_problem(t->input_schema, arguments); !problem.empty()) {
    return rpc_channel::error_response(id, invalid_params, fmt::format("invalid arguments for {}: {}", name, problem));
  }
  try {
    const tool_output out = t->run(tool_call{arguments, root, progress});
    return rpc_channel::response(
        id, json{{"content", json::array({json{{"type", "text"}, {"text", out.summary}}})},
                 {"structuredContent", out.structured.is_object() ? out.structured : json{{"value", out.structured}}},
                 {"isError", false}});
  } catch (const error& e) {
    return rpc_channel::response(id, error_result(e.headline(), e.detail()));
  } catch (const std::exception& e) {
    return rpc_channel::response(id, error_result(fmt::format("kopt failed: {} (a kopt bug: report it)", e.what()), ""));
  }
}

bool is_request(const json& message) { return message.contains("id") && !message["id"].is_null(); }

// One tool call waiting or running on the worker.
struct pending_call {
  json id;
  json params;
  std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
};

class call_worker {
 public:
  call_worker(rpc_channel& channel, const workspace& root)
      : m_channel(channel), m_root(root), m_thread([this] { work(); }) {}
  ~call_worker() {
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
      if (c.id == id) *c.cancelled = true;
    }
    if (m_running && m_running->id == id) *m_running->cancelled = true;
  }

 private:
  void work() {
    while (true) {
      pending_call call;
      {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_ready.wait(lock, [&] { return m_stopping || !m_queue.empty(); });
        if (m_queue.empty()) return;
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
    if (call.params.contains("_meta") && call.params["_meta"].is_object()) {
      token = call.params["_meta"].value("progressToken", json(nullptr));
    }
    int step = 0;
    const auto progress = [&](const std::string& message) {
      if (token.is_null() || *call.cancelled) return;
      m_channel.send(rpc_channel::notification(
          "notifications/progress", json{{"progressToken", token}, {"progress", ++step}, {"message", message}}));
    };
    const json response = call_tool(call.id, call.params, m_root, progress);
    set_thread_cancellation(nullptr);
    // A cancelled request gets no response (the protocol's rule).
    if (!*call.cancelled) m_channel.send(response);
  }

  rpc_channel& m_channel;
  const workspace& m_root;
  std::mutex m_mutex;
  std::condition_variable m_ready;
  std::deque<pending_call> m_queue;
  pending_call* m_running = nullptr;
  bool m_stopping = false;
  std::thread m_thread;
};

}  // namespace

json answer(const json& request, const workspace& root) {
  const json id = request.value("id", json(nullptr));
  const std::string method = request.value("method", std::string());
  const json params = request.value("params", json::object());
  if (method == "initialize") return rpc_channel::response(id, initialize_result(params));
  if (method == "ping") return rpc_channel::response(id, json::object());
  if (method == "tools/list") return rpc_channel::response(id, tools_list());
  if (method == "tools/call") return call_tool(id, params, root, [](const std::string&) {});
  if (!is_request(request)) return nullptr;  // a notification kopt has nothing to do for
  return rpc_channel::error_response(id, method_not_found, fmt::format("kopt's MCP server has no method '{}'", method));
}

void serve(rpc_channel& channel, const workspace& root) {
  call_worker worker(channel, root);
  while (const std::optional<std::string> line = channel.read_line()) {
    if (line->find_first_not_of(" \t\r") == std::string::npos) continue;
    const json message = json::parse(*line, nullptr, false);
    if (message.is_discarded() || !message.is_object()) {
      channel.send(rpc_channel::error_response(nullptr, parse_error, "not a JSON-RPC message (one JSON object per line)"));
      continue;
    }
    const std::string method = message.value("method", std::string());
    if (method == "tools/call" && is_request(message)) {
      worker.submit(pending_call{message["id"], message.value("params", json::object())});
    } else if (method == "notifications/cancelled") {
      worker.cancel(message.value("params", json::object()).value("requestId", json(nullptr)));
    } else if (const json reply = answer(message, root); !reply.is_null()) {
      channel.send(reply);
    }
  }
}

}  // namespace kopt::mcp
