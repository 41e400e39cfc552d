#include "pipeline/reference_timing_cache.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "core/utc_time.h"
#include "core/version.h"
#include "pipeline/problem_fingerprint.h"

namespace kopt::pipeline {
namespace fs = std::filesystem;
namespace {

// Changed when what a key covers changes, so that old entries are never read as new ones.
constexpr int key_version = 1;

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// `path` made absolute and free of "." / ".." and links where they exist, for comparing.
fs::path normalized(const fs::path& path) {
  std::error_code ec;
  fs::path result = fs::weakly_canonical(fs::absolute(path), ec);
  return ec ? fs::absolute(path).lexically_normal() : result;
}

bool is_within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty()) continue;  // the empty last part of "/tmp/"
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

}  // namespace

fs::path default_reference_timing_folder() { return cache_root() / "reference_timing"; }

json reference_timing_key_fields(const harness::bench_job& job, const kernel::kernel_plan& plan,
                                 const env::gpu_device& device, const std::string& driver_version,
                                 const std::string& files_digest) {
  // A Triton problem's folder is where this run's setup() tensors lie, new in every run; the
  // tensors themselves are in the problem by their digests.
  json triton_problem = job.triton_problem;
  if (triton_problem.is_object()) triton_problem.erase("dir");
  return json{
      {"key_version", key_version},
      {"kopt_version", version_string},
      {"reference_files", files_digest},
      {"python", job.python},
      {"problem", problem_sha256(plan)},
      {"triton_problem", triton_problem.is_null() ? json(nullptr) : json(sha256_hex(json_text(triton_problem, -1)))},
      {"seed", job.seed},
      {"protocol", to_document(job.sampling)},
      {"tolerances", json{{"atol", json_or_null(job.atol)}, {"rtol", json_or_null(job.rtol)}}},
      {"gpu", json{{"name", device.name}, {"uuid", device.uuid}}},
      {"driver", driver_version},
  };
}

std::string reference_timing_key(const json& fields) { return sha256_hex(json_text(fields, -1)); }

namespace {

// The paths of a list "A, B, C".
std::vector<fs::path> listed_paths(std::string_view list) {
  std::vector<fs::path> paths;
  while (!list.empty()) {
    const std::size_t comma = list.find(", ");
    if (const std::string_view one = list.substr(0, comma); !one.empty()) paths.emplace_back(std::string(one));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 2);
  }
  return paths;
}

}  // namespace

bool out_of_kernel_reach(const std::optional<std::string>& sandbox, const fs::path& folder) {
  if (!sandbox) return false;
  const std::string_view text = *sandbox;
  const std::string_view under = "writes only under ";
  const std::string_view in_place = "; in place to ";
  const std::size_t at = text.find(under);
  if (at == std::string_view::npos) return false;  // not restricted: it could write anywhere kopt can
  const fs::path cache = normalized(folder);
  std::string_view folders = text.substr(at + under.size());
  std::string_view files;
  if (const std::size_t split = folders.find(in_place); split != std::string_view::npos) {
    files = folders.substr(split + in_place.size());
    folders = folders.substr(0, split);
  }
  for (const fs::path& allowed : listed_paths(folders)) {
    if (is_within(cache, normalized(allowed))) return false;
  }
  for (const fs::path& file : listed_paths(files)) {
    if (is_within(normalized(file), cache)) return false;  // a file of the cache written in place
  }
  return true;
}

reference_timing_cache::reference_timing_cache(fs::path folder, std::chrono::seconds max_age)
    : m_folder(std::move(folder)), m_max_age(max_age) {}

std::optional<cached_reference_timing> reference_timing_cache::find(const std::string& key) const {
  const fs::path path = m_folder / (key + ".json");
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  reference_timing_entry entry;
  try {
    entry = from_document<reference_timing_entry>(read_json_file(path));
  } catch (const error&) {
    return std::nullopt;
  }
  if (entry.key != key) return std::nullopt;
  // Stale, or from a clock that jumped (compared so that no stored time can overflow).
  const std::int64_t now = unix_now();
  if (entry.measured_at_unix > now + 60 || entry.measured_at_unix < now - m_max_age.count()) return std::nullopt;
  return cached_reference_timing{std::move(entry.timing), std::move(entry.torch), std::move(entry.measured_at), key};
}

std::string reference_timing_cache::store(const std::string& key, const json& fields,
                                          const measure::timing_document& timing,
                                          const std::optional<harness::torch_facts>& torch) const {
  try {
    std::error_code ec;
    fs::create_directories(m_folder, ec);
    if (ec) return fmt::format("cannot make {}: {}", m_folder.string(), ec.message());
    write_json_file(m_folder / (key + ".json"),
                    to_document(reference_timing_entry{key, utc_timestamp(), unix_now(), fields, torch, timing}));
  } catch (const error& e) {
    return e.headline();
  }
  return "";
}

}  // namespace kopt::pipeline
