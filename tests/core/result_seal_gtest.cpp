// The seal on a measuring child's result: only the holder of the key the parent handed over
// can make a file the parent accepts, and the key reaches the child through its descriptor.
#include "core/result_seal.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "core/hash.h"
#include "core/subprocess.h"

namespace kopt {
namespace {

TEST(ResultSeal, ASealedTextComesBackWithTheKeyAndNotWithout) {
  const std::string key(32, 'k');
  const std::string file = sealed(key, "{\"status\": \"ok\"}");
  EXPECT_EQ(unsealed(key, file), std::optional<std::string>("{\"status\": \"ok\"}"));
  EXPECT_FALSE(unsealed(std::string(32, 'x'), file).has_value()) << "another key";
  EXPECT_FALSE(unsealed(key, "{\"status\": \"ok\"}").has_value()) << "no seal at all";
  std::string changed = file;
  changed.replace(changed.find("ok"), 2, "OK");
  EXPECT_FALSE(unsealed(key, changed).has_value()) << "a text changed after sealing";
}

TEST(ResultSeal, HmacMatchesTheRfc4231TestVector) {
  // RFC 4231, test case 2.
  EXPECT_EQ(hmac_sha256_hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(ResultSeal, TheKeyReachesTheChildThroughItsDescriptorOnly) {
  const result_key key;
  const auto run = run_process({.argv = {"sh", "-c", "echo \"$KOPT_RESULT_KEY_FD\"; head -c 32 <&3 | od -An -tx1 | tr -d ' \\n'"},
                                .extra_env = {{result_key_fd_variable, "3"}},
                                .pass_fds = {{key.read_fd(), 3}}});
  ASSERT_TRUE(run.succeeded()) << run.describe_end() << run.stderr_text;
  std::string hex;
  for (const char c : key.key()) {
    static const char* digits = "0123456789abcdef";
    hex += digits[(static_cast<unsigned char>(c) >> 4) & 0xf];
    hex += digits[static_cast<unsigned char>(c) & 0xf];
  }
  EXPECT_EQ(run.stdout_text, "3\n" + hex);
  EXPECT_EQ(key.key().size(), 32u);
  const result_key other;
  EXPECT_NE(other.key(), key.key()) << "a fresh key for every child";
}

TEST(ResultSeal, AChildTakesItsKeyOnceAndTheVariableIsGone) {
  const result_key key;
  // This process as the child: the descriptor named in the variable.
  ::setenv(result_key_fd_variable, std::to_string(key.read_fd()).c_str(), 1);
  const std::optional<std::string> taken = take_result_key();
  EXPECT_EQ(taken, std::optional<std::string>(key.key()));
  EXPECT_EQ(std::getenv(result_key_fd_variable), nullptr);
  EXPECT_FALSE(take_result_key().has_value()) << "nothing named, nothing taken";
}

}  // namespace
}  // namespace kopt
