// The checks of one run in the memory that holds the buffers (host memory here, as for a Triton
// module under Triton's interpreter; device memory runs the same code with kopt's comparison
// kernel): an input changed by the kernel is named, an inout one is its own business, the
// outputs kept for the verdict are the buffers' bytes, and an output that changes after it was
// set aside (work still in flight) is named.
#include "harness/output_checks.h"

#include <cstring>

#include <gtest/gtest.h>

#include "harness/evidence_files.h"
#include "harness/outputs_settled.h"
#include "support/kopt_process.h"

namespace kopt::harness {
namespace {

kernel::kernel_plan axpy_plan() {
  const std::string source = "// kopt: inout(z)\nextern \"C\" void solve(const float* x, float* y, float* z, int N) {}\n";
  return kernel::plan_kernel("axpy.cu", source, std::nullopt, {{"N", "1000"}}, std::nullopt, {});
}

// Writes `value` into element `at` of buffer `i`, as a kernel would.
void poke(device_buffers& buffers, std::size_t i, std::size_t at, float value) {
  std::memcpy(reinterpret_cast<float*>(buffers.data(i)) + at, &value, sizeof value);
}

class OutputChecks : public ::testing::Test {
 protected:
  OutputChecks() : m_memory(make_host_memory()), m_plan(axpy_plan()), m_kernel(*m_memory, m_plan.buffers),
                   m_pristine(*m_memory, m_plan.buffers) {
    buffer_contents contents(m_plan.buffers.size());
    for (std::size_t i = 0; i < m_plan.buffers.size(); ++i) {
      contents[i].assign(static_cast<std::size_t>(m_plan.buffers[i].bytes), std::byte{0x3c});
    }
    m_kernel.prepare(contents);
    copy_inputs(m_plan, m_kernel, m_pristine);
  }

  std::unique_ptr<buffer_memory> m_memory;
  kernel::kernel_plan m_plan;
  device_buffers m_kernel;
  device_buffers m_pristine;
};

TEST_F(OutputChecks, UnchangedInputsPass) { EXPECT_EQ(check_guards_and_inputs(m_plan, m_kernel, m_pristine), std::nullopt); }

TEST_F(OutputChecks, AWriteIntoAnInputIsNamedEvenInItsLastByte) {
  poke(m_kernel, 0, 999, 1.5f);
  EXPECT_EQ(check_guards_and_inputs(m_plan, m_kernel, m_pristine),
            "write into input: the kernel wrote into its input x (declared const)");
}

TEST_F(OutputChecks, OutputsAndInoutBuffersMayChange) {
  poke(m_kernel, 1, 0, 2.0f);  // y: out
  poke(m_kernel, 2, 7, 3.0f);  // z: inout
  EXPECT_EQ(check_guards_and_inputs(m_plan, m_kernel, m_pristine), std::nullopt);
}

TEST_F(OutputChecks, TheOutputsKeptForTheVerdictAreTheBuffersBytes) {
  testing::scratch_dir dir;
  poke(m_kernel, 1, 3, 4.0f);
  const evidence_key key{evidence_kind::call, 9, "timed"};
  write_evidence(dir.path(), key, m_plan, m_kernel);
  const mapped_evidence back = read_evidence(dir.path(), key, m_plan, "the kernel's measuring process");
  ASSERT_EQ(back.buffers.size(), 3u);
  EXPECT_TRUE(back.buffers[0].empty());  // x is an input
  ASSERT_EQ(back.buffers[1].size(), 4000u);
  float y3 = 0;
  std::memcpy(&y3, back.buffers[1].data() + 3 * sizeof(float), sizeof y3);
  EXPECT_EQ(y3, 4.0f);
  EXPECT_EQ(std::memcmp(back.buffers[2].data(), reinterpret_cast<const void*>(m_kernel.data(2)), 4000), 0);
}

TEST_F(OutputChecks, OutputsThatStayAsTheyWereSetAsideAreFinal) {
  poke(m_kernel, 1, 3, 4.0f);
  poke(m_kernel, 2, 7, 3.0f);
  set_outputs_aside(m_plan, m_kernel, m_pristine);
  EXPECT_EQ(outputs_changed_since_set_aside(m_plan, m_kernel, m_pristine), std::nullopt);
  // The inputs of the set aside are untouched: it stays the pristine copy the inputs are checked against.
  EXPECT_EQ(check_guards_and_inputs(m_plan, m_kernel, m_pristine), std::nullopt);
}

TEST_F(OutputChecks, AnOutputWrittenAfterItWasSetAsideIsWorkInFlight) {
  set_outputs_aside(m_plan, m_kernel, m_pristine);
  poke(m_kernel, 2, 999, 5.0f);  // z's last element, written by work still running
  EXPECT_EQ(outputs_changed_since_set_aside(m_plan, m_kernel, m_pristine),
            "output z changed after the call returned and kopt had synchronised: work still in flight was writing "
            "it while kopt read it");
  set_outputs_aside(m_plan, m_kernel, m_pristine);
  poke(m_kernel, 1, 0, 6.0f);  // y's first
  EXPECT_NE(outputs_changed_since_set_aside(m_plan, m_kernel, m_pristine).value_or("").find("output y changed"),
            std::string::npos);
}

}  // namespace
}  // namespace kopt::harness
