// The MCP server's pure parts: the handshake's revision, tool arguments checked against their
// schemas, paths confined to the workspace, errors as results or as protocol errors.
#include <gtest/gtest.h>

#include "core/error.h"
#include "mcp/rpc_channel.h"
#include "mcp/rpc_messages.h"
#include "mcp/server.h"
#include "mcp/tool.h"
#include "mcp/workspace.h"
#include "scripted_run.h"
#include "support/kopt_process.h"

namespace kopt::mcp {
namespace {
namespace fs = std::filesystem;

json request(int id, const std::string& method, json params = json::object()) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

TEST(McpServer, TheHandshakeAnswersWithTheClientsRevisionWhenKoptSpeaksIt) {
  const testing::scratch_dir dir;
  const workspace root(dir.path());
  const json old = answer(request(1, "initialize", {{"protocolVersion", "2025-06-18"}}), root);
  EXPECT_EQ(old["result"]["protocolVersion"], "2025-06-18");
  EXPECT_EQ(old["result"]["serverInfo"]["name"], "kopt");
  EXPECT_TRUE(old["result"]["capabilities"].contains("tools"));
  const json unknown = answer(request(2, "initialize", {{"protocolVersion", "2099-01-01"}}), root);
  EXPECT_EQ(unknown["result"]["protocolVersion"], latest_protocol_revision);
  EXPECT_EQ(answer(request(3, "ping"), root)["result"], json::object());
  EXPECT_EQ(answer(request(4, "resources/list"), root)["error"]["code"], method_not_found);
  EXPECT_TRUE(answer(json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, root).is_null());
}

TEST(McpServer, ArgumentsAreCheckedAgainstTheToolsSchema) {
  const json& schema = tool_table().front().input_schema;  // inspect
  EXPECT_EQ(argument_problem(schema, json{{"kernel", "k.cu"}, {"dims", {{"N", 4}}}}), "");
  EXPECT_EQ(argument_problem(schema, json::object()), "'kernel' is required");
  EXPECT_EQ(argument_problem(schema, json{{"kernel", 3}}), "'kernel' must be string");
  EXPECT_EQ(argument_problem(schema, json{{"kernel", "k.cu"}, {"dims", {{"N", json::array()}}}}),
            "'dims'.N must be integer or number or string");
  EXPECT_EQ(argument_problem(schema, json{{"kernel", "k.cu"}, {"backend", "hip"}}),
            "'backend' must be one of [\"auto\",\"cuda\",\"cutlass\",\"triton\"]");
  EXPECT_EQ(argument_problem(schema, json{{"kernel", "k.cu"}, {"defines", {"A=1", 2}}}), "'defines'[1] must be string");
  EXPECT_EQ(argument_problem(schema, json::array()), "the arguments must be an object");
}

// A bound the schema shows the client is the bound the server keeps.
TEST(McpServer, NumbersOutsideTheSchemasBoundsAreRefused) {
  const json schema = json{{"type", "object"},
                           {"properties",
                            {{"budget", {{"type", "integer"}, {"minimum", 1}}},
                             {"minutes", {{"type", "number"}, {"exclusiveMinimum", 0}}},
                             {"share", {{"type", "number"}, {"maximum", 1}}}}}};
  EXPECT_EQ(argument_problem(schema, json{{"budget", 1}, {"minutes", 0.5}, {"share", 1}}), "");
  EXPECT_EQ(argument_problem(schema, json{{"budget", 0}}), "'budget' must be at least 1");
  EXPECT_EQ(argument_problem(schema, json{{"minutes", 0}}), "'minutes' must be more than 0");
  EXPECT_EQ(argument_problem(schema, json{{"share", 1.5}}), "'share' must be at most 1");
}

TEST(McpServer, EveryToolHasADescriptionAndAnObjectSchemaThatNamesWhatItRequires) {
  ASSERT_EQ(tool_table().size(), 12u);
  for (const tool& t : tool_table()) {
    EXPECT_GE(t.description.size(), 40u) << t.name;
    EXPECT_EQ(t.input_schema["type"], "object") << t.name;
    EXPECT_EQ(t.input_schema["additionalProperties"], false) << t.name;
    for (const auto& required : t.input_schema["required"]) {
      EXPECT_TRUE(t.input_schema["properties"].contains(required.get<std::string>())) << t.name << " " << required;
    }
  }
}

TEST(McpServer, TheReportToolTellsARunsStoryAndWritesThePageIntoTheRunFolder) {
  const testing::scratch_dir dir;
  // The report's scripted run (tests/report/scripted_run.h) copied into the workspace.
  const fs::path fixture = report::testing::fixture_run_dir();
  fs::create_directories(dir.path() / "runs");
  fs::copy(fixture, dir.path() / "runs" / fixture.filename(), fs::copy_options::recursive);
  const workspace root(dir.path());
  const std::string run_dir = "runs/" + fixture.filename().string();
  const json answered = answer(request(7, "tools/call", {{"name", "report"}, {"arguments", {{"run_dir", run_dir}}}}), root);
  ASSERT_FALSE(answered["result"].value("isError", false)) << answered.dump();
  const json& facts = answered["result"]["structuredContent"];
  ASSERT_EQ(facts["iterations"].size(), 4u);
  EXPECT_EQ(facts["iterations"][2]["outcome"], "rejected");
  EXPECT_EQ(facts["best"]["iteration"], 1);
  EXPECT_FALSE(facts.contains("report")) << "the whole document only when asked";
  EXPECT_TRUE(fs::is_regular_file(dir.path() / run_dir / "report.html"));
  const std::string text = answered["result"]["content"][0]["text"].get<std::string>();
  EXPECT_NE(text.find("v3 negative"), std::string::npos) << text;
  EXPECT_NE(text.find("best: v1"), std::string::npos) << text;

  const json full = answer(request(8, "tools/call", {{"name", "report"}, {"arguments", {{"run_dir", run_dir}, {"detail", "full"}}}}), root);
  EXPECT_EQ(full["result"]["structuredContent"]["report"]["schema"], "kopt.report/v1");
  const json outside = answer(request(9, "tools/call", {{"name", "report"}, {"arguments", {{"run_dir", fixture.string()}}}}), root);
  EXPECT_EQ(outside["result"]["isError"], true) << "the fixture itself is outside the workspace";
}

TEST(McpServer, PathsAreConfinedToTheWorkspace) {
  const testing::scratch_dir dir;
  dir.write("inside/k.cu", "x");
  const workspace root(dir.path());
  EXPECT_EQ(root.resolve("inside/k.cu"), fs::canonical(dir.path()) / "inside/k.cu");
  EXPECT_EQ(root.resolve("inside/../inside/new.cu"), fs::canonical(dir.path()) / "inside/new.cu");
  EXPECT_THROW(root.resolve("../outside.cu"), error);
  EXPECT_THROW(root.resolve("/etc/passwd"), error);
  fs::create_directory_symlink("/etc", dir.path() / "link");
  EXPECT_THROW(root.resolve("link/passwd"), error) << "a link out of the workspace is followed, and refused";
  try {
    root.resolve("/etc/passwd");
  } catch (const error& e) {
    EXPECT_EQ(e.headline().rfind("/etc/passwd is outside the workspace ", 0), 0u) << e.headline();
  }
}

TEST(McpServer, AToolsFailureIsAResultAndAnUnknownToolAProtocolError) {
  const testing::scratch_dir dir;
  const workspace root(dir.path());
  const json missing = answer(request(5, "tools/call", {{"name", "inspect"}, {"arguments", {{"kernel", "nope.cu"}}}}), root);
  EXPECT_EQ(missing["result"]["isError"], true);
  EXPECT_NE(missing["result"]["content"][0]["text"].get<std::string>().find("not found"), std::string::npos)
      << missing.dump();
  const json unknown = answer(request(6, "tools/call", {{"name", "benchmark"}, {"arguments", json::object()}}), root);
  EXPECT_EQ(unknown["error"]["code"], invalid_params);
  EXPECT_EQ(unknown["error"]["message"], "unknown tool 'benchmark'");
}

// What the reader of the channel makes of a line: the reply it sends at once ("" when none).
json reply_to_line(const std::string& line) { return read_rpc_line(line).reply; }

TEST(McpServer, MalformedMessagesGetJsonRpcErrorsNamingTheField) {
  const testing::scratch_dir dir;
  const workspace root(dir.path());
  const json method_number = answer(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", 5}}, root);
  EXPECT_EQ(method_number["id"], 1);
  EXPECT_EQ(method_number["error"]["code"], invalid_request);
  EXPECT_EQ(method_number["error"]["message"], "field method: must be a string, found number 5");
  const json array_params = answer(json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "initialize"}, {"params", json::array()}}, root);
  EXPECT_EQ(array_params["error"]["code"], invalid_params);
  const json version_number = answer(request(3, "initialize", {{"protocolVersion", 5}}), root);
  EXPECT_EQ(version_number["error"]["code"], invalid_params);
  EXPECT_EQ(version_number["error"]["message"], "initialize: field protocolVersion: must be a string, found number 5");
  const json name_number = answer(request(4, "tools/call", {{"name", 5}}), root);
  EXPECT_EQ(name_number["error"]["message"], "tools/call: field name: must be a string, found number 5");
  const json object_id = answer(json{{"jsonrpc", "2.0"}, {"id", {{"a", 1}}}, {"method", "ping"}}, root);
  EXPECT_TRUE(object_id["id"].is_null());
  EXPECT_EQ(object_id["error"]["code"], invalid_request);
  // A notification gets no answer, even a malformed one; a client's response neither.
  EXPECT_TRUE(answer(json{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", json::array()}}, root).is_null());
  EXPECT_TRUE(answer(json{{"jsonrpc", "2.0"}, {"id", 5}, {"result", json::object()}}, root).is_null());
  // A tool's own failure is still a result.
  EXPECT_EQ(answer(request(6, "tools/call", {{"name", "kb"}, {"arguments", {{"action", "show"}, {"id", "none"}}}}), root)
                ["result"]["isError"],
            true);
}

TEST(McpServer, ALineTooDeepOrWithANumberBeyondADoubleIsAParseError) {
  for (const std::string& line : {std::string(R"({"jsonrpc":"2.0","id":)") + std::string(100000, '[') +
                                      std::string(100000, ']') + R"(,"method":"ping"})",
                                  std::string(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":1e999}})"),
                                  std::string("{\"jsonrpc\":"), std::string("[1, 2]")}) {
    const json reply = reply_to_line(line);
    ASSERT_TRUE(reply.is_object()) << line.substr(0, 80);
    EXPECT_TRUE(reply["id"].is_null());
    EXPECT_TRUE(reply["error"]["code"] == parse_error || reply["error"]["code"] == invalid_request) << reply;
  }
  EXPECT_FALSE(read_rpc_line(R"({"jsonrpc":"2.0","id":"a","method":"ping"})").message->id.is_null());
}

}  // namespace
}  // namespace kopt::mcp
