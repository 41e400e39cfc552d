// The tune cache: an entry is kept per configuration and read back marked cached; holds() says
// whether one is kept without reading it (the builds ahead ask it for every upcoming
// configuration), and a result kept for another GPU or other dimensions is not this tune's.
#include "tune/tune_cache.h"

#include <gtest/gtest.h>

#include "core/files.h"
#include "support/kopt_process.h"
#include "support/recorded_h200.h"
#include "support/recorded_tune.h"

namespace kopt::tune {
namespace {

class TuneCache : public ::testing::Test {
 protected:
  tune_request request(const std::string& n) const {
    tune_request r;
    r.bench.target.kernel = m_dir.path() / "tiled_add.cu";
    r.bench.target.ref = testing::source_dir() / "examples" / "vector_add_ref.cu";
    r.bench.target.dims = {{"N", n}};
    r.cache_folder = m_dir.path() / "cache";
    return r;
  }

  testing::scratch_dir m_dir;
  const std::string m_source =
      pipeline::tunable_vector_add((testing::source_dir() / "examples" / "vector_add.cu").string());
  const kernel::tune_configuration m_block_128{{{"BLOCK", 128}, {"VEC", 2}}};
};

TEST_F(TuneCache, KeepsAConfigurationsResultAndReadsItBackMarkedCached) {
  const tune_cache cache(request("1048576"), m_source, pipeline::recorded_h200());
  EXPECT_FALSE(cache.holds(m_block_128));
  EXPECT_FALSE(cache.read(m_block_128).has_value());
  measured_configuration m;
  m.configuration = m_block_128.text();
  m.defines = m_block_128.defines();
  m.status = "ok";
  m.median_ms = 0.015;
  cache.keep(m_block_128, m);
  EXPECT_TRUE(cache.holds(m_block_128));
  const auto back = cache.read(m_block_128);
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(back->cached);
  EXPECT_EQ(back->median_ms, std::optional<double>(0.015));
  EXPECT_FALSE(cache.holds(kernel::tune_configuration{{{"BLOCK", 64}, {"VEC", 2}}}));

  const tune_cache other_shape(request("4096"), m_source, pipeline::recorded_h200());
  EXPECT_FALSE(other_shape.holds(m_block_128)) << "kept for other dimensions";
  env::gpu_probe_result another_card = pipeline::recorded_h200();
  another_card.devices.front().uuid += "-another";
  const tune_cache other_gpu(request("1048576"), m_source, another_card);
  EXPECT_FALSE(other_gpu.holds(m_block_128)) << "kept for another GPU";
}

TEST_F(TuneCache, WithoutAFolderNothingIsKept) {
  tune_request r = request("1048576");
  r.cache_folder.reset();
  const tune_cache cache(r, m_source, pipeline::recorded_h200());
  measured_configuration m;
  m.status = "ok";
  m.median_ms = 0.015;
  cache.keep(m_block_128, m);
  EXPECT_FALSE(cache.holds(m_block_128));
}

}  // namespace
}  // namespace kopt::tune
