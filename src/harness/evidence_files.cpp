#include "harness/evidence_files.h"

#include <fstream>
#include <functional>

#include <fmt/format.h>

#include "core/error.h"

namespace kopt::harness {
namespace fs = std::filesystem;
namespace {

bool is_output(const kernel::buffer_spec& b) { return b.role != kernel::buffer_role::in; }

fs::path output_file(const fs::path& dir, const evidence_key& key, const kernel::buffer_spec& b) {
  return dir / folder_name(key) / (b.param.name + ".out.bin");
}

// No output's file can have this name: theirs end in ".out.bin". kopt's Python runner leaves the
// same mark (python/kopt_runtime/reference_job.py).
fs::path complete_mark(const fs::path& dir, const evidence_key& key) { return dir / folder_name(key) / "complete"; }

// Calls `write(i, path)` for every non-input buffer with the path of its file for `key`, the
// key's folder made first, and marks the key complete once every file is written and closed.
void write_output_files(const fs::path& dir, const evidence_key& key, const kernel::kernel_plan& plan,
                        const std::function<void(std::size_t, const fs::path&)>& write) {
  fs::create_directories(dir / folder_name(key));
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    if (is_output(plan.buffers[i])) write(i, output_file(dir, key, plan.buffers[i]));
  }
  std::ofstream mark(complete_mark(dir, key));
  if (!mark) throw error(fmt::format("cannot write {} (is the disk full?)", complete_mark(dir, key).string()));
}

}  // namespace

std::string folder_name(const evidence_key& key) {
  return fmt::format("{}_{}", enum_name(key.kind), key.value);
}

void write_evidence(const fs::path& dir, const evidence_key& key, const kernel::kernel_plan& plan,
                    const buffer_contents& outputs) {
  write_output_files(dir, key, plan, [&](std::size_t i, const fs::path& path) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(outputs.at(i).data()), static_cast<std::streamsize>(outputs.at(i).size()));
    if (!out) throw error(fmt::format("cannot write {} (is the disk full?)", path.string()));
  });
}

void write_evidence(const fs::path& dir, const evidence_key& key, const kernel::kernel_plan& plan,
                    const device_buffers& buffers) {
  write_output_files(dir, key, plan, [&](std::size_t i, const fs::path& path) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    // Pieces of megabytes go from the staging buffer to the file, past the stream's own buffer.
    buffers.memory().download_in_pieces(buffers.data(i), static_cast<std::size_t>(plan.buffers[i].bytes),
                                        [&](std::span<const std::byte> piece) {
                                          out.write(reinterpret_cast<const char*>(piece.data()),
                                                    static_cast<std::streamsize>(piece.size()));
                                        },
                                        fmt::format("keeping {} for the verdict", plan.buffers[i].param.name));
    out.close();
    if (!out) throw error(fmt::format("cannot write {} (is the disk full?)", path.string()));
  });
}

bool evidence_complete(const fs::path& dir, const evidence_key& key) {
  std::error_code ec;
  return fs::symlink_status(complete_mark(dir, key), ec).type() == fs::file_type::regular;
}

fs::path announced_tolerances_file(const fs::path& dir) {
  return dir / "tolerances.json";
}

std::optional<announced_tolerances> read_announced_tolerances(const fs::path& dir) {
  const fs::path path = announced_tolerances_file(dir);
  std::error_code ec;
  // The runner writes it whole and renames it into place: a regular file is complete.
  if (fs::symlink_status(path, ec).type() != fs::file_type::regular) return std::nullopt;
  return read_document_file<tolerance_pair>(path, "kopt's Python runner wrote it: reinstall kopt");
}

mapped_evidence read_evidence(const fs::path& dir, const evidence_key& key, const kernel::kernel_plan& plan,
                              const char* side) {
  mapped_evidence evidence;
  evidence.buffers.resize(plan.buffers.size());
  // Files of the side's own, never links: a link would let a side's evidence be another's (the
  // kernel's outputs read from the reference's files). The writers have ended: nothing changes
  // between this look and the read.
  std::error_code ec;
  const fs::file_type folder = fs::symlink_status(dir / folder_name(key), ec).type();
  if (folder != fs::file_type::directory && folder != fs::file_type::not_found) {
    throw error(fmt::format("{} left {} as a link or a file, not a folder of its own", side, folder_name(key)));
  }
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    const auto& b = plan.buffers[i];
    if (!is_output(b)) continue;
    const fs::path path = output_file(dir, key, b);
    const fs::file_type type = fs::symlink_status(path, ec).type();
    if (type != fs::file_type::regular && type != fs::file_type::not_found) {
      throw error(fmt::format("{} left {} of {} as a link or special file, not a file of its own", side, b.param.name,
                              folder_name(key)));
    }
    const auto size = fs::file_size(path, ec);
    if (ec || static_cast<std::int64_t>(size) != b.bytes) {
      throw error(fmt::format("{} left {} of {} for {} ({} bytes expected)", side,
                              ec ? "no copy" : fmt::format("{} bytes", size), b.param.name, folder_name(key), b.bytes));
    }
    mapped_file& file = evidence.files.emplace_back(path);
    if (file.bytes().size() != size) throw error(fmt::format("{} changed while kopt read it", path.string()));
    evidence.buffers[i] = file.bytes();
  }
  return evidence;
}

}  // namespace kopt::harness
