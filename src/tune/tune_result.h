#pragma once
// What kopt tune found (tune_runs/tune_<timestamp>/tune_result.json, docs/tune.md): every
// configuration measured, with the judge's verdict and its time, and the winner, which a
// comparison in turns with the runner-up names.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe.hpp>

#include "core/json_io.h"

namespace kopt::tune {

struct measured_configuration {
  std::string configuration;         // "BLOCK=128 VEC=4"
  std::vector<std::string> defines;  // {"BLOCK=128", "VEC=4"}: -D's arguments
  std::string status;                // ok, failed, crashed, timed_out, or build_failed
  std::string reason;                // why it did not pass; "" when ok
  std::optional<double> median_ms;   // [ms] the kernel's median; ok only
  std::optional<std::array<double, 2>> median_ci95_ms;
  bool cached = false;  // read from the cache of an earlier tune, not measured now

  bool passed() const { return status == "ok" && median_ms.has_value(); }
};
BOOST_DESCRIBE_STRUCT(measured_configuration, (),
                      (configuration, defines, status, reason, median_ms, median_ci95_ms, cached))

// The fastest two by median, compared in turns: the runner-up replaces the fastest only when
// the comparison finds it faster.
struct winner_comparison {
  std::string runner_up;
  std::string
      outcome;  // of the runner-up against the fastest by median: positive, negative, neutral, inconclusive
  double ratio = 0;  // the runner-up's time / the fastest's
  std::array<double, 2> ratio_ci95{};
};
BOOST_DESCRIBE_STRUCT(winner_comparison, (), (runner_up, outcome, ratio, ratio_ci95))

struct tune_winner {
  std::string configuration;
  std::vector<std::string> defines;
  double median_ms = 0;
  std::string tuned_file;  // the kernel with the winning values written in
  std::string reason;      // how it was chosen
  std::optional<winner_comparison> comparison;
};
BOOST_DESCRIBE_STRUCT(tune_winner, (), (configuration, defines, median_ms, tuned_file, reason, comparison))

// An extra shape (--check-dims), tuned on its own: its dimensions, what it measured, its winner.
struct shape_result {
  std::string shape;                    // its dimension flags: "--rows=1000 --cols=1000"
  std::vector<std::string> dimensions;  // "rows=1000"
  std::uint64_t allowed = 0;            // left by the restrictions at these dimensions
  std::string stopped;
  std::vector<measured_configuration> measured;
  std::optional<tune_winner> winner;
};
BOOST_DESCRIBE_STRUCT(shape_result, (), (shape, dimensions, allowed, stopped, measured, winner))

struct tune_result {
  static constexpr std::string_view document_schema = "kopt.tune_result/v1";
  std::string kernel;
  std::string reference;
  std::string run_dir;                  // where this file and the tuned kernel are
  std::vector<std::string> dimensions;  // "N=1048576"
  std::string strategy;
  std::uint64_t seed = 0;
  std::optional<int> budget;
  std::optional<double> minutes;                 // the time limit given, if any
  std::string stopped;                           // why no more were measured (tune_stop_reason)
  std::uint64_t configurations = 0;              // the space, before restrictions
  std::uint64_t allowed = 0;                     // left by the restrictions at these dimensions
  std::vector<measured_configuration> measured;  // in the order measured
  std::optional<tune_winner> winner;             // none: no configuration passed
  std::vector<shape_result> shapes;              // --check-dims, in the order given
};
BOOST_DESCRIBE_STRUCT(tune_result, (),
                      (kernel, reference, run_dir, dimensions, strategy, seed, budget, minutes, stopped,
                       configurations, allowed, measured, winner, shapes))

json to_json(const tune_result& result);
tune_result read_tune_result(const json& document, std::string_view where);

// The table people read: configuration, verdict, median with its interval, then the winner; with
// extra shapes, each shape's table and which configuration wins where.
std::string tune_text(const tune_result& result);

}  // namespace kopt::tune
