#!/usr/bin/env python3
"""kopt mcp as an agent meets it: the official Python SDK's stdio client (PyPI `mcp`, pinned in
scripts/setup.sh) starts `kopt mcp` in a scratch workspace holding copies of the examples and
of the H200 ncu fixtures, and checks what the issue asks of the server on a machine without a
GPU: the handshake and the tool list, inspect and analyze on fixtures, clear errors for bad
arguments and for a path outside the workspace, progress notifications, output of the
processes a tool starts kept off the channel, and a cancelled call that leaves no process
behind.

  python3 tests/mcp/mcp_client_test.py --kopt build/ci/bin/kopt --source .
"""

import argparse
import os
import shutil
import sys
import tempfile

import anyio
import mcp_types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

FAILURES = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        FAILURES.append(what)


def processes_under(folder):
    """Processes whose command line names `folder` (the workspace's compiles)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                line = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if folder in line and "mcp_client_test" not in line:
            found.append(f"{pid} {line[:120]}")
    return found


async def run(kopt, workspace):
    env = dict(os.environ, KOPT_CACHE_DIR=os.path.join(workspace, ".cache"), KOPT_MEMORY_DB=os.path.join(workspace, "memory.db"))
    # A preload meant for this Python (scripts/sanitize_tests.sh) is not for kopt and its nvcc.
    env.pop("LD_PRELOAD", None)
    server = StdioServerParameters(command=kopt, args=["mcp", "--workspace", workspace], env=env)
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check(init.server_info.name == "kopt", f"initialize: server {init.server_info.name}, protocol {init.protocol_version}")
            check(init.protocol_version in ("2025-11-25", "2025-06-18"), "a revision the SDK speaks")

            tools = {t.name: t for t in (await session.list_tools()).tools}
            wanted = {"preflight", "inspect", "compile", "bench", "compare", "profile", "analyze", "loop_step", "memory_query",
                      "kb", "report"}
            check(wanted <= set(tools), f"tools/list names {sorted(tools)}")
            check(all(t.input_schema.get("type") == "object" for t in tools.values()), "every tool has an object schema")
            # The SDK checks each result below against its tool's output schema.
            check(all((t.output_schema or {}).get("type") == "object" for t in tools.values()),
                  "every tool has an object output schema")
            check(all(t.annotations is not None and t.annotations.read_only_hint is not None for t in tools.values()),
                  "every tool says whether it only reads")
            check(tools["inspect"].annotations.read_only_hint and not tools["loop_step"].annotations.read_only_hint,
                  "inspect only reads; loop_step writes its run folder")

            result = await session.call_tool("inspect", {"kernel": "examples/vector_add.cu", "dims": {"N": 1048576}})
            check(not result.is_error and result.structured_content["backend"] == "cuda", "inspect: a cuda kernel")
            check("out C: 1048576 elements" in result.content[0].text, "inspect: its summary names the buffers")

            result = await session.call_tool("analyze", {"report": "tests/data/ncu/h200/vector_add_raw.csv"})
            kernels = result.structured_content.get("kernels", []) if not result.is_error else []
            check(len(kernels) == 1 and kernels[0]["class"] == "dram", "analyze: the vector add is DRAM-bound")
            check(kernels and kernels[0]["recommendations"][0]["id"] == "cuda-vectorize-io", "analyze: first strategy")
            check(len(result.content[0].text) < 2000, "analyze: a summary, not a dump")

            try:
                await session.call_tool("bench", {"dims": {"N": 4}})
                check(False, "bench without a kernel is refused")
            except Exception as e:  # the SDK raises on a JSON-RPC error
                check("'kernel' is required" in str(e), f"bad arguments: {e}")
            try:
                await session.call_tool("inspect", {"kernel": "examples/vector_add.cu", "dims": {"N": 4}, "speed": 1})
                check(False, "an unknown argument is refused")
            except Exception as e:
                check("'speed' is not an argument" in str(e), f"unknown argument: {e}")

            result = await session.call_tool("inspect", {"kernel": "/etc/passwd"})
            check(result.is_error and "outside the workspace" in result.content[0].text, "a path outside is refused")
            result = await session.call_tool("inspect", {"kernel": "../" * 8 + "etc/hostname"})
            check(result.is_error and "outside the workspace" in result.content[0].text, "a relative way out too")

            messages = []

            async def on_progress(progress, total, message):
                messages.append(message)

            result = await session.call_tool("compile", {"kernel": "examples/vector_add.cu"}, progress_callback=on_progress)
            check(not result.is_error and result.structured_content["kernels"], "compile: resources per kernel")
            check("compiling with nvcc" in messages, f"progress notifications: {messages}")
            # nvcc printed its output while the channel carried messages: the next call still works.
            check(len((await session.list_tools()).tools) == len(tools), "the channel is intact after a child's output")

            # A long call (CUTLASS takes nvcc a minute here), cancelled: nothing of it may be left.
            with anyio.move_on_after(4):
                await session.call_tool("compile", {"kernel": "examples/cutlass_gemm.cu"})
                check(False, "the CUTLASS compile ended before it could be cancelled")
            await anyio.sleep(1.5)  # the courtesy cancel goes out from the event loop
            left = processes_under(os.path.join(workspace, ".cache"))
            check(not left, f"a cancelled call leaves no process behind {left}")
            check(len((await session.list_tools()).tools) == len(tools), "the server serves on after a cancellation")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--source", required=True, help="the repository (examples/, tests/data/ncu/h200/)")
    args = parser.parse_args()
    workspace = tempfile.mkdtemp(prefix="kopt-mcp-")
    try:
        shutil.copytree(os.path.join(args.source, "examples"), os.path.join(workspace, "examples"))
        shutil.copytree(os.path.join(args.source, "tests/data/ncu/h200"), os.path.join(workspace, "tests/data/ncu/h200"))
        anyio.run(run, os.path.abspath(args.kopt), workspace)
    finally:
        shutil.rmtree(workspace, ignore_errors=True)
    print(f"{len(FAILURES)} failed" if FAILURES else "all passed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
