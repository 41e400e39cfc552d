"""Where this process may write, enforced by Linux's Landlock: the Python twin of kopt's
core/write_sandbox.h, applied by the runner's processes that run code under test (a Triton
kernel's measuring process and its problem's) before torch, Triton or the module is imported,
so before any thread starts: everything after inherits it and nothing can lift it. The code
under test then cannot rewrite the reference, kopt's cache and runner, or the user's packages.
Reading, executing and device ioctls stay allowed. Without Landlock the process goes on
unrestricted and says why."""

import ctypes
import errno
import os
import tempfile

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # x86-64 and arm64 system call numbers
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38
_O_PATH = 0o10000000

# The rights that change the file system (write, remove, make of every kind), as kopt's C++ side
# hands them; REFER from ABI 2 and TRUNCATE from ABI 3.
_WRITE_RIGHTS = (1 << 1) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7) | (1 << 8) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 12)
_REFER, _TRUNCATE = 1 << 13, 1 << 14


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # the kernel's struct is packed
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def common_writable_folders():
    return ["/dev", "/proc", tempfile.gettempdir()]


def writable_folders(job, result_path):
    """Where a measuring process of the runner writes: its result (beside the job), the
    outputs or inputs it keeps for the parent, Triton's cache for this run."""
    folders = [os.path.dirname(os.path.abspath(result_path))]
    if job.get("evidence_dir"):
        os.makedirs(job["evidence_dir"], exist_ok=True)  # a folder that is not there cannot be allowed
        folders.append(job["evidence_dir"])
    if os.environ.get("TRITON_CACHE_DIR"):
        folders.append(os.environ["TRITON_CACHE_DIR"])
    return folders


def restrict_writes_to(folders):
    """{"applied": bool, "abi": N, "description": "..."} after restricting writes to `folders`
    (those that exist) and the common ones."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long

    def without(why):
        return {"applied": False, "abi": 0, "description": f"none: {why}"}

    abi = libc.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    if abi < 1:
        return without(f"Landlock is not available here ({os.strerror(ctypes.get_errno())})")
    rights = _WRITE_RIGHTS | (_REFER if abi >= 2 else 0) | (_TRUNCATE if abi >= 3 else 0)
    ruleset = _RulesetAttr(rights)
    ruleset_fd = libc.syscall(_CREATE_RULESET, ctypes.byref(ruleset), ctypes.c_size_t(ctypes.sizeof(ruleset)),
                              ctypes.c_uint32(0))
    if ruleset_fd < 0:
        return without(f"Landlock refused a ruleset ({os.strerror(ctypes.get_errno())})")
    allowed = []
    try:
        for folder in list(folders) + common_writable_folders():
            try:
                fd = os.open(folder, _O_PATH | os.O_CLOEXEC | os.O_DIRECTORY)
            except OSError:
                continue  # not there: nothing to allow
            try:
                rule = _PathBeneathAttr(rights, fd)
                if libc.syscall(_ADD_RULE, ctypes.c_int(ruleset_fd), ctypes.c_int(_RULE_PATH_BENEATH),
                                ctypes.byref(rule), ctypes.c_uint32(0)) == 0:
                    allowed.append(folder)
            finally:
                os.close(fd)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or \
                libc.syscall(_RESTRICT_SELF, ctypes.c_int(ruleset_fd), ctypes.c_uint32(0)) != 0:
            return without(f"Landlock could not be applied ({os.strerror(ctypes.get_errno() or errno.EPERM)})")
    finally:
        os.close(ruleset_fd)
    return {"applied": True, "abi": int(abi), "description": f"Landlock ABI {abi}: writes only under {', '.join(allowed)}"}
