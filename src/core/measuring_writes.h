#pragma once
// Where a measuring process of code under test (a kernel's `kopt harness`, kopt's Python runner
// for a Triton module or its problem step) may write, by exact path, under bench, profile mode,
// ncu and compute-sanitizer alike (docs/integrity.md, "What the code under test may write"):
//   - its own folders: its result's (the parent's private folder for this run, removed after
//     it), the outputs it keeps for the verdict, Triton's cache for the run;
//   - its temporary folder, `tmp` in its result's folder, made at its start with TMPDIR, TMP and
//     TEMP pointed at it (compilers Triton starts, Python's tempfile, ncu's lock link);
//   - its own /proc/PID (a thread's name, its own settings);
//   - the device nodes the GPU's driver opens for writing (/dev/nvidiactl, /dev/nvidiaN,
//     /dev/nvidia-uvm, ...), and /dev/null, /dev/zero and /dev/full, each in place only;
//   - profiled: ncu's two lock files, in place only (profiler_lock_files);
//   - under ncu or compute-sanitizer: the folder of the tool's process tree tracker
//     (profiler_tracker_folder).
// Nothing else: not the system's temporary folder, not /dev/shm, not the rest of /dev or /proc.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/write_sandbox.h"

namespace kopt {

// The temporary folder of the measuring process whose result is `result_file`.
std::filesystem::path private_temporary_folder(const std::filesystem::path& result_file);

// Makes `folder` (mode 0700) and points TMPDIR, TMP and TEMP at it; returns the temporary folder
// the process had before (ncu's lock lives there, profiler_lock_files).
std::filesystem::path adopt_temporary_folder(const std::filesystem::path& folder);

// The device nodes under `dev` a GPU process may open for writing: the NVIDIA driver's
// (nvidia*, nvidia-caps/*) and null, zero, full; sorted. Folders and anything else are not.
std::vector<std::filesystem::path> device_files(const std::filesystem::path& dev = "/dev");

// ncu (2025.3, seen on an H200) makes its interprocess lock in the profiled process, as
// `$TMPDIR/nvidia/nsight_compute/lock` and `lock.<GPU UUID without "GPU-">`, opened for writing,
// in a folder every ncu on the machine shares. Made here in `shared_temporary`, before the
// sandbox, with `nvidia/nsight_compute` in the private folder a link to that folder: the profiled
// process then takes the same lock as every other ncu, writing only those two files. Returns them;
// none when the GPU is not named by a "GPU-" UUID in `cuda_visible_devices` or the shared folder
// cannot be used (another user's): ncu then makes its lock in the private folder, shared with
// no other ncu.
std::vector<std::filesystem::path> profiler_lock_files(const std::filesystem::path& private_temporary,
                                                       const std::filesystem::path& shared_temporary,
                                                       const std::string& cuda_visible_devices);

// ncu (2025.3) and compute-sanitizer (CUDA 13) follow the processes the one they run starts (a
// Triton kernel's runner starts ldconfig, ptxas and the C compiler) through a folder of their
// own that they name in the variable
// NVIDIA-PROCESS-TRACKING-CONFIGURATION ("tree-tracker-id: /tmp/NVIDIA-treetracker-XXXXXX"); each
// such process registers there as it starts, and dies by SIGSEGV when it cannot. Returns that
// folder when `configuration` names one that exists (an absolute path whose name starts
// "NVIDIA-treetracker-"); none otherwise.
std::optional<std::filesystem::path> profiler_tracker_folder(const std::string& configuration);

// What a measuring process may write (the list above): `own_folders`, its temporary folder, its
// /proc/PID, device_files() and `extra_files`.
write_allowance measuring_allowance(const std::vector<std::filesystem::path>& own_folders,
                                    const std::filesystem::path& private_temporary,
                                    const std::vector<std::filesystem::path>& extra_files = {});

// All of it, in order: makes `own_folders` and the temporary folder of `result_file`, adopts the
// latter, makes ncu's lock files when `profiled`, allows the tracker's folder of the NVIDIA tool
// that started this process, if any, restricts this process's writes, and gives up its rights
// to read other processes' memory (inspection_rights.h; profiled, the counters' rights are kept
// where the driver lets only administrators read them).
write_sandbox sandbox_measuring_process(const std::vector<std::filesystem::path>& own_folders,
                                        const std::filesystem::path& result_file, bool profiled);

}  // namespace kopt
