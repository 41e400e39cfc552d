// What kopt shows of a memory's location: a PostgreSQL URL without its password, wherever the
// password was given; a path as it is.
#include "memory/memory_location.h"

#include <gtest/gtest.h>

namespace kopt::memory {
namespace {

TEST(MemoryLocation, APasswordIsNeverShown) {
  EXPECT_EQ(shown_location("postgresql://team:s3cret@db.example:5432/kopt"), "postgresql://team@db.example:5432/kopt");
  EXPECT_EQ(shown_location("postgres://team:p@ss:word@db/kopt?sslmode=require"), "postgres://team@db/kopt?sslmode=require");
  EXPECT_EQ(shown_location("postgresql://db/kopt?user=team&password=s3cret&sslmode=require"),
            "postgresql://db/kopt?user=team&sslmode=require");
  EXPECT_EQ(shown_location("postgresql://db/kopt?password=s3cret"), "postgresql://db/kopt");
  EXPECT_EQ(shown_location("postgresql://team:s3cret@db"), "postgresql://team@db");
  EXPECT_EQ(shown_location("postgresql://team@db/kopt"), "postgresql://team@db/kopt");
}

TEST(MemoryLocation, APathIsShownAsItIs) {
  EXPECT_FALSE(is_postgresql_url("/home/me/.local/share/kopt/memory.db"));
  EXPECT_EQ(shown_location("/home/me/memory.db"), "/home/me/memory.db");
  EXPECT_EQ(shown_location("postgresql.db"), "postgresql.db");
  EXPECT_TRUE(is_postgresql_url("postgres://db/kopt"));
}

}  // namespace
}  // namespace kopt::memory
