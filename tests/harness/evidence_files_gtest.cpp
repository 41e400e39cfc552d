// The outputs a measuring child leaves for the parent: written and read back byte for byte, and
// a missing or truncated file named with its side, never read as if it were complete.
#include "harness/evidence_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/error.h"
#include "harness/buffer_memory.h"
#include "support/kopt_process.h"

namespace kopt::harness {
namespace {
namespace fs = std::filesystem;

kernel::kernel_plan axpy_plan() {
  const std::string source = "extern \"C\" void solve(const float* x, float* y, int N) {}\n";
  return kernel::plan_kernel("axpy.cu", source, std::nullopt, {{"N", "5"}}, std::nullopt, {});
}

buffer_contents outputs_of(const kernel::kernel_plan& plan, std::byte fill) {
  buffer_contents outputs(plan.buffers.size());
  for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
    if (plan.buffers[i].role != kernel::buffer_role::in) outputs[i].assign(static_cast<std::size_t>(plan.buffers[i].bytes), fill);
  }
  return outputs;
}

TEST(EvidenceFiles, OutputsComeBackAsTheyWereLeft) {
  testing::scratch_dir dir;
  const kernel::kernel_plan plan = axpy_plan();
  const evidence_key key{evidence_kind::call, 41, "timed"};
  write_evidence(dir.path(), key, plan, outputs_of(plan, std::byte{0x5a}));
  const mapped_evidence back = read_evidence(dir.path(), key, plan, "the kernel's measuring process");
  ASSERT_EQ(back.buffers.size(), plan.buffers.size());
  EXPECT_TRUE(back.buffers[0].empty());  // x is an input: not part of the evidence
  ASSERT_EQ(back.buffers[1].size(), 20u);
  EXPECT_EQ(back.buffers[1][0], std::byte{0x5a});
  EXPECT_EQ(back.buffers[1][19], std::byte{0x5a});
}

// The outputs downloaded from the buffers themselves (host memory here: the device's path
// differs only in coming through a staging buffer) replace whatever file was there.
TEST(EvidenceFiles, OutputsWrittenFromTheBuffersHoldTheirBytes) {
  testing::scratch_dir dir;
  const kernel::kernel_plan plan = axpy_plan();
  const auto memory = make_host_memory();
  device_buffers buffers(*memory, plan.buffers);
  std::vector<std::byte> y(20);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<std::byte>(i + 1);
  buffers.upload(1, y);
  const evidence_key key{evidence_kind::seed, 2, "before timing"};
  write_evidence(dir.path(), key, plan, outputs_of(plan, std::byte{0x77}));  // an older, other content
  write_evidence(dir.path(), key, plan, buffers);
  const mapped_evidence back = read_evidence(dir.path(), key, plan, "the kernel's measuring process");
  ASSERT_EQ(back.buffers[1].size(), 20u);
  EXPECT_TRUE(std::equal(y.begin(), y.end(), back.buffers[1].begin()));
}

// A side's evidence is files of its own: a link (to the other side's files, say) is refused.
TEST(EvidenceFiles, ALinkedFileOrFolderIsRefused) {
  testing::scratch_dir dir;
  const kernel::kernel_plan plan = axpy_plan();
  const evidence_key seed{evidence_kind::seed, 0, "before timing"};
  write_evidence(dir.path() / "elsewhere", seed, plan, outputs_of(plan, std::byte{1}));
  fs::create_directories(dir.path() / "kernel" / "seed_0");
  fs::create_symlink(dir.path() / "elsewhere" / "seed_0" / "y.out.bin", dir.path() / "kernel" / "seed_0" / "y.out.bin");
  try {
    read_evidence(dir.path() / "kernel", seed, plan, "the kernel's measuring process");
    FAIL() << "a linked file must be refused";
  } catch (const error& e) {
    EXPECT_EQ(e.headline(), "the kernel's measuring process left y of seed_0 as a link or special file, not a file of its own");
  }
  const evidence_key call{evidence_kind::call, 3, "timed"};
  fs::create_directory_symlink(dir.path() / "elsewhere" / "seed_0", dir.path() / "kernel" / "call_3");
  try {
    read_evidence(dir.path() / "kernel", call, plan, "the kernel's measuring process");
    FAIL() << "a linked folder must be refused";
  } catch (const error& e) {
    EXPECT_EQ(e.headline(), "the kernel's measuring process left call_3 as a link or a file, not a folder of its own");
  }
}

TEST(EvidenceFiles, AMissingOrTruncatedFileNamesTheSideAndTheKey) {
  testing::scratch_dir dir;
  const kernel::kernel_plan plan = axpy_plan();
  const evidence_key key{evidence_kind::seed, 1, "before timing"};
  try {
    read_evidence(dir.path(), key, plan, "the reference's measuring process");
    FAIL() << "a missing file must be an error";
  } catch (const error& e) {
    EXPECT_EQ(e.headline(), "the reference's measuring process left no copy of y for seed_1 (20 bytes expected)");
  }
  write_evidence(dir.path(), key, plan, outputs_of(plan, std::byte{1}));
  fs::resize_file(dir.path() / "seed_1" / "y.out.bin", 8);
  try {
    read_evidence(dir.path(), key, plan, "the kernel's measuring process");
    FAIL() << "a truncated file must be an error";
  } catch (const error& e) {
    EXPECT_EQ(e.headline(), "the kernel's measuring process left 8 bytes of y for seed_1 (20 bytes expected)");
  }
}

TEST(EvidenceFiles, AMalformedKeyIsRefused) {
  EXPECT_THROW((void)from_document<evidence_key>(json{{"kind", "guess"}, {"value", 1}, {"when", ""}}), document_error);
  EXPECT_THROW((void)from_document<evidence_key>(json{{"kind", "seed"}, {"value", -1}, {"when", ""}}), document_error);
  EXPECT_THROW((void)from_document<evidence_key>(json::array()), document_error);
  EXPECT_EQ(from_document<evidence_key>(json{{"kind", "call"}, {"value", 17}, {"when", "timed"}}).value, 17U);
}

}  // namespace
}  // namespace kopt::harness
