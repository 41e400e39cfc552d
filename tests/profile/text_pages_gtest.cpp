// ncu's pages for people through a stand-in ncu (fake_ncu.h): written at once, or by a kopt
// process of their own that outlives the call that started it (the loop's iterations).
#include "profile/text_pages.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "core/files.h"
#include "core/subprocess.h"
#include "profile/fake_ncu.h"
#include "support/kopt_process.h"

namespace kopt::profile {
namespace {
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::scratch_dir;

text_page_files pages_in(const scratch_dir& dir) {
  const fs::path report = dir.write("out/full.ncu-rep", "the report");
  return {report, dir.path() / "out" / "full_summary.txt", dir.path() / "out" / "full_details.txt"};
}

// Polls for a file another process writes; false when it has not come within `limit`.
bool appears(const fs::path& file, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!fs::exists(file)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(50ms);
  }
  return true;
}

TEST(TextPages, WritesTheSummaryAndDetailsAsNcuPrintsThem) {
  const scratch_dir dir;
  const auto ncu = fake_ncu(dir, "echo '\"ID\"'", "echo '\"Line\"'");
  const text_page_files files = pages_in(dir);
  const text_pages_written written = write_text_pages(ncu, files);
  EXPECT_TRUE(written.summary);
  EXPECT_TRUE(written.details);
  EXPECT_EQ(read_text_file(files.summary), "k(int) summary\n");
  EXPECT_EQ(read_text_file(files.details), "Section: GPU Speed Of Light Throughput\n");
}

TEST(TextPages, APageNcuCannotPrintIsLeftOutNotAnError) {
  const scratch_dir dir;
  const auto ncu = fake_ncu(dir, "echo '\"ID\"'", "echo '\"Line\"'", "echo '==ERROR== no summary' >&2; exit 1");
  const text_page_files files = pages_in(dir);
  const text_pages_written written = write_text_pages(ncu, files);
  EXPECT_FALSE(written.summary);
  EXPECT_FALSE(fs::exists(files.summary));
  EXPECT_TRUE(written.details) << "the other page does not depend on it";
}

// A newer profile published into the folder while the pages of the older one were printed:
// the older pages must not land beside the newer report.
TEST(TextPages, AReportReplacedMeanwhileGetsNoPagesOfTheOldOne) {
  const scratch_dir dir;
  const auto ncu = fake_ncu(dir, "echo '\"ID\"'", "echo '\"Line\"'", "sleep 1; echo 'old summary'");
  const text_page_files files = pages_in(dir);
  std::future<text_pages_written> printing = std::async(std::launch::async, [&] { return write_text_pages(ncu, files); });
  std::this_thread::sleep_for(300ms);
  const fs::path newer = dir.write("out/newer.ncu-rep", "a newer report");
  fs::rename(newer, files.report);
  const text_pages_written written = printing.get();
  EXPECT_FALSE(written.summary);
  EXPECT_FALSE(fs::exists(files.summary)) << read_text_file(files.summary);
}

// What the loop does: the call returns at once, and `kopt text-pages` writes the pages after.
TEST(TextPages, AKoptProcessOfTheirOwnWritesThemAfterTheCallReturns) {
  const scratch_dir dir;
  const auto ncu = fake_ncu(dir, "echo '\"ID\"'", "echo '\"Line\"'", "sleep 2; echo 'k(int) summary'");
  const text_page_files files = pages_in(dir);
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(start_in_background({.argv = text_pages_argv(testing::kopt_binary(), ncu, files)}), "");
  EXPECT_LT(std::chrono::steady_clock::now() - started, 1s) << "the call waited for ncu";
  EXPECT_FALSE(fs::exists(files.summary)) << "ncu takes 2 s to print it";
  ASSERT_TRUE(appears(files.summary, 30s));
  EXPECT_EQ(read_text_file(files.summary), "k(int) summary\n");
  ASSERT_TRUE(appears(files.details, 30s));
}

TEST(TextPages, AProgramThatCannotStartIsSaidAtOnce) {
  EXPECT_NE(start_in_background({.argv = {"/nonexistent/kopt", "text-pages"}}).find("not found"), std::string::npos);
}

}  // namespace
}  // namespace kopt::profile
