"""Where this process may write, enforced by Linux's Landlock: the Python twin of kopt's
core/write_sandbox.h and core/measuring_writes.h, applied by the runner's processes that run code
under test (a Triton kernel's measuring process and its problem's) before torch, Triton or the
module is imported, so before any thread starts: everything after inherits it and nothing can
lift it. The code under test then cannot rewrite the reference, kopt's cache and runner, the
user's packages, the system's temporary folder or /dev/shm. It writes, by exact path, only its
run's folders, its private temporary folder (`tmp` beside its result, TMPDIR, TMP and TEMP
pointed at it), its /proc/PID, the GPU's device nodes and /dev/null, /dev/zero, /dev/full, and
when profiled ncu's two lock files, and under ncu or compute-sanitizer the folder of the tool's
process tree tracker. Reading, executing and device ioctls stay allowed. Without
Landlock the process goes on unrestricted and says why ("unavailable: ...")."""

import ctypes
import errno
import os
import stat
import tempfile

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # x86-64 and arm64 system call numbers
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAPBSET_DROP, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
_CAPABILITY_VERSION_3 = 0x20080522
_CAP_SYS_ADMIN, _CAP_PERFMON = 21, 38
_O_PATH = 0o10000000

# The rights that change the file system (write, remove, make of every kind), as kopt's C++ side
# hands them; REFER from ABI 2 and TRUNCATE from ABI 3. A file (not a folder) takes only
# WRITE_FILE and TRUNCATE: it is written in place.
_WRITE_FILE = 1 << 1
_WRITE_RIGHTS = _WRITE_FILE | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7) | (1 << 8) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 12)
_REFER, _TRUNCATE = 1 << 13, 1 << 14


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # the kernel's struct is packed
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def device_files(dev="/dev"):
    """The device nodes a GPU process may open for writing: the NVIDIA driver's and the sinks."""
    def is_device(path):
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return False
        return stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
    files = []
    for folder, keep in ((dev, lambda n: n.startswith("nvidia")), (os.path.join(dev, "nvidia-caps"), lambda n: True)):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        files += [os.path.join(folder, n) for n in names if keep(n) and is_device(os.path.join(folder, n))]
    files += [os.path.join(dev, n) for n in ("null", "zero", "full") if is_device(os.path.join(dev, n))]
    return sorted(files)


def private_temporary_folder(result_path):
    return os.path.join(os.path.dirname(os.path.abspath(result_path)), "tmp")


def adopt_temporary_folder(folder):
    """Makes `folder` (0700), points TMPDIR, TMP and TEMP at it, and returns the temporary folder
    the process had before (ncu's lock lives there)."""
    before = tempfile.gettempdir()
    os.makedirs(folder, mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    for name in ("TMPDIR", "TMP", "TEMP"):
        os.environ[name] = folder
    tempfile.tempdir = None  # computed again from the variables at its next use
    return before


def profiler_lock_files(private_temporary, shared_temporary, cuda_visible_devices):
    """ncu's interprocess lock (`$TMPDIR/nvidia/nsight_compute/lock` and `lock.<GPU UUID>`),
    made in the shared temporary folder with a link to it from the private one: the profiled
    process takes the lock every ncu on the machine takes, writing only those two files. None
    when the GPU is not one "GPU-" UUID or the shared folder cannot be used (ncu then locks in
    the private folder)."""
    if not cuda_visible_devices.startswith("GPU-") or "," in cuda_visible_devices:
        return []
    shared = os.path.join(shared_temporary, "nvidia", "nsight_compute")
    try:
        if not os.path.isdir(shared):
            os.makedirs(shared, exist_ok=True)
            os.chmod(shared, 0o777)  # as ncu makes it
        files = [os.path.join(shared, "lock"), os.path.join(shared, "lock." + cuda_visible_devices[len("GPU-"):])]
        for path in files:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o666)
            try:
                if os.fstat(fd).st_uid == os.geteuid():
                    os.fchmod(fd, 0o666)
            finally:
                os.close(fd)
        link = os.path.join(private_temporary, "nvidia", "nsight_compute")
        os.makedirs(os.path.dirname(link), exist_ok=True)
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(shared, link)
    except OSError:
        return []
    return files


