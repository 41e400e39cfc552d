#include "loop/candidate_handover.h"

#include <charconv>
#include <map>

#include <fmt/format.h>

namespace kopt::loop {
namespace {

namespace fs = std::filesystem;

// J of "cand_J" (1 <= J), or 0 when `stem` is not such a name.
int candidate_number(const std::string& stem) {
  constexpr std::string_view prefix = "cand_";
  if (stem.rfind(prefix, 0) != 0 || stem.size() == prefix.size()) return 0;
  const std::string_view digits = std::string_view(stem).substr(prefix.size());
  if (digits.front() == '0') return 0;
  int j = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), j);
  return ec == std::errc() && end == digits.data() + digits.size() ? j : 0;
}

}  // namespace

void prepare_handover(const fs::path& dir) {
  fs::remove_all(dir);
  fs::create_directories(dir);
}

candidate_handover read_handover(const fs::path& dir, const fs::path& kernel, int max_candidates) {
  const std::string ext = kernel.extension().string();
  const std::string expected =
      fmt::format("cand_1{0} and cand_1.md ... cand_{1}{0} and cand_{1}.md", ext, max_candidates);
  candidate_handover out;
  std::map<int, handed_candidate> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const fs::path& file = entry.path();
    const std::string name = file.filename().string();
    if (name.front() == '.') continue;  // an editor's or a tool's
    const int j = candidate_number(file.stem().string());
    const bool is_kernel = file.extension() == ext && ext != ".md";
    if (j == 0 || j > max_candidates || !entry.is_regular_file() ||
        (!is_kernel && file.extension() != ".md")) {
      out.problem =
          fmt::format("the agent left {} in {}: only the candidates belong there ({}, --candidates {})", name,
                      dir.string(), expected, max_candidates);
      return out;
    }
    handed_candidate& c = found[j];
    c.candidate = j;
    (is_kernel ? c.kernel : c.proposal) = file;
  }
  if (ec) {
    out.problem = fmt::format("cannot read the candidates folder {}: {}", dir.string(), ec.message());
    return out;
  }
  if (found.empty()) {
    out.problem = fmt::format("the agent wrote no candidate into {} (KOPT_CANDIDATES_DIR): write {}",
                              dir.string(), expected);
    return out;
  }
  for (const auto& [j, c] : found) {
    if (c.kernel.empty() || c.proposal.empty()) {
      out.problem =
          fmt::format("candidate {} in {} has {} but not {}: each candidate is a kernel and its proposal", j,
                      dir.string(), (c.kernel.empty() ? c.proposal : c.kernel).filename().string(),
                      fmt::format("cand_{}{}", j, c.kernel.empty() ? ext : ".md"));
      return out;
    }
    out.candidates.push_back(c);
  }
  return out;
}

}  // namespace kopt::loop
