"""ctypes binding of kopt's libkopt_harness_abi.so: the bench protocol (for a Triton kernel)
and the timing engine (for a torch reference), so that what runs here is measured and judged
exactly as CUDA kernels are."""

import ctypes
import json
import sys
import traceback

from . import documents
from .problems import EnvironmentProblem

CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
BIND_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)
TEXT_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
KEY_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t)


def _write_text(text, buffer, capacity):
    data = text.encode("utf-8", errors="replace")[: max(0, capacity - 1)]
    ctypes.memmove(buffer, data, len(data))
    ctypes.memset(buffer + len(data), 0, 1)


class JudgedFailure(Exception):
    """The timing engine failed the timed code: its work escaped the measurement."""

    def __init__(self, status, reason):
        super().__init__(reason)
        self.status, self.reason = status, reason


class TimedCallFailed(Exception):
    """The timed code raised; `error` is its exception (with its traceback)."""

    def __init__(self, error):
        super().__init__(str(error))
        self.error = error


class HarnessAbi:
    def __init__(self, library_path):
        try:
            self._library = ctypes.CDLL(library_path)
        except OSError as e:
            raise RuntimeError(f"cannot load kopt's harness library {library_path}: {e}")
        lib = self._library
        lib.kopt_timing_sample.argtypes = [CALLBACK, CALLBACK, ctypes.c_void_p, ctypes.c_char_p,
                                           ctypes.POINTER(ctypes.c_void_p)]
        lib.kopt_timing_sample.restype = ctypes.c_int
        lib.kopt_buffer_conventions.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
        lib.kopt_buffer_conventions.restype = ctypes.c_int
        lib.kopt_run_kernel_job.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, BIND_CALLBACK,
                                            TEXT_CALLBACK, TEXT_CALLBACK, ctypes.c_void_p,
                                            ctypes.POINTER(ctypes.c_void_p)]
        lib.kopt_run_kernel_job.restype = ctypes.c_int
        lib.kopt_run_reference_keys.argtypes = [ctypes.c_char_p, BIND_CALLBACK, KEY_CALLBACK, ctypes.c_void_p,
                                                ctypes.POINTER(ctypes.c_void_p)]
        lib.kopt_run_reference_keys.restype = ctypes.c_int
        lib.kopt_free.argtypes = [ctypes.c_void_p]
        self._conventions = None

    def _text(self, pointer):
        text = ctypes.string_at(pointer.value).decode() if pointer.value else ""
        self._library.kopt_free(pointer)
        return text

    def conventions(self):
        """{"guard_bytes": N, "canary_byte": B, "poison": {element type: bytes of one element}}."""
        if self._conventions is None:
            out = ctypes.c_void_p()
            self._library.kopt_buffer_conventions(ctypes.byref(out))
            document = json.loads(self._text(out))
            document["poison"] = {name: bytes.fromhex(hex_bits) for name, hex_bits in document["poison"].items()}
            self._conventions = document
        return self._conventions

    def run_kernel_job(self, job, kernel_setup, result_path, bind, call, facts):
        """Runs the bench protocol over `call` (kopt_run_kernel_job). `bind(buffers)` gets the
        buffers' names, addresses and sizes (again before each block of a comparison in turns that
        runs on another set of buffers: `call()` uses the last binding); `call()` returns None or a failure dict;
        `facts()` returns what the runner adds to the result. On success the library ends the
        process itself; an environment problem raises RuntimeError with its reason."""

        def bind_callback(_context, buffers_json):
            try:
                bind(json.loads(buffers_json.decode()))
                return 0
            except BaseException:  # the harness says the binding failed; the traceback says why
                traceback.print_exc(file=sys.stderr)
                return 1

        def call_callback(_context, buffer, capacity):
            try:
                failure = call()
            except BaseException as e:  # sys.exit() in run_kernel, say: the kernel's failure all the same
                failure = {"status": "failed", "reason": f"run_kernel() raised {type(e).__name__}", "detail": ""}
            if failure is None:
                return 0
            _write_text(json.dumps(failure), buffer, capacity)
            return 1

        def facts_callback(_context, buffer, capacity):
            try:
                _write_text(json.dumps(facts()), buffer, capacity)
                return 0
            except BaseException:
                traceback.print_exc(file=sys.stderr)
                return 1

        callbacks = (BIND_CALLBACK(bind_callback), TEXT_CALLBACK(call_callback), TEXT_CALLBACK(facts_callback))
        error = ctypes.c_void_p()
        setup_text = json.dumps(kernel_setup).encode() if kernel_setup is not None else None
        self._library.kopt_run_kernel_job(json.dumps(job).encode(), setup_text, result_path.encode(), *callbacks, None,
                                          ctypes.byref(error))
        raise EnvironmentProblem(f"kopt's harness could not run the Triton kernel: {self._text(error)}")

    def run_reference_keys(self, job, bind, each):
        """Makes the inputs of every key of the reference's job in kopt's buffers
        (kopt_run_reference_keys): `bind(buffers)` once, then `each(key)` per key, and kopt
        writes the key's outputs after it. An exception of either is raised again here, after
        kopt stopped; an environment problem raises EnvironmentProblem."""
        raised = []

        def bind_callback(_context, buffers_json):
            try:
                bind(json.loads(buffers_json.decode()))
                return 0
            except BaseException as e:  # raised again once kopt has stopped
                raised.append(e)
                return 1

        def key_callback(_context, key_json, _failure, _capacity):
            try:
                each(json.loads(key_json.decode()))
                return 0
            except BaseException as e:
                raised.append(e)
                return 1

        callbacks = (BIND_CALLBACK(bind_callback), KEY_CALLBACK(key_callback))
        error = ctypes.c_void_p()
        status = self._library.kopt_run_reference_keys(json.dumps(job).encode(), *callbacks, None, ctypes.byref(error))
        if raised:
            raise raised[0]
        if status == 2 and not error.value:
            raise RuntimeError("the reference's keys stopped without a reason from the runner")
        if status != 0:
            raise EnvironmentProblem(f"kopt's harness could not make the reference's inputs: {self._text(error)}")

    def time(self, call, before_each, options, who):
        """Times `call()` under kopt's protocol (`before_each()` runs before every call, outside
        the timed region). An exception of either comes back as TimedCallFailed."""
        failure = []

        def guarded(action):
            def run(_context):
                try:
                    action()
                    return 0
                except Exception as e:  # handed back after the timing stops
                    failure.append(e)
                    return 1
            return CALLBACK(run)

        call_callback = guarded(call)
        before_callback = guarded(before_each) if before_each else CALLBACK(0)
        out = ctypes.c_void_p()
        status = self._library.kopt_timing_sample(call_callback, before_callback, None, json.dumps(options).encode(),
                                                  ctypes.byref(out))
        text = self._text(out)
        if failure:
            raise TimedCallFailed(failure[0])
        if status == 4:  # the judge's verdict on the timed code (work escaped the measurement)
            verdict = documents.parse(text, "call_failure")
            raise JudgedFailure(verdict["status"], verdict["reason"])
        if status != 0:
            raise RuntimeError(f"timing the {who} failed: {text}")
        return documents.parse(text, "sampled_timing")