def profiler_tracker_folder(configuration):
    """The folder through which ncu or compute-sanitizer follows the processes the one it runs starts (ldconfig,
    ptxas, the C compiler for a Triton kernel), named in NVIDIA-PROCESS-TRACKING-CONFIGURATION as
    "tree-tracker-id: /tmp/NVIDIA-treetracker-XXXXXX"; a process that cannot register there dies
    by SIGSEGV. None unless it is an absolute path to an existing folder of that name."""
    key = "tree-tracker-id: "
    at = configuration.find(key)
    if at < 0:
        return None
    value = configuration[at + len(key):].replace("\\n", "\n").split("\n")[0].strip()
    if not os.path.isabs(value) or not os.path.basename(value).startswith("NVIDIA-treetracker-"):
        return None
    return value if os.path.isdir(value) and not os.path.islink(value) else None


def writable_folders(job, result_path):
    """Where a measuring process of the runner writes besides what every one does: its result's
    folder (beside the job), the outputs or inputs it keeps for the parent, Triton's cache for
    this run."""
    folders = [os.path.dirname(os.path.abspath(result_path))]
    kept = (job.get("validation") or {}).get("evidence_dir")
    if kept:
        folders.append(kept)
    if os.environ.get("TRITON_CACHE_DIR"):
        folders.append(os.environ["TRITON_CACHE_DIR"])
    return folders


def sandbox_measuring_process(folders, result_path, profiled=False):
    """All of it: makes the folders and the private temporary folder, adopts the latter, makes
    ncu's lock files when `profiled`, allows the tracker's folder of the NVIDIA tool that started
    this process, if any, and restricts this process's writes."""
    for folder in folders:
        os.makedirs(folder, exist_ok=True)  # a folder that is not there cannot be allowed
    temporary = private_temporary_folder(result_path)
    shared = adopt_temporary_folder(temporary)
    locks = profiler_lock_files(temporary, shared, os.environ.get("CUDA_VISIBLE_DEVICES", "")) if profiled else []
    # Set only where ncu or compute-sanitizer started this process's tree.
    tracker = profiler_tracker_folder(os.environ.get("NVIDIA-PROCESS-TRACKING-CONFIGURATION", ""))
    sandbox = restrict_writes_to([os.path.abspath(f) for f in folders] + [temporary, f"/proc/{os.getpid()}"] +
                                 ([tracker] if tracker else []), device_files() + locks)
    # After the sandbox (its no-new-privileges bit keeps a started program from regaining them).
    sandbox["description"] += give_up_capabilities(profiled and profiling_restricted_to_admins())
    return sandbox


def profiling_restricted_to_admins():
    """Whether the NVIDIA driver lets only administrators read the GPU's counters (as kopt's
    core/inspection_rights.h reads it)."""
    try:
        with open("/proc/driver/nvidia/params") as params:
            for line in params:
                if line.startswith("RmProfilingAdminOnly:"):
                    return "1" in line
    except OSError:
        pass
    return False


