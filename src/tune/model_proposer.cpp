#include "tune/model_proposer.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"
#include "core/install_layout.h"
#include "core/json_io.h"
#include "core/python.h"
#include "core/text.h"

namespace kopt::tune {
namespace {

// Importing Optuna takes a second or two; a proposal, tens of milliseconds.
constexpr std::chrono::seconds start_limit{120};
constexpr std::chrono::seconds proposal_limit{60};

json space_line(const std::string& strategy, const kernel::planned_tune_space& tune, std::uint64_t seed,
                std::optional<int> budget) {
  json parameters = json::array();
  for (const kernel::tune_parameter& p : tune.space.parameters()) {
    parameters.push_back({{"name", p.name}, {"values", p.values}});
  }
  json allowed = json::array();
  for (const kernel::tune_configuration& c : tune.allowed) {
    json values = json::array();
    for (const auto& [name, value] : c.values) values.push_back(value);
    allowed.push_back(values);
  }
  return {{"strategy", strategy},
          {"seed", seed},
          {"budget", budget ? json(*budget) : json(nullptr)},
          {"parameters", parameters},
          {"allowed", allowed}};
}

// Every configuration measured so far, as the strategy's process reads it.
json measured_document(const std::vector<measured_point>& so_far) {
  json measured = json::array();
  for (const measured_point& p : so_far) {
    measured.push_back({p.index, p.median_ms ? json(*p.median_ms) : json(nullptr)});
  }
  return measured;
}

// Why the process stopped talking, from what it printed.
std::string how_it_stopped(conversing_process& process) {
  const process_result end = process.finish(std::chrono::seconds(1));
  const std::string err(trim(end.stderr_text));
  return err.empty() ? "it ended without a word" : err.substr(err.size() > 2000 ? err.size() - 2000 : 0);
}

}  // namespace

model_proposer::model_proposer(const std::string& strategy, const kernel::planned_tune_space& tune,
                               std::uint64_t seed, std::optional<int> budget)
    : m_strategy(strategy), m_allowed(tune.allowed.size()) {
  process_request request;
  request.argv = {python_command(), companion_file(tune_strategy_file).string()};
  m_process = std::make_unique<conversing_process>(request);
  if (!m_process->started()) {
    throw error(
        fmt::format("--strategy {} runs Python and could not start it ({}): install python3 or set "
                    "KOPT_PYTHON",
                    m_strategy, m_process->start_error()));
  }
  const std::optional<std::string> answer =
      m_process->ask(json_text(space_line(strategy, tune, seed, budget), -1), 1, start_limit);
  const std::string said = answer ? std::string(trim(*answer)) : "";
  if (said == "ready") return;
  if (said.rfind("error: ", 0) == 0)
    throw error(fmt::format("--strategy {}: {}", m_strategy, said.substr(7)));
  throw error(fmt::format("--strategy {}: the strategy's Python process did not start: {}", m_strategy,
                          how_it_stopped(*m_process)));
}

model_proposer::~model_proposer() {
  if (m_process) m_process->finish(std::chrono::seconds(5));
}

json model_proposer::asked(const json& request, const std::string& key) {
  const std::optional<std::string> answer = m_process->ask(json_text(request, -1), 1, proposal_limit);
  if (!answer) {
    throw error(fmt::format("--strategy {}: the strategy's process stopped proposing: {}", m_strategy,
                            how_it_stopped(*m_process)));
  }
  json reply;
  try {
    reply = json::parse(*answer);
  } catch (const json::exception&) {
    reply = nullptr;
  }
  if (!reply.is_object() || !reply.contains(key)) {
    throw error(fmt::format("--strategy {}: the strategy answered '{}', not a reply with '{}': a bug in kopt",
                            m_strategy, std::string(trim(*answer)), key));
  }
  return reply.at(key);
}

std::size_t model_proposer::allowed_index(const json& proposal) const {
  if (!proposal.is_number_unsigned() || proposal.get<std::size_t>() >= m_allowed) {
    throw error(
        fmt::format("--strategy {} proposed {}, not one of the {} allowed configurations: a bug in kopt",
                    m_strategy, proposal.dump(), m_allowed));
  }
  return proposal.get<std::size_t>();
}

std::optional<std::size_t> model_proposer::next(const std::vector<measured_point>& so_far,
                                                const std::vector<std::size_t>& pending) {
  const json proposal = asked({{"measured", measured_document(so_far)}, {"pending", pending}}, "next");
  if (proposal.is_null()) return std::nullopt;
  return allowed_index(proposal);
}

std::vector<std::size_t> model_proposer::upcoming(const std::vector<measured_point>& so_far,
                                                  std::size_t count) {
  const json listed = asked({{"measured", measured_document(so_far)}, {"upcoming", count}}, "upcoming");
  if (!listed.is_array()) {
    throw error(fmt::format("--strategy {} listed {} as its next proposals, not a list: a bug in kopt",
                            m_strategy, listed.dump()));
  }
  std::vector<std::size_t> ahead;
  for (const json& proposal : listed) ahead.push_back(allowed_index(proposal));
  return ahead;
}

}  // namespace kopt::tune
