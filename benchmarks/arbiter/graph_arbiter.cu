// graph_arbiter: the GPU time of one solve() call with nothing of kopt's around it, the
// arbiter kopt's hot timing is compared with (benchmarks/kopt_vs_ncu.py).
//
// CALLS calls of solve() are captured into one CUDA graph and the graph is launched REPEATS
// times, each launch timed by CUDA events; a call's time is the launch's elapsed time over
// CALLS. Inside a graph the calls run back to back with no host in between, so this is the
// least a call costs on this GPU with its inputs warm in L2. The library must be built with
// `--default-stream per-thread -cudart shared` (kopt_vs_ncu.py does): its launches then go to
// the per-thread default stream, which can be captured, through the same runtime as ours.
//
// Usage: graph_arbiter LIB CALLS REPEATS ARG...     (ARGs in solve()'s order, at most 6)
//   f32:COUNT        a float buffer of COUNT elements, uniform in [-1, 1)
//   i32:COUNT:BOUND  an int buffer of COUNT elements, uniform in [0, BOUND)
//   int:VALUE        an int scalar
// solve() may take pointers and ints only: they travel in integer registers, so one
// six-register call type serves every such signature (x86-64 System V).
// Prints one JSON object: per-call times of each launch [µs] and their median.
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_runtime.h>

namespace {

__device__ std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__global__ void fill_f32(float* p, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x) {
    p[i] = static_cast<float>(mix(seed ^ i) >> 40) / static_cast<float>(1 << 24) * 2.0f - 1.0f;
  }
}

__global__ void fill_i32(int* p, std::size_t n, int bound, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x) {
    p[i] = static_cast<int>(mix(seed ^ i) % static_cast<std::uint64_t>(bound));
  }
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "graph_arbiter: %s\n", what.c_str());
  std::exit(1);
}

void check(cudaError_t rc, const char* what) {
  if (rc != cudaSuccess) fail(std::string(what) + ": " + cudaGetErrorString(rc));
}

using solve_fn = void (*)(std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t);

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5 || argc > 10) fail("usage: graph_arbiter LIB CALLS REPEATS ARG... (at most 6 ARGs)");
  const int calls = std::atoi(argv[2]);
  const int repeats = std::atoi(argv[3]);
  if (calls < 1 || repeats < 1) fail("CALLS and REPEATS must be positive");
  void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) fail(std::string("cannot load the library: ") + dlerror());
  const auto solve = reinterpret_cast<solve_fn>(dlsym(library, "solve"));
  if (solve == nullptr) fail("the library exports no solve()");

  std::uint64_t args[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 4; i < argc; ++i) {
    const std::string spec = argv[i];
    std::uint64_t& slot = args[i - 4];
    if (spec.rfind("f32:", 0) == 0) {
      const std::size_t n = std::stoull(spec.substr(4));
      float* p = nullptr;
      check(cudaMalloc(&p, n * sizeof(float)), "cudaMalloc");
      fill_f32<<<1024, 256, 0, cudaStreamPerThread>>>(p, n, static_cast<std::uint64_t>(i));
      slot = reinterpret_cast<std::uint64_t>(p);
    } else if (spec.rfind("i32:", 0) == 0) {
      const std::size_t colon = spec.find(':', 4);
      if (colon == std::string::npos) fail("i32 needs COUNT:BOUND: " + spec);
      const std::size_t n = std::stoull(spec.substr(4, colon - 4));
      const int bound = std::stoi(spec.substr(colon + 1));
      int* p = nullptr;
      check(cudaMalloc(&p, n * sizeof(int)), "cudaMalloc");
      fill_i32<<<1024, 256, 0, cudaStreamPerThread>>>(p, n, bound, static_cast<std::uint64_t>(i));
      slot = reinterpret_cast<std::uint64_t>(p);
    } else if (spec.rfind("int:", 0) == 0) {
      slot = static_cast<std::uint64_t>(static_cast<std::int64_t>(std::stoll(spec.substr(4))));
    } else {
      fail("unknown argument " + spec + " (f32:COUNT, i32:COUNT:BOUND or int:VALUE)");
    }
  }
  check(cudaDeviceSynchronize(), "filling the inputs");
  const auto call = [&] { solve(args[0], args[1], args[2], args[3], args[4], args[5]); };
  call();  // module loading and any first-call set-up stay out of the graph
  check(cudaDeviceSynchronize(), "the first call");

  cudaGraph_t graph = nullptr;
  check(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal), "beginning the capture");
  for (int i = 0; i < calls; ++i) call();
  check(cudaStreamEndCapture(cudaStreamPerThread, &graph), "capturing solve() (does it synchronise?)");
  cudaGraphExec_t exec = nullptr;
  check(cudaGraphInstantiate(&exec, graph, 0), "instantiating the graph");
  check(cudaGraphLaunch(exec, cudaStreamPerThread), "launching the graph");
  check(cudaStreamSynchronize(cudaStreamPerThread), "the first graph launch");

  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<double> per_call_us;
  for (int r = 0; r < repeats; ++r) {
    check(cudaEventRecord(start, cudaStreamPerThread), "recording");
    check(cudaGraphLaunch(exec, cudaStreamPerThread), "launching the graph");
    check(cudaEventRecord(stop, cudaStreamPerThread), "recording");
    check(cudaEventSynchronize(stop), "waiting for the graph");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    per_call_us.push_back(ms * 1000.0 / calls);
  }
  std::vector<double> sorted = per_call_us;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  std::printf("{\"calls_per_graph\": %d, \"median_us\": %.4f, \"per_call_us\": [", calls, median);
  for (std::size_t i = 0; i < n; ++i) std::printf("%s%.4f", i == 0 ? "" : ", ", per_call_us[i]);
  std::printf("]}\n");
  return 0;
}
