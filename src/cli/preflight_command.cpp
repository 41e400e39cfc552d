#include "cli/commands.h"
#include "core/error.h"

namespace kopt::cli {
namespace {
class preflight_command final : public command {
 public:
  void configure(CLI::App& sub) override { sub.allow_extras(); }
  int run() override { throw error("preflight: under construction"); }
};
}  // namespace
std::unique_ptr<command> make_preflight_command() { return std::make_unique<preflight_command>(); }
}  // namespace kopt::cli
