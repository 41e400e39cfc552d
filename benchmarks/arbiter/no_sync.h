// Force-included (nvcc -include) when the graph arbiter builds a kernel's library: solve()s
// written for the Python toolkit end with cudaDeviceSynchronize(), which a stream capture
// cannot contain. Here it does nothing; the graph's end is the synchronisation. The runtime's
// header is included first, so its own declarations are untouched.
#pragma once
#include <cuda_runtime.h>

static inline cudaError_t kopt_arbiter_no_device_sync() { return cudaSuccess; }
static inline cudaError_t kopt_arbiter_no_stream_sync(cudaStream_t) { return cudaSuccess; }
#define cudaDeviceSynchronize kopt_arbiter_no_device_sync
#undef cudaStreamSynchronize  // a macro of its own under --default-stream per-thread
#define cudaStreamSynchronize kopt_arbiter_no_stream_sync
