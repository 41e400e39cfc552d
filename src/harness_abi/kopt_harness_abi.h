/* libkopt_harness_abi: the parts of kopt's harness that code in another process needs, behind
 * a C ABI. kopt's Python runner uses it to run a Triton kernel under the one bench protocol
 * that CUDA kernels run under, and to time torch references with the same engine and
 * GPU-time source (CUPTI activity records).
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

/* Times `call` under the options in `options_json` (harness::timing_options, every field
 * given; the reference runner passes on what kopt's request gave it). The caller's CUDA
 * context must be current on the calling thread (torch makes it so once a tensor lives on the
 * device). `before_each` may be NULL. Returns 0 and sets *result_json to a
 * harness::sampled_timing (the timing document, the protocol, warnings), or nonzero and a
 * one-line reason (1: the environment or the options, 2: a callback returned nonzero, 3: the
 * device failed, 4: the judge's verdict {"status", "reason"}). */
KOPT_HARNESS_API int kopt_timing_sample(kopt_timing_callback call, kopt_timing_callback before_each, void* context,
                                        const char* options_json, char** result_json);

/* The conventions of kopt's buffers: {"guard_bytes": N, "canary_byte": B, "poison": {"float32":
 * "<hex of one element's bytes, little-endian>", ...}} for every element type kopt knows. */
KOPT_HARNESS_API int kopt_buffer_conventions(char** result_json);

/* The kernel's measuring process for a Triton module: kopt's one bench protocol (the
 * validation seeds, timed calls on fresh inputs with random checks, the seed after timing;
 * harness/kernel_protocol.h) over the module's run_kernel(), called back through `call`.
 * `job_json` is the bench job (kopt.harness_job/v6 with its Triton problem). A profile job
 * runs the profiler window instead; a blocks job is held open for a comparison in turns and
 * times the blocks the parent asks for on standard input (harness/block_channel.h).
 * `kernel_setup_json` is what the kernel module's own setup() declares ({"tensors": [{"name",
 * "dtype", "shape", "role"}], "scalars": {...}}), or NULL when it has none or the problem is
 * its own: a declaration that differs from the problem fails the run as a problem mismatch.
 *
 * Before any call, `bind(context, buffers_json)` gets the buffers kopt allocated, in the
 * problem's order ([{"name": "x", "address": N, "bytes": B}]); the runner makes its tensors
 * over them and returns 0. A blocks job has several sets of buffers and calls `bind` again with
 * another set before a block that runs on it: the calls that follow use the tensors of the last
 * binding. `call(context, failure, capacity)` runs run_kernel() once and
 * returns 0, or nonzero after writing {"status", "reason", "detail"} as JSON into `failure`.
 * `facts(context, out, capacity)` is asked once at the end for a JSON object of what the
 * runner adds to the result (what Triton compiled, torch's facts).
 *
 * The compute libraries loaded when this library was loaded are the baseline: load it after
 * torch and triton and before the kernel module, so that a library the module's code loads
 * counts as its own.
 *
 * The result document is written to `result_path`, and then the process ends at once
 * (_exit(0)), so no code of the module runs after it. The function returns only on an
 * environment or usage problem: nonzero, with *error set to the one-line reason. */
typedef int (*kopt_bind_callback)(void* context, const char* buffers_json);
typedef int (*kopt_text_callback)(void* context, char* text, size_t capacity);
KOPT_HARNESS_API int kopt_run_kernel_job(const char* job_json, const char* kernel_setup_json, const char* result_path,
                                         kopt_bind_callback bind, kopt_text_callback call, kopt_text_callback facts,
                                         void* context, char** error);

/* A Python reference for a CUDA kernel, run in the runner: the inputs of every key of the
 * reference's bench job (`job_json`, role "reference") made again on the device from the key,
 * as the kernel's process made them (its generator, the same seeds), with no copy of them
 * crossing between processes.
 *
 * `bind(context, buffers_json)` gets kopt's buffers once, as for kopt_run_kernel_job. Then for
 * each key, its inputs made and its outputs poisoned, `each(context, key_json, failure,
 * capacity)` is called with {"kind": "seed"|"call", "value": N}: the runner calls the reference
 * on its tensors over the buffers and returns 0 once the device is done, and kopt writes the
 * outputs into the key's evidence folder. Unless the job only validates, a last call with
 * {"kind": "timing"} finds the inputs of the job's seed in the buffers, for the runner to time
 * the reference over them. A nonzero return stops at once: the runner holds its own reason.
 * Returns 0 when every key was done; 2 when a callback stopped it; 1 and *error set to a
 * one-line reason on an environment problem. */
typedef int (*kopt_key_callback)(void* context, const char* key_json, char* failure, size_t capacity);
KOPT_HARNESS_API int kopt_run_reference_keys(const char* job_json, kopt_bind_callback bind, kopt_key_callback each,
                                             void* context, char** error);

KOPT_HARNESS_API void kopt_free(char* text);

#ifdef __cplusplus
}
#endif

#endif
