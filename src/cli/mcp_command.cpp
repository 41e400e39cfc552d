// kopt mcp [--workspace DIR]: kopt's tools for a coding agent over the Model Context Protocol
// (mcp/server.h). Standard output is the protocol's channel and nothing else may write to it:
// the server keeps a private copy of it and points descriptor 1 at standard error, so that a
// stray print (kopt's, a library's, a child's that inherited it) lands in the log instead.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/error.h"
#include "mcp/rpc_channel.h"
#include "mcp/server.h"
#include "mcp/workspace.h"
#include "pipeline/measuring_worker.h"

namespace kopt::cli {
namespace {

class mcp_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    sub.add_option("--workspace", m_workspace,
                   "the only folder the tools read and write (default: the folder kopt is started in)");
  }

  int run(const pipeline::services& services) override {
    const mcp::workspace root(m_workspace.empty() ? std::filesystem::current_path() : std::filesystem::path(m_workspace));
    std::fflush(stdout);
    const int protocol = ::dup(STDOUT_FILENO);
    if (protocol < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) throw error("cannot set up the protocol's channel");
    std::fprintf(stderr, "kopt mcp: serving %s (protocol %s, stdio)\n", root.root().c_str(),
                 mcp::latest_protocol_revision);
    // A client gone before its answers is a failed write to it, not the end of kopt (children
    // get the default back: core/subprocess.cpp).
    std::signal(SIGPIPE, SIG_IGN);
    mcp::rpc_channel channel(STDIN_FILENO, protocol);
    pipeline::keep_processes_warm();  // one server, many benches: each reference's Python ready
    mcp::serve(channel, root, services);
    ::close(protocol);
    return static_cast<int>(exit_status::ok);
  }

 private:
  std::string m_workspace;
};

}  // namespace

std::unique_ptr<command> make_mcp_command() { return std::make_unique<mcp_command>(); }

}  // namespace kopt::cli
