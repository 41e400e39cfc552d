// Reproducers: the MCP server died, losing every later request of the connection, on a method
// that is a number, initialize with array params or a numeric protocolVersion, cancelled or
// tools/call with array params, a numeric tool name, ids and arguments nested deep; and it
// dropped the calls still queued when its input closed. Each request must get an answer.
#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include "hostile_input.h"

namespace kopt::hostile {
namespace {
using testing::first_line;
using testing::run_kopt;

// Runs `kopt mcp` with `lines` as its whole input; returns its output lines as JSON (a line
// that is not JSON becomes a string).
std::vector<json> mcp_session(const scratch_dir& dir, const std::vector<std::string>& lines, process_result& run) {
  std::string input;
  for (const auto& line : lines) input += line + "\n";
  const fs::path requests = dir.write("requests.jsonl", input);
  const int fd = ::open(requests.c_str(), O_RDONLY);
  process_request request;
  request.argv = {testing::kopt_binary().string(), "mcp", "--workspace", dir.path().string()};
  request.pass_fds = {{fd, 0}};
  request.extra_env = {{"KOPT_CACHE_DIR", (dir.path() / "cache").string()},
                       {"KOPT_MEMORY_DB", (dir.path() / "memory.db").string()},
                       {"CUDA_VISIBLE_DEVICES", ""}};
  request.timeout = std::chrono::minutes(5);
  run = run_process(request);
  ::close(fd);
  std::vector<json> out;
  std::size_t start = 0;
  for (std::size_t end = run.stdout_text.find('\n'); end != std::string::npos;
       end = run.stdout_text.find('\n', start)) {
    const std::string line = run.stdout_text.substr(start, end - start);
    const json message = json::parse(line, nullptr, false);
    out.push_back(message.is_discarded() ? json(line) : message);
    start = end + 1;
  }
  return out;
}

const json* response_to(const std::vector<json>& messages, const json& id) {
  for (const json& m : messages) {
    if (m.is_object() && m.contains("id") && m["id"] == id && (m.contains("result") || m.contains("error"))) return &m;
  }
  return nullptr;
}

TEST(HostileInput, TheMcpServerAnswersMalformedRequestsAndGoesOn) {
  scratch_dir dir;
  const std::string deep = deep_array(200000);
  const std::vector<std::string> lines = {
      R"({"jsonrpc":"2.0","id":1,"method":5})",
      R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":[]})",
      R"({"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":5}})",
      R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":[]})",
      R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":[]})",
      R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":5}})",
      R"({"jsonrpc":"2.0","id":)" + deep + R"(,"method":"ping"})",
      R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"kb","arguments":{"action":)" + deep + "}}}",
      R"({"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":1e999}})",
      R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})",
      R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"kb","arguments":[]}})",
      R"({"jsonrpc":"2.0","id":99,"method":"ping"})"};
  process_result run;
  const std::vector<json> out = mcp_session(dir, lines, run);
  EXPECT_EQ(run.term_signal, 0) << run.describe_end() << "\n" << run.stderr_text.substr(0, 2000);
  EXPECT_EQ(run.exit_code, 0) << run.stderr_text.substr(0, 2000);
  // One answer per line but the notification: errors for the malformed, the ping's result last.
  ASSERT_EQ(out.size(), lines.size() - 1) << run.stdout_text.substr(0, 3000);
  for (const json& id : {json(1), json(2), json(3), json(4), json(5), json(8)}) {
    const json* answer = response_to(out, id);
    ASSERT_NE(answer, nullptr) << "no answer to id " << id;
    ASSERT_TRUE(answer->contains("error")) << *answer;
    EXPECT_TRUE((*answer)["error"]["code"].is_number_integer());
    EXPECT_FALSE((*answer)["error"]["message"].get<std::string>().empty());
  }
  std::size_t parse_errors = 0;
  for (const json& m : out) parse_errors += m.is_object() && m.contains("error") && m["id"].is_null() ? 1 : 0;
  EXPECT_EQ(parse_errors, 4u);  // the two nested too deep, 1e999, an id that is an object
  const json* ping = response_to(out, 99);
  ASSERT_NE(ping, nullptr);
  EXPECT_TRUE(ping->contains("result"));
}

TEST(HostileInput, TheMcpServerAnswersEveryQueuedRequestWhenItsInputCloses) {
  scratch_dir dir;
  std::vector<std::string> lines = {
      R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}})"};
  for (int id = 1; id <= 4; ++id) {
    lines.push_back(fmt::format(
        R"({{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"kb","arguments":{{"action":"list","backend":"cuda"}}}}}})",
        id));
  }
  process_result run;
  const std::vector<json> out = mcp_session(dir, lines, run);
  EXPECT_EQ(run.exit_code, 0) << run.describe_end() << "\n" << run.stderr_text;
  ASSERT_EQ(out.size(), 5u) << run.stdout_text.substr(0, 3000);
  for (int id = 1; id <= 4; ++id) {
    const json* answer = response_to(out, id);
    ASSERT_NE(answer, nullptr) << "no answer to tools/call " << id;
    EXPECT_EQ((*answer)["result"]["isError"], false) << *answer;
  }
}

}  // namespace
}  // namespace kopt::hostile
