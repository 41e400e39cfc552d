#include "core/hash.h"

#include <gtest/gtest.h>

namespace kopt {
namespace {

// FIPS 180 test vectors.
TEST(Hash, Sha1OfAbc) { EXPECT_EQ(sha1_hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d"); }

TEST(Hash, Sha256OfAbc) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Hash, FieldsAreLengthPrefixed) {
  const std::string ab_c = hasher().update_field("ab").update_field("c").hex_digest();
  const std::string a_bc = hasher().update_field("a").update_field("bc").hex_digest();
  EXPECT_NE(ab_c, a_bc);
}

}  // namespace
}  // namespace kopt
