#include "cli/commands.h"
#include "core/error.h"

namespace kopt::cli {
namespace {
class inspect_command final : public command {
 public:
  void configure(CLI::App& sub) override { sub.allow_extras(); }
  int run() override { throw error("inspect: under construction"); }
};
}  // namespace
std::unique_ptr<command> make_inspect_command() { return std::make_unique<inspect_command>(); }
}  // namespace kopt::cli
