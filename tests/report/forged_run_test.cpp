// The agent between iterations (EXPLOITS.md #30) against `kopt report`: a run folder's record
// forged after the loop wrote it, the manifest resealed with its plain SHA-256 as an agent can,
// is exposed as tampered before any best is announced; an untouched run is verified against the
// ledger the loop kept in its memory, and a run the ledger does not know is shown unverified.
#include <filesystem>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "scripted_run.h"
#include "support/kopt_process.h"
#include "support/resealed_manifest.h"

namespace kopt::report {
namespace {

namespace fs = std::filesystem;
using kopt::testing::run_kopt;
using kopt::testing::scratch_dir;

// A run of kopt's own loop (v0..v3, v1 the best), written once for the tests of this file.
class ForgedRun : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_work = new scratch_dir();
    s_run = new fs::path(testing::write_scripted_run(s_work->path() / "work"));
  }
  static void TearDownTestSuite() {
    delete s_run;
    delete s_work;
  }
  // A copy of the run folder kept where it was made (the ledger knows it by its path): each test
  // restores the run from the copy before and after.
  void SetUp() override {
    m_pristine = m_dir.path() / "pristine";
    fs::copy(*s_run, m_pristine, fs::copy_options::recursive);
  }
  void TearDown() override {
    fs::remove_all(*s_run);
    fs::copy(m_pristine, *s_run, fs::copy_options::recursive);
  }

  static scratch_dir* s_work;
  static fs::path* s_run;
  scratch_dir m_dir;
  fs::path m_pristine;
};

scratch_dir* ForgedRun::s_work = nullptr;
fs::path* ForgedRun::s_run = nullptr;

bool announces_a_best(const std::string& stdout_text) {
  return stdout_text.rfind("best: v", 0) == 0 || stdout_text.find("\nbest: v") != std::string::npos;
}

TEST_F(ForgedRun, TheUntouchedRunIsVerifiedAgainstTheLedger) {
  const auto r = run_kopt({"report", s_run->string()});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_TRUE(announces_a_best(r.stdout_text)) << r.stdout_text;
  EXPECT_EQ(r.stderr_text, "");
  const auto doc = nlohmann::json::parse(run_kopt({"report", s_run->string(), "--json"}).stdout_text);
  EXPECT_EQ(doc["record_check"]["status"], "verified") << doc["record_check"].dump();
}

TEST_F(ForgedRun, AManifestForgedWithARecomputedChecksumIsExposedBeforeAnyBestIsAnnounced) {
  kopt::testing::make_last_version_the_best(*s_run);
  const auto r = run_kopt({"report", s_run->string()});
  EXPECT_EQ(r.exit_code, 1) << r.stdout_text << r.stderr_text;
  EXPECT_FALSE(announces_a_best(r.stdout_text)) << r.stdout_text;
  const auto tampered = r.stdout_text.find("tampered: run_manifest.json");
  ASSERT_NE(tampered, std::string::npos) << r.stdout_text;
  EXPECT_LT(tampered, r.stdout_text.find("  v0 ")) << "said before the iterations' figures:\n" << r.stdout_text;

  const auto json_run = run_kopt({"report", s_run->string(), "--json"});
  EXPECT_EQ(json_run.exit_code, 1);
  const auto doc = nlohmann::json::parse(json_run.stdout_text);
  EXPECT_EQ(doc["record_check"]["status"], "tampered");
  EXPECT_EQ(doc["record_check"]["file"], "run_manifest.json");
  EXPECT_TRUE(doc["manifest"]["best"].is_null()) << "no best announced";
}

TEST_F(ForgedRun, AnEditedSnapshotIsNamed) {
  const fs::path snapshot = *s_run / "iter_v1" / "softmax_v1.cu";
  write_file_atomic(snapshot, read_text_file(snapshot) + "// changed\n");
  const auto r = run_kopt({"report", s_run->string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.stdout_text.find("tampered: iter_v1/softmax_v1.cu"), std::string::npos) << r.stdout_text;
  EXPECT_FALSE(announces_a_best(r.stdout_text)) << r.stdout_text;
}

// Moved to another place (or machine): nothing to check it against, which is said, not refused.
TEST_F(ForgedRun, ARunTheLedgerDoesNotKnowIsUnverifiedNotRefused) {
  const fs::path moved = m_dir.path() / "moved_run";
  fs::copy(*s_run, moved, fs::copy_options::recursive);
  const auto r = run_kopt({"report", moved.string()});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_TRUE(announces_a_best(r.stdout_text)) << r.stdout_text;
  EXPECT_EQ(r.stderr_text.rfind("kopt: warning: run folder " + moved.string() + " is unverified", 0), 0u)
      << r.stderr_text;
  const auto doc = nlohmann::json::parse(run_kopt({"report", moved.string(), "--json"}).stdout_text);
  EXPECT_EQ(doc["record_check"]["status"], "unverified") << doc["record_check"].dump();
}

}  // namespace
}  // namespace kopt::report
