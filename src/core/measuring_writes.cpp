#include "core/measuring_writes.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "core/inspection_rights.h"

namespace kopt {
namespace fs = std::filesystem;
namespace {

bool is_device(const fs::directory_entry& entry) {
  std::error_code ec;
  return entry.is_character_file(ec) || entry.is_block_file(ec);
}

// A file of the shared lock folder, made as ncu makes it: writable by every user.
bool make_shared_file(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) return false;
  struct stat st {};
  const bool ours = ::fstat(fd, &st) == 0 && st.st_uid == ::geteuid();
  if (ours) ::fchmod(fd, 0666);
  ::close(fd);
  return S_ISREG(st.st_mode);
}

}  // namespace

fs::path private_temporary_folder(const fs::path& result_file) {
  return fs::absolute(result_file).parent_path() / "tmp";
}

fs::path adopt_temporary_folder(const fs::path& folder) {
  std::error_code ec;
  fs::path before = fs::temp_directory_path(ec);
  if (ec) before = "/tmp";
  fs::create_directories(folder);
  fs::permissions(folder, fs::perms::owner_all, ec);
  for (const char* name : {"TMPDIR", "TMP", "TEMP"}) ::setenv(name, folder.c_str(), 1);
  return before;
}

std::vector<fs::path> device_files(const fs::path& dev) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(dev, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("nvidia", 0) == 0 && is_device(entry)) files.push_back(entry.path());
  }
  // MIG's capabilities (opened read-only today, kept in case a driver opens them otherwise).
  for (const fs::directory_entry& entry : fs::directory_iterator(dev / "nvidia-caps", ec)) {
    if (is_device(entry)) files.push_back(entry.path());
  }
  for (const char* sink : {"null", "zero", "full"}) {
    const fs::directory_entry entry(dev / sink, ec);
    if (!ec && is_device(entry)) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<fs::path> profiler_lock_files(const fs::path& private_temporary, const fs::path& shared_temporary,
                                          const std::string& cuda_visible_devices) {
  const std::string prefix = "GPU-";
  if (cuda_visible_devices.rfind(prefix, 0) != 0 || cuda_visible_devices.find(',') != std::string::npos) return {};
  const fs::path shared = shared_temporary / "nvidia" / "nsight_compute";
  std::error_code ec;
  if (!fs::is_directory(shared, ec)) {
    fs::create_directories(shared, ec);
    if (ec) return {};
    fs::permissions(shared, fs::perms::all, ec);  // as ncu makes it: every user's ncu locks there
  }
  const std::vector<fs::path> files = {shared / "lock",
                                       shared / ("lock." + cuda_visible_devices.substr(prefix.size()))};
  for (const fs::path& file : files) {
    if (!make_shared_file(file)) return {};
  }
  const fs::path link = private_temporary / "nvidia" / "nsight_compute";
  fs::create_directories(link.parent_path(), ec);
  fs::remove(link, ec);
  fs::create_directory_symlink(shared, link, ec);
  if (ec) return {};
  return files;
}

std::optional<fs::path> profiler_tracker_folder(const std::string& configuration) {
  // One "key: value" per line; ncu writes the line breaks as the two characters "\n".
  const std::string key = "tree-tracker-id: ";
  const std::size_t at = configuration.find(key);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t start = at + key.size();
  std::size_t end = configuration.find_first_of("\n\\", start);
  if (end == std::string::npos) end = configuration.size();
  const fs::path folder = configuration.substr(start, end - start);
  std::error_code ec;
  if (!folder.is_absolute() || folder.filename().string().rfind("NVIDIA-treetracker-", 0) != 0 ||
      !fs::is_directory(fs::symlink_status(folder, ec))) {
    return std::nullopt;
  }
  return folder;
}

write_allowance measuring_allowance(const std::vector<fs::path>& own_folders, const fs::path& private_temporary,
                                    const std::vector<fs::path>& extra_files) {
  write_allowance allowed;
  allowed.folders = own_folders;
  allowed.folders.push_back(private_temporary);
  allowed.folders.push_back(fs::path("/proc") / std::to_string(::getpid()));
  allowed.files = device_files();
  allowed.files.insert(allowed.files.end(), extra_files.begin(), extra_files.end());
  return allowed;
}

write_sandbox sandbox_measuring_process(const std::vector<fs::path>& own_folders, const fs::path& result_file,
                                        bool profiled) {
  std::vector<fs::path> folders;
  for (const fs::path& folder : own_folders) {
    fs::create_directories(folder);  // a folder that is not there cannot be allowed
    folders.push_back(fs::absolute(folder));
  }
  const fs::path temporary = private_temporary_folder(result_file);
  const fs::path shared_temporary = adopt_temporary_folder(temporary);
  std::vector<fs::path> lock_files;
  if (profiled) {
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    lock_files = profiler_lock_files(temporary, shared_temporary, visible ? visible : "");
  }
  // Set only where ncu or compute-sanitizer started this process's tree.
  const char* tracking = std::getenv("NVIDIA-PROCESS-TRACKING-CONFIGURATION");
  if (const auto tracker = profiler_tracker_folder(tracking ? tracking : "")) folders.push_back(*tracker);
  write_sandbox sandbox = restrict_writes_to(measuring_allowance(folders, temporary, lock_files));
  // After the sandbox (its no-new-privileges bit keeps a started program from regaining them).
  const rights_kept kept =
      profiled && profiling_restricted_to_admins() ? rights_kept::profiling_for_admins : rights_kept::none_for_inspection;
  sandbox.description += give_up_inspection_rights(kept);
  return sandbox;
}

}  // namespace kopt
