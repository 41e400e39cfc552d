"""ctypes binding of kopt's libkopt_harness_abi.so: the harness's timing engine and output
comparison, so that what runs here is measured and judged exactly as CUDA kernels are."""

import ctypes
import json

CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)


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
        lib.kopt_compare_output.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p,
                                            ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p)]
        lib.kopt_compare_output.restype = ctypes.c_int
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

    def compare(self, request, kernel_host, expected_host):
        """Compares two host uint8 tensors of one output's elements; returns the comparison."""
        out = ctypes.c_void_p()
        status = self._library.kopt_compare_output(
            json.dumps(request).encode(), ctypes.c_void_p(kernel_host.data_ptr()), kernel_host.numel(),
            ctypes.c_void_p(expected_host.data_ptr()), expected_host.numel(), ctypes.byref(out))
        text = self._text(out)
        if status != 0:
            raise RuntimeError(f"comparing {request['name']} failed: {text}")
        return json.loads(text)

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
            verdict = json.loads(text)
            raise JudgedFailure(verdict["status"], verdict["reason"])
        if status != 0:
            raise RuntimeError(f"timing the {who} failed: {text}")
        return json.loads(text)
