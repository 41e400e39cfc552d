#include "core/json_io.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "support/kopt_process.h"

namespace kopt {
namespace {

TEST(JsonIo, SchemaComesFirstAndNamesVersion) {
  const json document = with_schema("compile", 3, json{{"b", 1}, {"a", 2}});
  EXPECT_EQ(document.begin().key(), "schema");
  EXPECT_EQ(document["schema"], "kopt.compile/v3");
  EXPECT_EQ(document["b"], 1);
}

TEST(JsonIo, BytesThatAreNotUtf8AreReplacedNotThrownOn) {
  // A file name with a Latin-1 byte, as a user's disk may hold.
  const json document{{"kernel_file", std::string("k\xe9rnel.cu")}};
  EXPECT_EQ(json_text(document, -1), "{\"kernel_file\":\"k\xef\xbf\xbdrnel.cu\"}");
  testing::scratch_dir dir;
  write_json_file(dir.path() / "x.json", document);
  EXPECT_EQ(read_json_file(dir.path() / "x.json")["kernel_file"], "k\xef\xbf\xbdrnel.cu");
}

TEST(JsonIo, RoundTripsThroughAFile) {
  testing::scratch_dir dir;
  write_json_file(dir.path() / "x.json", with_schema("x", 1, json{{"k", "v"}}));
  EXPECT_EQ(read_json_file(dir.path() / "x.json")["k"], "v");
}

TEST(JsonIo, InvalidJsonNamesTheFile) {
  testing::scratch_dir dir;
  const auto path = dir.write("bad.json", "{not json");
  try {
    read_json_file(path);
    FAIL();
  } catch (const error& e) {
    EXPECT_NE(e.headline().find(path.string() + ": not valid JSON"), std::string::npos) << e.headline();
  }
}

TEST(JsonIo, AFileNestedTooDeepIsOneErrorNamingTheFile) {
  testing::scratch_dir dir;
  const auto path = dir.write("deep.json", std::string(100000, '[') + std::string(100000, ']'));
  try {
    read_json_file(path);
    FAIL();
  } catch (const error& e) {
    EXPECT_EQ(e.headline(), path.string() +
                                ": arrays and objects nested deeper than 64 levels; the file is damaged "
                                "or not the one kopt expects: restore it or make it again");
  }
}

}  // namespace
}  // namespace kopt
