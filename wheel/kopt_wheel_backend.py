"""kopt's build backend (PEP 517), so that `pip install .` builds kopt with CMake and installs it.

The wheel carries exactly what `cmake --install` puts under a prefix, in the wheel's data
scheme: the kopt executable as a script (pip puts it in the environment's bin/) and lib/, share/
as data (pip puts them under the environment's prefix), so an installed kopt finds its companion
files beside itself as it does after `cmake --install` (src/core/install_layout.h). It declares
no dependency (kopt is one native program), hence the tag py3-none-<platform>: any Python 3,
no Python ABI, the glibc and machine it was built for. Building needs only the standard
library, CMake, Ninja and what scripts/setup.sh installs; nothing is fetched.
"""

import base64
import hashlib
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME = "kopt"
PRESET = "install"  # CMakePresets.json: kopt and its companion files, no tests
BUILD_DIR = ROOT / "build" / PRESET


def _version():
    """The one version of kopt: CMakeLists.txt's project(kopt VERSION x.y.z)."""
    found = re.search(r"project\(kopt VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())
    if not found:
        raise RuntimeError("CMakeLists.txt has no project(kopt VERSION x.y.z): cannot name the wheel")
    return found.group(1)


def _platform_tag():
    """manylinux_2_<minor>_<machine>: a program built against this glibc runs with it or newer."""
    libc = os.confstr("CS_GNU_LIBC_VERSION") or ""  # "glibc 2.36"
    found = re.fullmatch(r"glibc (\d+)\.(\d+)", libc)
    if not found:
        raise RuntimeError(f"kopt's wheel is built on Linux with glibc (this system says {libc!r})")
    return f"manylinux_{found.group(1)}_{found.group(2)}_{os.uname().machine}"


def _run(*argv):
    print("+", " ".join(argv), flush=True)
    subprocess.run(argv, cwd=ROOT, check=True)


def _install_into(prefix):
    """The release build of the install preset (compiler cache when present), installed stripped."""
    for tool in ("cmake", "ninja"):
        if shutil.which(tool) is None:
            raise RuntimeError(f"{tool} not found: kopt's wheel is built with CMake and Ninja; run "
                               "scripts/setup.sh --no-build for them and kopt's libraries, then pip install . again")
    launcher = []
    if shutil.which("ccache") and not os.environ.get("CMAKE_CXX_COMPILER_LAUNCHER"):
        launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
    _run("cmake", "--preset", PRESET, *launcher)
    _run("cmake", "--build", "--preset", PRESET)
    _run("cmake", "--install", str(BUILD_DIR), "--prefix", str(prefix), "--strip")


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def _metadata(version):
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {version}\n"
            "Summary: Evidence-driven GPU kernel optimization for coding agents: compile, validate, time, "
            "profile, diagnose, remember\nRequires-Python: >=3\n")


def _wheel_entries(prefix, version, tag):
    """(name in the wheel, bytes, mode) of every file, dist-info last but RECORD."""
    data = f"{NAME}-{version}.data"
    dist_info = f"{NAME}-{version}.dist-info"
    entries = []
    for path in sorted(p for p in prefix.rglob("*") if p.is_file()):
        relative = path.relative_to(prefix).as_posix()
        scheme = "scripts/" + relative[len("bin/"):] if relative.startswith("bin/") else "data/" + relative
        entries.append((f"{data}/{scheme}", path.read_bytes(), path.stat().st_mode & 0o777))
    wheel = f"Wheel-Version: 1.0\nGenerator: kopt_wheel_backend\nRoot-Is-Purelib: false\nTag: {tag}\n"
    entries.append((f"{dist_info}/METADATA", _metadata(version).encode(), 0o644))
    entries.append((f"{dist_info}/WHEEL", wheel.encode(), 0o644))
    return entries, f"{dist_info}/RECORD"


def _write_wheel(path, entries, record_name):
    record = [_record_line(name, content) for name, content, _ in entries] + [f"{record_name},,"]
    entries = entries + [(record_name, ("\n".join(record) + "\n").encode(), 0o644)]
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for name, content, mode in entries:
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))  # reproducible
            info.external_attr = (0o100000 | mode) << 16  # pip keeps the executable bit
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, content)


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def wheel_from_prefix(prefix, wheel_directory):
    """The wheel of what `cmake --install` put under `prefix`; returns its file name."""
    prefix = Path(prefix)
    if not (prefix / "bin" / NAME).is_file():
        raise RuntimeError(f"no bin/{NAME} under {prefix}: not a kopt installation")
    version, tag = _version(), f"py3-none-{_platform_tag()}"
    entries, record_name = _wheel_entries(prefix, version, tag)
    name = f"{NAME}-{version}-{tag}.whl"
    _write_wheel(Path(wheel_directory) / name, entries, record_name)
    return name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    with tempfile.TemporaryDirectory(prefix="kopt-wheel-") as staging:
        _install_into(staging)
        return wheel_from_prefix(staging, wheel_directory)


def build_sdist(sdist_directory, config_settings=None):
    """The files git tracks, under kopt-<version>/."""
    version = _version()
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=False)
    if listed.returncode != 0:
        raise RuntimeError("a source distribution of kopt is made from a git checkout (git ls-files failed)")
    name = f"{NAME}-{version}.tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz") as sdist:
        for relative in filter(None, listed.stdout.decode().split("\0")):
            sdist.add(ROOT / relative, arcname=f"{NAME}-{version}/{relative}", recursive=False)
    return name
