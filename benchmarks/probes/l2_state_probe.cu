// What the state of the memory system before a sample does to a DRAM-bound kernel's time: the
// 16M-element vector add (C = A + B, 192 MiB moved), timed under the protocols kopt could use,
// to explain kopt's gap to ncu and to the CUDA-graph arbiter on that kernel (issue of the judge:
// "+5-6 % every round"). Each variant is 300 samples; the figure is the median of the kernel's
// own span (first block's start to last block's end, read from %globaltimer inside it) and,
// beside it, of a CUDA event pair around the launch.
//
//   nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o l2_state_probe l2_state_probe.cu && ./l2_state_probe
//
// `./l2_state_probe --only K --samples S` runs variant K alone and prints each sample's span and
// event pair ("sample N span_us X event_us Y"), so that a run under ncu can set ncu's figure for
// a launch beside the kernel's own span of the same launch (benchmarks/ncu_vs_span.py).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e = (call);                                                                \
    if (e != cudaSuccess) {                                                                \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e)); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The example's kernel, with each block's start and end recorded (stamps[2 * block] and
// [2 * block + 1]; 1 MiB of stores beside the 192 MiB moved, no atomics to contend on).
__global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n,
                           unsigned long long* stamps) {
  __shared__ unsigned long long start;
  if (threadIdx.x == 0) start = now_ns();
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    stamps[2 * blockIdx.x] = start;
    stamps[2 * blockIdx.x + 1] = now_ns();
  }
}

// kopt's flush: read a buffer twice the L2's size, leaving clean lines.
__global__ void read_flush(const int4* __restrict__ data, size_t count, int* sink) {
  int4 mix = make_int4(0, 0, 0, 0);
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) {
    const int4 v = __ldcg(data + i);
    mix.x ^= v.x; mix.y ^= v.y; mix.z ^= v.z; mix.w ^= v.w;
  }
  if ((mix.x ^ mix.y ^ mix.z ^ mix.w) == 0x6b6f7074) *sink = 1;
}

// Fresh inputs, as kopt's generator makes them before every timed call (writes every element).
__global__ void fill(float* x, int n, unsigned seed) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    x[i] = static_cast<float>((i * 2654435761u + seed) % 2001) * 0.001f - 1.0f;
  }
}

// One element per 64 KiB of a buffer: its pages' translations warm, its lines barely touched.
__global__ void touch_pages(const float* x, size_t n, float* sink) {
  float s = 0;
  for (size_t i = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) * 16384; i < n; i += size_t(gridDim.x) * blockDim.x * 16384) s += x[i];
  if (s == 12345.f) *sink = s;
}

struct buffers {
  float* a;
  float* b;
  float* c;
};

