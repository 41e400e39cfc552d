// Every numeric option of every command carries kopt's range check (cli/option_checks.h), so
// that a value out of range is refused the same way whichever option it is given to; and the
// check reads a value as CLI11 then converts it.
#include <gtest/gtest.h>

#include "cli/command.h"
#include "cli/option_checks.h"

namespace kopt::cli {
namespace {

bool is_numeric(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  return type.find("INT") != std::string::npos || type.find("UINT") != std::string::npos ||
         type.find("FLOAT") != std::string::npos;
}

bool has_range_check(CLI::Option& option) {
  try {
    return option.get_validator(range_check_name) != nullptr;
  } catch (const CLI::OptionNotFound&) {
    return false;
  }
}

void collect(CLI::App& app, const std::string& name, std::vector<std::string>& numeric, std::vector<std::string>& unchecked) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_type_size() == 0 || !is_numeric(*option)) continue;  // flags
    numeric.push_back(name + " " + option->get_name());
    if (!has_range_check(*option)) unchecked.push_back(name + " " + option->get_name());
  }
  for (CLI::App* sub : app.get_subcommands({})) collect(*sub, name + " " + sub->get_name(), numeric, unchecked);
}

TEST(OptionLimits, EveryNumericOptionOfEveryCommandHasARangeCheck) {
  CLI::App app;
  std::vector<std::unique_ptr<command>> commands;
  std::vector<std::string> numeric;
  std::vector<std::string> unchecked;
  for (const auto& entry : command_table()) {
    CLI::App* sub = app.add_subcommand(entry.name, entry.summary);
    commands.push_back(entry.make());
    commands.back()->configure(*sub);
    collect(*sub, "kopt " + entry.name, numeric, unchecked);
  }
  // bench, compare, profile, loop, compile, inspect and worker have numeric options.
  EXPECT_GE(numeric.size(), 30u);
  EXPECT_TRUE(unchecked.empty()) << ::testing::PrintToString(unchecked);
}

std::string refusal(const CLI::Validator& check, std::string text) { return check(text); }

TEST(OptionLimits, AWholeNumberIsReadAsCli11ReadsItAndNeverSaturated) {
  const CLI::Validator iterations = within<std::int64_t>(0, 10000, "iterations");
  EXPECT_EQ(refusal(iterations, "10000"), "");
  EXPECT_EQ(refusal(iterations, "0x10"), "");  // 16, as CLI11 reads it
  EXPECT_EQ(refusal(iterations, "99999999999999999999"),
            "99999999999999999999 is too large: give at most 10000 (iterations)");
  EXPECT_EQ(refusal(iterations, "10001"), "10001 is too large: give at most 10000 (iterations)");
  EXPECT_EQ(refusal(iterations, "-1"), "-1 is too few: give 0 or more (iterations)");
  EXPECT_EQ(refusal(iterations, "2.5"), "2.5 is not a whole number: give a whole number from 0 to 10000 (iterations)");
  EXPECT_EQ(refusal(iterations, "1e999"),
            "1e999 is not a finite number: give a whole number from 0 to 10000 (iterations)");
  EXPECT_EQ(refusal(iterations, "abc"), "");  // CLI11's own "not a valid value"

  const CLI::Validator calls = at_least(0, "calls");  // an int
  EXPECT_EQ(refusal(calls, "99999999999"), "99999999999 is too large: give at most 2147483647 (calls)");
  const CLI::Validator seed = at_least<std::uint64_t>(0, "a seed");
  EXPECT_EQ(refusal(seed, "18446744073709551615"), "");
  EXPECT_EQ(refusal(seed, "-1"), "-1 is too few: give 0 or more (a seed)");
  EXPECT_EQ(refusal(seed, "18446744073709551616"), "18446744073709551616 is too large: give at most 1.84467e+19 (a seed)");
}

TEST(OptionLimits, ANumberMustBeFiniteAndWithinItsBounds) {
  const CLI::Validator seconds = seconds_limit<double>();
  EXPECT_EQ(refusal(seconds, "0.5"), "");
  EXPECT_EQ(refusal(seconds, "inf"), "inf is not a finite number: give a positive number up to 1000000 (seconds)");
  EXPECT_EQ(refusal(seconds, "nan"), "nan is not a finite number: give a positive number up to 1000000 (seconds)");
  EXPECT_EQ(refusal(seconds, "0"), "0 is not above 0: give a positive number (seconds)");
  EXPECT_EQ(refusal(seconds, "1e300"), "1e300 is too large: give at most 1000000 (seconds)");
  const CLI::Validator tolerance = at_least(0.0, "a tolerance");
  EXPECT_EQ(refusal(tolerance, "1e-300"), "");
  EXPECT_EQ(refusal(tolerance, "-1"), "-1 is too few: give 0 or more (a tolerance)");
  EXPECT_EQ(refusal(tolerance, "-inf"), "-inf is not a finite number: give 0 or more (a tolerance)");
}

}  // namespace
}  // namespace kopt::cli
