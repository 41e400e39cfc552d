#include "tune/tune_cache.h"

#include "core/document.h"
#include "core/error.h"
#include "core/files.h"
#include "core/hash.h"
#include "core/version.h"

namespace kopt::tune {
namespace fs = std::filesystem;

tune_cache::tune_cache(const tune_request& request, std::string_view kernel_source,
                       const env::gpu_probe_result& gpus)
    : m_folder(request.cache_folder) {
  const pipeline::bench_target& t = request.bench.target;
  const env::gpu_device* device = gpus.device(t.gpu);
  json dims = json::array();
  for (const kernel::dimension_arg& d : t.dims) dims.push_back(d.name + "=" + d.value);
  m_key_fields = json{{"kopt_version", version_string},
                      {"kernel", sha256_hex(kernel_source)},
                      {"reference", sha256_hex(read_text_file(t.ref, "reference"))},
                      {"dimensions", dims},
                      {"ptr_size", t.ptr_size ? json(*t.ptr_size) : json(nullptr)},
                      {"defines", t.defines},
                      {"arch", t.arch},
                      {"nvcc", t.nvcc_bin},
                      {"protocol", to_document(request.bench.job.sampling)},
                      {"seed", request.bench.job.seed},
                      {"atol", request.bench.atol ? json(*request.bench.atol) : json(nullptr)},
                      {"rtol", request.bench.rtol ? json(*request.bench.rtol) : json(nullptr)},
                      {"gpu", device != nullptr ? device->uuid : ""},
                      {"driver", gpus.driver_version}};
}

std::string tune_cache::key(const kernel::tune_configuration& c) const {
  json fields = m_key_fields;
  fields["configuration"] = c.text();
  return sha256_hex(json_text(fields, -1));
}

std::optional<measured_configuration> tune_cache::read(const kernel::tune_configuration& c) const {
  if (!m_folder) return std::nullopt;
  const fs::path file = *m_folder / (key(c) + ".json");
  if (!fs::exists(file)) return std::nullopt;
  try {
    measured_configuration m = from_document<measured_configuration>(read_json_file(file));
    m.cached = true;
    return m;
  } catch (const error&) {
    return std::nullopt;  // a damaged entry (a document_error too) is measured again and written anew
  }
}

bool tune_cache::holds(const kernel::tune_configuration& c) const {
  return m_folder && fs::exists(*m_folder / (key(c) + ".json"));
}

void tune_cache::keep(const kernel::tune_configuration& c, const measured_configuration& m) const {
  if (!m_folder) return;
  std::error_code ec;
  fs::create_directories(*m_folder, ec);
  write_json_file(*m_folder / (key(c) + ".json"), to_document(m));
}

}  // namespace kopt::tune