int main(int argc, char** argv) {
  int only = -1;       // --only K: one variant
  int samples = 300;   // --samples S
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--only") == 0) only = std::atoi(argv[i + 1]);
    else if (std::strcmp(argv[i], "--samples") == 0) samples = std::atoi(argv[i + 1]);
    else { std::fprintf(stderr, "usage: l2_state_probe [--only K] [--samples S]\n"); return 2; }
  }
  const int n = 16 * 1024 * 1024;
  const size_t bytes = size_t(n) * sizeof(float);
  int l2 = 0;
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  const size_t flush_bytes = 2 * size_t(l2);
  int4* flush = nullptr;
  int* sink = nullptr;
  float* fsink = nullptr;
  CHECK(cudaMalloc(&flush, flush_bytes));
  CHECK(cudaMemset(flush, 0, flush_bytes));
  CHECK(cudaMalloc(&sink, sizeof(int)));
  CHECK(cudaMalloc(&fsink, sizeof(float)));
  const int blocks = (n + 255) / 256;
  unsigned long long* stamps = nullptr;
  CHECK(cudaMalloc(&stamps, 2 * size_t(blocks) * sizeof(unsigned long long)));
  std::vector<unsigned long long> host_stamps(2 * size_t(blocks));

  // Plain allocations (2 MiB aligned), and the same with kopt's 64 KiB guard in front of each.
  const size_t guard = 64 * 1024;
  char* raw[3];
  for (auto& r : raw) CHECK(cudaMalloc(&r, bytes + 2 * guard + (2 << 20)));
  const buffers aligned{reinterpret_cast<float*>(raw[0]), reinterpret_cast<float*>(raw[1]), reinterpret_cast<float*>(raw[2])};
  const buffers guarded{reinterpret_cast<float*>(raw[0] + guard), reinterpret_cast<float*>(raw[1] + guard),
                        reinterpret_cast<float*>(raw[2] + guard)};
  cudaEvent_t before, after;
  CHECK(cudaEventCreate(&before));
  CHECK(cudaEventCreate(&after));

  struct variant {
    const char* name;
    bool kopt_guards, fresh_inputs, poison_output, flush_l2, touch, idle;
  };
  const variant variants[] = {
      {"back to back (warm, dirty C)", false, false, false, false, false, false},
      {"read flush", false, false, false, true, false, false},
      {"read flush, kopt's guard offsets", true, false, false, true, false, false},
      {"fresh inputs + poisoned C (kopt hot)", true, true, true, false, false, false},
      {"fresh inputs + poison + flush (kopt cold)", true, true, true, true, false, false},
      {"kopt cold + pages touched after the flush", true, true, true, true, true, false},
      {"kopt cold + 2 ms idle before the call", true, true, true, true, false, true},
      {"fresh inputs + poison + flush, aligned", false, true, true, true, false, false},
  };
  const int count = static_cast<int>(sizeof(variants) / sizeof(variants[0]));
  if (only >= count || samples < 1) {
    std::fprintf(stderr, "--only takes 0 to %d, --samples at least 1\n", count - 1);
    return 2;
  }
  if (only < 0) std::printf("| protocol before each sample | kernel span us (median) | event pair us (median) |\n|---|---|---|\n");
  for (int index = 0; index < count; ++index) {
    if (only >= 0 && index != only) continue;
    const variant& v = variants[index];
    const buffers& use = v.kopt_guards ? guarded : aligned;
    std::vector<double> spans, events;
    for (int sample = -20; sample < samples; ++sample) {
      if (v.fresh_inputs) {
        fill<<<1024, 256>>>(use.a, n, 2 * sample + 1);
        fill<<<1024, 256>>>(use.b, n, 2 * sample + 2);
      }
      if (v.poison_output) CHECK(cudaMemsetAsync(use.c, 0xff, bytes));
      if (v.flush_l2) read_flush<<<1024, 256>>>(flush, flush_bytes / 16, sink);
      if (v.touch) {
        touch_pages<<<64, 256>>>(use.a, n, fsink);
        touch_pages<<<64, 256>>>(use.b, n, fsink);
        touch_pages<<<64, 256>>>(use.c, n, fsink);
      }
      CHECK(cudaDeviceSynchronize());
      if (v.idle) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      CHECK(cudaEventRecord(before));
      vector_add<<<blocks, 256>>>(use.a, use.b, use.c, n, stamps);
      CHECK(cudaEventRecord(after));
      CHECK(cudaEventSynchronize(after));
      CHECK(cudaMemcpy(host_stamps.data(), stamps, host_stamps.size() * sizeof(unsigned long long),
                       cudaMemcpyDeviceToHost));
      unsigned long long first = ~0ull, last = 0;
      for (int blk = 0; blk < blocks; ++blk) {
        first = std::min(first, host_stamps[2 * blk]);
        last = std::max(last, host_stamps[2 * blk + 1]);
      }
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, before, after));
      if (sample < 0) continue;  // warm-up
      spans.push_back(double(last - first) / 1000.0);
      events.push_back(ms * 1000.0);
      if (only >= 0) std::printf("sample %d span_us %.3f event_us %.3f\n", sample, spans.back(), events.back());
    }
    if (only >= 0) continue;
    std::sort(spans.begin(), spans.end());
    std::sort(events.begin(), events.end());
    std::printf("| %s | %.2f | %.2f |\n", v.name, spans[spans.size() / 2], events[events.size() / 2]);
  }
  return 0;
}
