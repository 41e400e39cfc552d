/* libkopt_harness_abi: the parts of kopt's harness that code in another process needs, behind
 * a C ABI. kopt's Python runner uses it to time torch references and Triton kernels with the
 * same protocol and GPU-time source (CUPTI activity records) as `kopt bench` uses for CUDA
 * kernels, and to judge Triton kernels' outputs with the same comparison rules, poison
 * patterns and guard canaries.
 *
 * Every function returning text sets *result_json to a malloc'ed string: free it with
 * kopt_free. Calls are synchronous; one timing at a time per process. */
#ifndef KOPT_HARNESS_ABI_H
#define KOPT_HARNESS_ABI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KOPT_HARNESS_API __attribute__((visibility("default")))

/* Launches the work to time (or restores inputs, for `before_each`); 0 on success, anything
 * else stops the timing. */
typedef int (*kopt_timing_callback)(void* context);

/* Times `call` under the options in `options_json` ({"hot": false, "warmup": 3, "repeat": 10,
 * "min_seconds": 0.5, "max_seconds": 10, "target_relative_half_width": 0.005}; missing keys
 * take these defaults). The caller's CUDA context must be current on the calling thread
 * (torch makes it so once a tensor lives on the device). `before_each` may be NULL. Returns 0
 * and sets *result_json to the timing document (with "protocol" and "warnings"), or nonzero
 * and a one-line reason (1: the environment, 2: a callback returned nonzero, 3: the device
 * failed). */
KOPT_HARNESS_API int kopt_timing_sample(kopt_timing_callback call, kopt_timing_callback before_each, void* context,
                                        const char* options_json, char** result_json);

/* The conventions of kopt's buffers: {"guard_bytes": N, "canary_byte": B, "poison": {"float32":
 * "<hex of one element's bytes, little-endian>", ...}} for every element type kopt knows. */
KOPT_HARNESS_API int kopt_buffer_conventions(char** result_json);

/* Compares one output: `kernel` and `expected` hold the same number of bytes of elements of
 * request.dtype; elements of `expected` that still hold the poison are outside the reference's
 * extent. request_json: {"name": "C", "dtype": "float32", "atol": null, "rtol": null,
 * "reference_atol": null, "reference_rtol": null} (flag values, then the reference module's).
 * Returns 0 and the comparison (as in a bench result's correctness.seeds[].outputs[]), or 1
 * and a one-line reason for a bad request. */
KOPT_HARNESS_API int kopt_compare_output(const char* request_json, const void* kernel, size_t kernel_bytes,
                                         const void* expected, size_t expected_bytes, char** result_json);

KOPT_HARNESS_API void kopt_free(char* text);

#ifdef __cplusplus
}
#endif

#endif