def give_up_capabilities(keep_profiling):
    """Gives up every capability of this process and of what it starts (bounding and ambient
    sets too); keeps CAP_SYS_ADMIN and CAP_PERFMON when `keep_profiling`. Where kopt runs as
    root, a root process holding CAP_SYS_PTRACE, CAP_SYS_ADMIN or CAP_PERFMON reads kopt's memory
    and environment (and its harness's, a dumpable process) whatever else closes them; Linux also
    refuses a reader holding fewer capabilities than its target, and this process holds fewer
    than the `kopt harness` above it, which gives up only those three (core/inspection_rights.h).
    Returns "; without ..." for the description, "" when there was nothing to give up."""
    libc = ctypes.CDLL(None, use_errno=True)
    header = (ctypes.c_uint32 * 2)(_CAPABILITY_VERSION_3, 0)
    sets = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable of capabilities 0-31, then 32-63
    if libc.capget(header, sets) != 0:
        return f"; capabilities not read ({os.strerror(ctypes.get_errno())})"
    if sets[1] == 0 and sets[4] == 0:
        return ""
    kept = (1 << _CAP_SYS_ADMIN | 1 << _CAP_PERFMON) if keep_profiling else 0
    last = _last_capability()
    for capability in range(last + 1):
        if not kept & (1 << capability):
            libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0)
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    low, high = kept & 0xFFFFFFFF & sets[1], (kept >> 32) & sets[4]
    if libc.capset(header, (ctypes.c_uint32 * 6)(low, low, 0, high, high, 0)) != 0:
        return f"; could not give up its capabilities ({os.strerror(ctypes.get_errno())})"
    return "; without CAP_SYS_PTRACE or any other capability but CAP_SYS_ADMIN, CAP_PERFMON" if kept else \
        "; without any capability"


def _last_capability():
    try:
        with open("/proc/sys/kernel/cap_last_cap") as last:
            return int(last.read())
    except (OSError, ValueError):
        return 63


def restrict_writes_to(folders, files=()):
    """{"applied": bool, "abi": N, "description": "..."} after restricting writes to beneath
    `folders` and in place to `files` (those that exist as that kind)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long

    def without(why):
        return {"applied": False, "abi": 0, "description": f"unavailable: {why}"}

    abi = libc.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    if abi < 1:
        failure = ctypes.get_errno()
        if failure == errno.ENOSYS:
            return without("this Linux kernel has no Landlock (older than 5.13, or built without it)")
        if failure == errno.EOPNOTSUPP:
            return without("Landlock is disabled in this Linux kernel (not in its lsm= list)")
        return without(f"Landlock is not available here ({os.strerror(failure)})")
    rights = _WRITE_RIGHTS | (_REFER if abi >= 2 else 0) | (_TRUNCATE if abi >= 3 else 0)
    file_rights = _WRITE_FILE | (_TRUNCATE if abi >= 3 else 0)
    ruleset = _RulesetAttr(rights)
    ruleset_fd = libc.syscall(_CREATE_RULESET, ctypes.byref(ruleset), ctypes.c_size_t(ctypes.sizeof(ruleset)),
                              ctypes.c_uint32(0))
    if ruleset_fd < 0:
        return without(f"Landlock refused a ruleset ({os.strerror(ctypes.get_errno())})")
    allowed = {True: [], False: []}
    try:
        for path, folder in [(f, True) for f in folders] + [(f, False) for f in files]:
            try:
                fd = os.open(path, _O_PATH | os.O_CLOEXEC | (os.O_DIRECTORY if folder else 0))
            except OSError:
                continue  # not there: nothing to allow
            try:
                if stat.S_ISDIR(os.fstat(fd).st_mode) != folder:
                    continue
                rule = _PathBeneathAttr(rights if folder else file_rights, fd)
                if libc.syscall(_ADD_RULE, ctypes.c_int(ruleset_fd), ctypes.c_int(_RULE_PATH_BENEATH),
                                ctypes.byref(rule), ctypes.c_uint32(0)) == 0:
                    allowed[folder].append(path)
            finally:
                os.close(fd)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or \
                libc.syscall(_RESTRICT_SELF, ctypes.c_int(ruleset_fd), ctypes.c_uint32(0)) != 0:
            return without(f"Landlock could not be applied ({os.strerror(ctypes.get_errno() or errno.EPERM)})")
    finally:
        os.close(ruleset_fd)
    description = f"Landlock ABI {abi}: writes only under {', '.join(allowed[True])}"
    if allowed[False]:
        description += f"; in place to {', '.join(allowed[False])}"
    return {"applied": True, "abi": int(abi), "description": description}
