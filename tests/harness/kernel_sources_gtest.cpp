// Ghost kernels (EXPLOITS.md #26), no GPU: the functions a library defines, read from its ELF
// symbol tables, and the verdict on the kernels the timed calls ran, from tallies recorded as
// an H200 reported them (CUPTI's mangled names; cuBLAS's for y = 2x by Scopy and Sscal).
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "harness/elf_functions.h"
#include "harness/kernel_sources.h"

// Defined here so that this test program's own symbol table holds them: one global, one local.
extern "C" int kopt_elf_probe_global(int x) { return x + 1; }
namespace {
[[gnu::noinline, gnu::used]] int kopt_elf_probe_local(int x) { return x * 3; }
}  // namespace

namespace kopt::harness {
namespace {

const std::string own_kernel = "_Z5twicePKfPfi";
const std::string decoy_kernel = "_Z5decoyv";
const std::string copy_kernel = "_Z11copy_kernelIfLi256EEviPKT_iPS0_i";       // cuBLAS Scopy
const std::string scale_kernel = "_Z11scal_kernelIffLi1ELb1ELi6ELi5ELi5ELi3EEv21cublasTransposeParamsIT0_EPKT_PS3_PKS1_";

TEST(ElfFunctions, TheFunctionsOfAnImageIncludeItsLocalOnes) {
  EXPECT_EQ(kopt_elf_probe_global(1) + kopt_elf_probe_local(1), 5);  // used, so that neither is dropped
  const auto names = function_names_in_file("/proc/self/exe");
  ASSERT_FALSE(names.empty());
  EXPECT_TRUE(names.contains("kopt_elf_probe_global"));
  EXPECT_TRUE(names.contains("_ZN12_GLOBAL__N_120kopt_elf_probe_localEi"));
  EXPECT_TRUE(names.contains("main"));
  EXPECT_FALSE(names.contains("printf"));  // undefined here: the C library's
}

TEST(ElfFunctions, AnythingButAnElfImageHasNoFunctions) {
  EXPECT_TRUE(function_names_in_elf("").empty());
  EXPECT_TRUE(function_names_in_elf("#!/bin/sh\necho not a library\n").empty());
  EXPECT_TRUE(function_names_in_file("/nonexistent/libkernel.so").empty());
  // A real image cut short: what lies within the bounds, never a read past them.
  std::ifstream in("/proc/self/exe", std::ios::binary);
  const std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(image.size(), 4096u);
  for (const std::size_t cut : {std::size_t{16}, std::size_t{64}, image.size() / 2, image.size() - 1}) {
    EXPECT_NO_THROW(function_names_in_elf(std::string_view(image).substr(0, cut)));
  }
}

// Seen on an H200: CUTLASS's device_kernel has internal linkage; its host stub is mangled with
// the `L` mark, the driver names the kernel without it.
TEST(ElfFunctions, AKernelOfInternalLinkageIsKnownByTheDriversName) {
  const std::string stub = "_ZN7cutlassL13device_kernelINS_4gemm6kernel13GemmUniversalIN4cute5tupleIJiiiiEEEEEEvNT_6ParamsE";
  const std::string driver = "_ZN7cutlass13device_kernelINS_4gemm6kernel13GemmUniversalIN4cute5tupleIJiiiiEEEEEEvNT_6ParamsE";
  EXPECT_EQ(without_internal_linkage(stub), driver);
  EXPECT_EQ(without_internal_linkage("_ZL6kernelPf"), "_Z6kernelPf");
  // Nothing else changes: template literals (Li256E), unmarked names, C names, broken names.
  EXPECT_EQ(without_internal_linkage(copy_kernel), copy_kernel);
  EXPECT_EQ(without_internal_linkage(own_kernel), own_kernel);
  EXPECT_EQ(without_internal_linkage("main"), "main");
  EXPECT_EQ(without_internal_linkage("_ZL99short"), "_ZL99short");
  EXPECT_EQ(without_internal_linkage("_ZNL"), "_ZNL");
}

child_report report_with(std::vector<kernel_set_record> sets) {
  child_report r;
  r.timed_kernel_sets = std::move(sets);
  return r;
}

TEST(KernelSources, AVersionRunningItsOwnKernelIsNotAGhost) {
  kernel_tally tally;
  for (int i = 0; i < 40; ++i) tally.add({own_kernel});
  child_report r = report_with(tally.records());
  add_kernel_sources(r, {own_kernel, "solve"}, "solve()");
  EXPECT_TRUE(r.ok()) << r.reason;
  ASSERT_EQ(r.kernels_ran.size(), 1u);
  EXPECT_EQ(r.kernels_ran[0].name, own_kernel);
  EXPECT_EQ(r.kernels_ran[0].source, kernel_source::version);
  EXPECT_EQ(r.kernels_ran[0].calls, 40u);
}

TEST(KernelSources, OnlyALibrarysKernelsIsAGhostKernel) {
  // The version's source defines twice() and never launches it; cuBLAS does the work.
  child_report r = report_with({{{copy_kernel, scale_kernel}, 120}});
  add_kernel_sources(r, {own_kernel, "solve"}, "solve()");
  EXPECT_EQ(r.status, run_status::failed);
  EXPECT_EQ(r.reason.rfind("ghost kernel: 120 of 120 timed calls ran no kernel of the version's own, only kernels it "
                           "did not compile (" + copy_kernel + ", " + scale_kernel + ")",
                           0),
            0u)
      << r.reason;
  ASSERT_EQ(r.kernels_ran.size(), 2u);
  EXPECT_EQ(r.kernels_ran[0].source, kernel_source::other);
  EXPECT_EQ(r.kernels_ran[1].source, kernel_source::other);
}

TEST(KernelSources, OwnKernelsOnlyInSomeCallsIsAGhostInTheOthers) {
  // Adaptive: its own kernel while it believes it is checked, cuBLAS when it believes it is timed.
  kernel_tally tally;
  for (int i = 0; i < 3; ++i) tally.add({own_kernel});
  for (int i = 0; i < 97; ++i) tally.add({copy_kernel, scale_kernel});
  child_report r = report_with(tally.records());
  add_kernel_sources(r, {own_kernel}, "run_kernel()");
  EXPECT_EQ(r.reason.rfind("ghost kernel: 97 of 100 timed calls", 0), 0u) << r.reason;
  EXPECT_NE(r.reason.find("run_kernel() must run a kernel compiled from its source"), std::string::npos) << r.reason;
  ASSERT_EQ(r.kernels_ran.size(), 3u);
}

TEST(KernelSources, ALibraryBesideAKernelOfItsOwnIsALibraryCallNotAGhost) {
  // A decoy of its own beside the library's work: named, source by source, and left to class 21's flag.
  child_report r = report_with({{{decoy_kernel, copy_kernel}, 50}});
  add_kernel_sources(r, {decoy_kernel}, "solve()");
  EXPECT_TRUE(r.ok()) << r.reason;
  ASSERT_EQ(r.kernels_ran.size(), 2u);  // by name: cuBLAS's _Z11... before _Z5decoyv
  EXPECT_EQ(r.kernels_ran[0].name, copy_kernel);
  EXPECT_EQ(r.kernels_ran[0].source, kernel_source::other);
  EXPECT_EQ(r.kernels_ran[1].name, decoy_kernel);
  EXPECT_EQ(r.kernels_ran[1].source, kernel_source::version);
}

TEST(KernelSources, AnEarlierFailureIsKeptAndCallsWithoutKernelsAreLeftToTheirOwnRule) {
  child_report failed = report_with({{{copy_kernel}, 5}});
  failed.status = run_status::failed;
  failed.reason = "timed call 3 (checked at random): no write: ...";
  add_kernel_sources(failed, {own_kernel}, "solve()");
  EXPECT_EQ(failed.reason, "timed call 3 (checked at random): no write: ...");
  EXPECT_EQ(failed.kernels_ran.size(), 1u);  // named all the same
  child_report none = report_with({{{}, 5}});
  add_kernel_sources(none, {own_kernel}, "solve()");
  EXPECT_TRUE(none.ok());  // "work outside kernels" is that rule's verdict, made per call while timing
  child_report untimed = report_with({});
  add_kernel_sources(untimed, {}, "solve()");
  EXPECT_TRUE(untimed.ok());
  EXPECT_TRUE(untimed.kernels_ran.empty());
}

}  // namespace
}  // namespace kopt::harness
