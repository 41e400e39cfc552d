/* libkopt_timing: kopt's timing engine for code that runs in another process, such as the
 * Python runner timing a torch reference or a Triton kernel. The same protocol and the same
 * GPU-time source (CUPTI activity records) as `kopt bench` uses for CUDA kernels.
 *
 * The caller's CUDA context must be current on the calling thread (torch makes it so once a
 * tensor lives on the device). Calls are synchronous; one timing at a time per process. */
#ifndef KOPT_TIMING_H
#define KOPT_TIMING_H

#ifdef __cplusplus
extern "C" {
#endif

#define KOPT_TIMING_API __attribute__((visibility("default")))

/* Launches the work to time (or restores inputs, for `before_each`); 0 on success, anything
 * else stops the timing. */
typedef int (*kopt_timing_callback)(void* context);

/* Times `call` under the options in `options_json` ({"hot": false, "warmup": 3, "repeat": 10,
 * "min_seconds": 0.5, "max_seconds": 10, "target_relative_half_width": 0.005}; missing keys
 * take these defaults). `before_each` may be NULL. Returns 0 and sets *result_json to the
 * timing document, or nonzero and sets *result_json to a one-line reason (1: the environment,
 * 2: a callback returned nonzero, 3: the device failed). Free the string with kopt_timing_free. */
KOPT_TIMING_API int kopt_timing_sample(kopt_timing_callback call, kopt_timing_callback before_each, void* context,
                                       const char* options_json, char** result_json);

KOPT_TIMING_API void kopt_timing_free(char* text);

#ifdef __cplusplus
}
#endif

#endif
