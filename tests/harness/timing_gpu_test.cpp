// GPU machine only: the timing core on a real kernel. Builds examples/vector_add.cu with
// kopt's compiler, calls it through solve_call, checks the result, then samples it hot and
// cold with CUPTI device timestamps and prints the figures.
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>

#include "compile/compiler.h"
#include "cuda/cupti_activity.h"
#include "cuda/driver_api.h"
#include "harness/call_timer.h"
#include "harness/input_fill.h"
#include "harness/l2_flush.h"
#include "harness/solve_call.h"
#include "kernel/signature.h"
#include "measure/statistics.h"
#include "support/kopt_process.h"

namespace kopt::harness {
namespace {

TEST(TimingOnGpu, VectorAddIsTimedFromDeviceTimestamps) {
  std::string problem;
  const cuda::driver_api* api = cuda::load_driver_api(&problem);
  ASSERT_NE(api, nullptr) << problem;
  ASSERT_EQ(api->init(0), CUDA_SUCCESS);
  CUdevice device = 0;
  ASSERT_EQ(api->device_get(&device, 0), CUDA_SUCCESS);
  CUcontext context = nullptr;
  ASSERT_EQ(api->primary_ctx_retain(&context, device), CUDA_SUCCESS);
  ASSERT_EQ(api->ctx_set_current(context), CUDA_SUCCESS);
  int l2 = 0;
  api->device_get_attribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device);
  int major = 0, minor = 0;
  api->device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  api->device_get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);

  cuda::activity_recorder* recorder = cuda::activity_recorder::start(&problem);
  ASSERT_NE(recorder, nullptr) << problem;
  cuda::launch_attribution* attribution = cuda::launch_attribution::start(&problem);
  ASSERT_NE(attribution, nullptr) << problem;

  const auto source = testing::source_dir() / "examples" / "vector_add.cu";
  compile::compile_request request;
  request.kernel_file = source;
  request.device = compile::compute_capability{major, minor};
  const compile::compile_result built = compile::compile_kernel(request);
  ASSERT_TRUE(built.ok()) << built.compiler_output;
  void* library = ::dlopen(built.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(library, nullptr) << ::dlerror();
  void* solve = ::dlsym(library, "solve");
  ASSERT_NE(solve, nullptr);

  const int n = 1 << 24;  // 16M floats, as in MEASURE.md's table
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  const auto f32 = *kernel::element_type_by_name("float32");
  std::vector<float> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n)), c(static_cast<std::size_t>(n));
  fill_input(std::as_writable_bytes(std::span(a)), f32, kernel::default_distribution(f32), buffer_seed(1, "A"));
  fill_input(std::as_writable_bytes(std::span(b)), f32, kernel::default_distribution(f32), buffer_seed(1, "B"));
  CUdeviceptr da = 0, db = 0, dc = 0;
  ASSERT_EQ(api->mem_alloc(&da, bytes), CUDA_SUCCESS);
  ASSERT_EQ(api->mem_alloc(&db, bytes), CUDA_SUCCESS);
  ASSERT_EQ(api->mem_alloc(&dc, bytes), CUDA_SUCCESS);
  api->memcpy_htod(da, a.data(), bytes);
  api->memcpy_htod(db, b.data(), bytes);
  api->memset_d32(dc, 0x7fc0ffee, static_cast<std::size_t>(n));

  const auto signature = kernel::parse_signature(
      "extern \"C\" void solve(const float* A, const float* B, float* C, int N) {}", "vector_add");
  solve_call call(solve, signature);
  call.set_pointer(0, reinterpret_cast<void*>(da));
  call.set_pointer(1, reinterpret_cast<void*>(db));
  call.set_pointer(2, reinterpret_cast<void*>(dc));
  call.set_scalar(3, kernel::scalar_value{std::int64_t{n}});

  call_timer hot(*api, *recorder, attribution, nullptr);
  std::uint64_t window = 0;
  const call_sample first = hot.time_call([&] { call.invoke(); }, ++window);
  EXPECT_EQ(first.foreign, "");
  EXPECT_EQ(first.span_ns, first.kernel_ns) << "one kernel: its span is its duration";
  EXPECT_EQ(first.kernels, 1);
  EXPECT_EQ(first.streams, 1);
  api->memcpy_dtoh(c.data(), dc, bytes);
  for (std::size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "at " << i;

  l2_flusher flusher(*api, static_cast<std::size_t>(l2));
  call_timer cold(*api, *recorder, attribution, &flusher);
  std::vector<double> hot_us, cold_us, host_us;
  for (int i = 0; i < 200; ++i) {
    const call_sample h = hot.time_call([&] { call.invoke(); }, ++window);
    const call_sample k = cold.time_call([&] { call.invoke(); }, ++window);
    ASSERT_EQ(h.kernels, 1);
    ASSERT_EQ(k.kernels, 1) << "the flush kernel leaked into the sample";
    hot_us.push_back(h.kernel_ns / 1000.0);
    cold_us.push_back(k.kernel_ns / 1000.0);
    host_us.push_back(h.host_ns / 1000.0);
  }
  const auto hot_stats = measure::summarize(hot_us);
  const auto cold_stats = measure::summarize(cold_us);
  const auto host_stats = measure::summarize(host_us);
  std::printf("vector_add N=%d, 200 samples each (device timestamps, CUPTI)\n", n);
  std::printf("  hot  GPU median %.2f us  [%.2f, %.2f]  p10 %.2f  p90 %.2f\n", hot_stats.median,
              hot_stats.median_ci95.low, hot_stats.median_ci95.high, hot_stats.p10, hot_stats.p90);
  std::printf("  cold GPU median %.2f us  [%.2f, %.2f]  p10 %.2f  p90 %.2f\n", cold_stats.median,
              cold_stats.median_ci95.low, cold_stats.median_ci95.high, cold_stats.p10, cold_stats.p90);
  std::printf("  host end-to-end median %.2f us (launch + synchronize)\n", host_stats.median);
  std::printf("  dropped CUPTI records: %llu\n", static_cast<unsigned long long>(recorder->dropped_records()));
  // 16M floats move 192 MiB: at most ~4.8 TB/s on an H200, so >= 40 us; host time must exceed GPU time.
  EXPECT_GT(hot_stats.median, 30.0);
  EXPECT_LT(hot_stats.median, 500.0);
  EXPECT_GT(host_stats.median, hot_stats.median);
  EXPECT_EQ(recorder->dropped_records(), 0u);

  api->mem_free(da);
  api->mem_free(db);
  api->mem_free(dc);
}

}  // namespace
}  // namespace kopt::harness
