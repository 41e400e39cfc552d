#include "cli/commands.h"
#include "core/error.h"

namespace kopt::cli {
namespace {
class compile_command final : public command {
 public:
  void configure(CLI::App& sub) override { sub.allow_extras(); }
  int run() override { throw error("compile: under construction"); }
};
}  // namespace
std::unique_ptr<command> make_compile_command() { return std::make_unique<compile_command>(); }
}  // namespace kopt::cli
