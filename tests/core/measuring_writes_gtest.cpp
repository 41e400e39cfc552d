// What a measuring process of code under test may write, path by path: its own folders, its
// private temporary folder, its /proc/PID, the GPU's device nodes and the data sinks, ncu's two
// lock files when profiled; never the system's temporary folder, /dev/shm or the rest of /dev.
#include "core/measuring_writes.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <functional>

#include <gtest/gtest.h>

#include "core/files.h"
#include "support/kopt_process.h"
#include "support/sandboxed_child.h"

namespace kopt {
namespace {
namespace fs = std::filesystem;

using testing::in_child;
using testing::landlock_here;

bool written(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

bool contains(const std::vector<fs::path>& paths, const fs::path& path) {
  return std::find(paths.begin(), paths.end(), path) != paths.end();
}

TEST(MeasuringWrites, TheDeviceFilesAreTheDriversNodesAndTheSinksOnly) {
  // This machine's /dev checks the names; a /dev of folders and regular files named like the
  // driver's nodes (only root can make device nodes) checks the kinds.
  const std::vector<fs::path> here = device_files();
  for (const fs::path& file : here) {
    const std::string name = file.filename().string();
    EXPECT_TRUE(name.rfind("nvidia", 0) == 0 || name == "null" || name == "zero" || name == "full") << file;
    EXPECT_NE(file.parent_path(), fs::path("/dev/shm"));
  }
  if (fs::exists("/dev/null")) {
    EXPECT_TRUE(contains(here, "/dev/null"));
  }
  EXPECT_FALSE(contains(here, "/dev/shm"));
  EXPECT_FALSE(contains(here, "/dev"));

  testing::scratch_dir dev;
  fs::create_directories(dev.path() / "nvidia-caps");
  fs::create_directories(dev.path() / "shm");
  fs::create_directories(dev.path() / "nvidia-folder");
  write_file_atomic(dev.path() / "nvidia-regular-file", "");
  EXPECT_TRUE(device_files(dev.path()).empty()) << "folders and regular files are never device files";
}

TEST(MeasuringWrites, TheAllowanceIsExactPathsWithNoSharedTemporaryFolderNorDevShm) {
  const write_allowance allowed = measuring_allowance({"/runs/r1", "/dev/shm/kopt-evidence-x"}, "/runs/r1/tmp",
                                                      {"/tmp/nvidia/nsight_compute/lock"});
  const std::vector<fs::path> folders = {"/runs/r1", "/dev/shm/kopt-evidence-x", "/runs/r1/tmp",
                                         fs::path("/proc") / std::to_string(::getpid())};
  EXPECT_EQ(allowed.folders, folders);
  for (const char* closed : {"/tmp", "/dev", "/dev/shm", "/proc", "/var/tmp"}) {
    EXPECT_FALSE(contains(allowed.folders, closed)) << closed;
    EXPECT_FALSE(contains(allowed.files, closed)) << closed;
  }
  std::vector<fs::path> files = device_files();
  files.emplace_back("/tmp/nvidia/nsight_compute/lock");
  EXPECT_EQ(allowed.files, files);
}

TEST(MeasuringWrites, TheTemporaryFolderIsTheRunsOwnAndTheVariablesPointAtIt) {
  testing::scratch_dir run;
  EXPECT_EQ(private_temporary_folder(run.path() / "result.json"), run.path() / "tmp");
  const int saw = in_child([&] {
    ::setenv("TMPDIR", "/var/tmp", 1);
    const fs::path before = adopt_temporary_folder(run.path() / "tmp");
    if (before != fs::path("/var/tmp")) return 10;
    for (const char* name : {"TMPDIR", "TMP", "TEMP"}) {
      const char* value = std::getenv(name);
      if (value == nullptr || fs::path(value) != run.path() / "tmp") return 11;
    }
    if (fs::temp_directory_path() != run.path() / "tmp") return 12;
    struct stat st {};
    if (::stat((run.path() / "tmp").c_str(), &st) != 0 || (st.st_mode & 0777) != 0700) return 13;
    return 0;
  });
  EXPECT_EQ(saw, 0);
}

TEST(MeasuringWrites, NcusLockIsTheSharedOneThroughALinkInThePrivateFolder) {
  testing::scratch_dir shared;
  testing::scratch_dir run;
  const fs::path temporary = run.path() / "tmp";
  fs::create_directories(temporary);
  const std::vector<fs::path> files = profiler_lock_files(temporary, shared.path(), "GPU-134d9ef1-aa47");
  const fs::path lock_folder = shared.path() / "nvidia" / "nsight_compute";
  const std::vector<fs::path> expected = {lock_folder / "lock", lock_folder / "lock.134d9ef1-aa47"};
  ASSERT_EQ(files, expected);
  for (const fs::path& file : files) {
    EXPECT_TRUE(fs::is_regular_file(file)) << file;
    EXPECT_EQ(fs::status(file).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write |
                                                                    fs::perms::group_read | fs::perms::group_write |
                                                                    fs::perms::others_read | fs::perms::others_write);
  }
  EXPECT_EQ(fs::status(lock_folder).permissions() & fs::perms::all, fs::perms::all);
  EXPECT_TRUE(fs::is_symlink(temporary / "nvidia" / "nsight_compute"));
  EXPECT_EQ(fs::read_symlink(temporary / "nvidia" / "nsight_compute"), lock_folder);
  // Again (the next version's profile): the same files, the link made afresh.
  EXPECT_EQ(profiler_lock_files(temporary, shared.path(), "GPU-134d9ef1-aa47"), expected);
}

TEST(MeasuringWrites, WithoutOneGpuUuidNcuKeepsItsLockInThePrivateFolder) {
  testing::scratch_dir shared;
  testing::scratch_dir run;
  for (const char* visible : {"", "0", "MIG-1234", "GPU-a,GPU-b"}) {
    EXPECT_TRUE(profiler_lock_files(run.path(), shared.path(), visible).empty()) << visible;
  }
  EXPECT_FALSE(fs::exists(shared.path() / "nvidia"));
  EXPECT_FALSE(fs::exists(run.path() / "nvidia"));
}

// ncu's tracker folder, as the variable names it (line breaks written as "\n"), and what is not one.
std::vector<std::pair<std::string, std::string>> tracker_cases(const fs::path& tracker) {
  const std::string id = "tree-tracker-id: " + tracker.string();
  return {
      {"connection-name: " + tracker.string() + "/pipe-1\\nuid: 1\\n" + id + "\\nis-tracking-root-only: false",
       tracker.string()},
      {"uid: 1\n" + id + "\nis-tracking-root-only: false", tracker.string()},  // real line breaks
      {id, tracker.string()},
      {"", ""},
      {"uid: 1", ""},
      {"tree-tracker-id: relative/NVIDIA-treetracker-x", ""},
      {"tree-tracker-id: " + (tracker.parent_path() / "NVIDIA-treetracker-gone").string(), ""},
      {"tree-tracker-id: " + tracker.parent_path().string(), ""},  // not ncu's folder by name
  };
}

TEST(MeasuringWrites, NcusTrackerFolderIsReadFromItsVariable) {
  testing::scratch_dir scratch;
  const fs::path tracker = scratch.path() / "NVIDIA-treetracker-aB3dE9";
  fs::create_directories(tracker);
  for (const auto& [configuration, expected] : tracker_cases(tracker)) {
    const std::optional<fs::path> folder = profiler_tracker_folder(configuration);
    EXPECT_EQ(folder ? folder->string() : "", expected) << configuration;
  }
}

TEST(MeasuringWrites, ThePythonRunnerReadsNcusTrackerFolderAlike) {
  testing::scratch_dir scratch;
  const fs::path tracker = scratch.path() / "NVIDIA-treetracker-aB3dE9";
  fs::create_directories(tracker);
  const fs::path share = testing::kopt_binary().parent_path().parent_path() / "share" / "kopt";
  const std::string script =
      "import sys\nfrom kopt_runtime import write_sandbox\n"
      "print(write_sandbox.profiler_tracker_folder(sys.argv[1]) or '')\n";
  for (const auto& [configuration, expected] : tracker_cases(tracker)) {
    const process_result run = run_process({.argv = {"python3", "-c", script, configuration},
                                            .extra_env = {{"PYTHONPATH", share.string()}},
                                            .timeout = std::chrono::seconds(60)});
    ASSERT_TRUE(run.succeeded()) << run.stderr_text;
    EXPECT_EQ(testing::first_line(run.stdout_text), expected) << configuration;
  }
}

// The whole of it in a child, as `kopt harness` applies it: the run's folders and temporary
// folder are written; a folder standing for the system's temporary folder and /dev/shm are not;
// ncu's lock files are written in place, their folder is not; ncu's tracker folder is written.
TEST(MeasuringWrites, TheSandboxedProcessWritesOnlyWhereItsRunNeeds) {
  if (!landlock_here()) GTEST_SKIP() << "no Landlock on this machine: WriteSandbox.WithoutLandlock covers it";
  testing::scratch_dir shared;  // the system's temporary folder, as the process had it
  testing::scratch_dir run;
  testing::scratch_dir evidence;
  const fs::path result = run.path() / "result.json";
  const bool shm = fs::is_directory("/dev/shm");
  const fs::path tracker = shared.path() / "NVIDIA-treetracker-Zq81xa";
  fs::create_directories(tracker);
  const int saw = in_child([&] {
    ::setenv("TMPDIR", shared.path().c_str(), 1);
    ::setenv("NVIDIA-PROCESS-TRACKING-CONFIGURATION", ("uid: 1\\ntree-tracker-id: " + tracker.string()).c_str(), 1);
    ::setenv("CUDA_VISIBLE_DEVICES", "GPU-5e5", 1);
    const write_sandbox sandbox = sandbox_measuring_process({run.path(), evidence.path()}, result, true);
    if (!sandbox.applied) return 10;
    if (!written(result) || !written(evidence.path() / "out.bin") || !written(run.path() / "tmp" / "t")) return 12;
    if (!written(fs::temp_directory_path() / "via-tmpdir")) return 13;
    if (written(shared.path() / "planted") || errno != EACCES) return 14;
    if (shm && (written(fs::path("/dev/shm") / ("kopt-probe-" + std::to_string(::getpid()))) || errno != EACCES))
      return 15;
    if (!written(shared.path() / "nvidia" / "nsight_compute" / "lock.5e5")) return 16;
    if (!written(run.path() / "tmp" / "nvidia" / "nsight_compute" / "lock")) return 17;  // through the link
    if (written(shared.path() / "nvidia" / "nsight_compute" / "other") || errno != EACCES) return 18;
    if (::open("/dev/null", O_WRONLY | O_CLOEXEC) < 0) return 19;
    if (!written(tracker / "pipe-2")) return 20;  // ncu's tracker, named by its variable
    return 0;
  });
  EXPECT_EQ(saw, 0);
  EXPECT_FALSE(fs::exists(shared.path() / "planted"));
  EXPECT_FALSE(fs::exists(shared.path() / "nvidia" / "nsight_compute" / "other"));
  EXPECT_TRUE(fs::exists(run.path() / "tmp" / "via-tmpdir"));
}

}  // namespace
}  // namespace kopt
