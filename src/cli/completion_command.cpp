// kopt completion bash|zsh: prints a completion script for the shell, generated from the
// command table and every command's options as this kopt declares them.

#include <cstdio>
#include <memory>
#include <vector>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/completion_script.h"
#include "core/error.h"

namespace kopt::cli {
namespace {

class completion_command final : public command {
 public:
  void configure(CLI::App& sub) override {
    sub.require_subcommand(1);
    m_bash = sub.add_subcommand("bash", "the script for bash: source <(kopt completion bash)");
    m_zsh = sub.add_subcommand("zsh", "the script for zsh: source <(kopt completion zsh)");
  }

  int run(const pipeline::services&) override {
    // The same tree main() parses with: kopt's app with every command configured on it.
    CLI::App app{"kopt", "kopt"};
    app.set_version_flag("--version");
    std::vector<std::unique_ptr<command>> commands;
    for (const auto& entry : command_table()) {
      commands.push_back(entry.make());
      commands.back()->configure(*add_table_command(app, entry));
    }
    const auto entries = completion_entries(app);
    const std::string script = m_bash->parsed() ? bash_completion_script(entries) : zsh_completion_script(entries);
    std::fputs(script.c_str(), stdout);
    return static_cast<int>(exit_status::ok);
  }

 private:
  CLI::App* m_bash = nullptr;
  CLI::App* m_zsh = nullptr;
};

}  // namespace

std::unique_ptr<command> make_completion_command() { return std::make_unique<completion_command>(); }

}  // namespace kopt::cli
