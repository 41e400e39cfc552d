// The one-definition documents: what their writer writes and what their reader refuses, by name.
#include "core/document.h"

#include <gtest/gtest.h>

#include "core/json_limits.h"

namespace kopt {
namespace {

enum class colour { red, green };
BOOST_DESCRIBE_ENUM(colour, red, green)

struct sample_point {
  double ms = 0;
  std::optional<int> mhz;
};
BOOST_DESCRIBE_STRUCT(sample_point, (), (ms, mhz))

struct sample_report {
  static constexpr std::string_view document_schema = "kopt.sample_report/v1";
  std::string status;
  colour tint = colour::red;
  std::uint64_t seed = 0;
  int warmup = 0;
  std::vector<sample_point> points;
  std::map<std::string, double> phases_s;
  std::optional<std::string> reason;
  json facts = nullptr;
};
BOOST_DESCRIBE_STRUCT(sample_report, (), (status, tint, seed, warmup, points, phases_s, reason, facts))

}  // namespace

template <>
inline constexpr auto document_ranges<sample_report> = std::make_tuple(within(&sample_report::warmup, 0,
                                                                              1000));
template <>
inline constexpr auto document_ranges<sample_point> = std::make_tuple(within(&sample_point::mhz, 1, 5000));

namespace {

sample_report example() {
  sample_report r;
  r.status = "ok";
  r.tint = colour::green;
  r.seed = std::uint64_t{1} << 63;
  r.warmup = 3;
  r.points = {{0.5, 1980}, {0.25, std::nullopt}};
  r.phases_s = {{"timing", 0.25}};
  r.facts = json{{"torch", "2.11.0"}};
  return r;
}

// The message of the document_error that reading `document` throws ("" when it reads).
std::string refusal(const json& document) {
  try {
    (void)from_document<sample_report>(document);
  } catch (const document_error& e) {
    return e.headline();
  }
  return "";
}

TEST(Document, TheWriterPutsTheSchemaFirstAndEveryFieldInOrder) {
  const json written = to_document(example());
  std::vector<std::string> keys;
  for (const auto& [key, value] : written.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"schema", "status", "tint", "seed", "warmup", "points",
                                            "phases_s", "reason", "facts"}));
  EXPECT_EQ(written["schema"], "kopt.sample_report/v1");
  EXPECT_EQ(written["tint"], "green");
  EXPECT_TRUE(written["reason"].is_null());
  EXPECT_TRUE(written["points"][1]["mhz"].is_null());
}

TEST(Document, WhatTheWriterWritesTheReaderReadsBack) {
  const sample_report back = from_document<sample_report>(to_document(example()));
  EXPECT_EQ(back.status, "ok");
  EXPECT_EQ(back.tint, colour::green);
  EXPECT_EQ(back.seed, std::uint64_t{1} << 63);
  ASSERT_EQ(back.points.size(), 2U);
  EXPECT_EQ(back.points[0].mhz, 1980);
  EXPECT_EQ(back.points[1].mhz, std::nullopt);
  EXPECT_EQ(back.phases_s.at("timing"), 0.25);
  EXPECT_EQ(back.facts["torch"], "2.11.0");
  EXPECT_EQ(to_document(back), to_document(example()));
}

TEST(Document, AnOptionalFieldMayBeAbsent) {
  json document = to_document(example());
  document.erase("reason");
  EXPECT_EQ(refusal(document), "");
}

TEST(Document, TheReaderNamesTheFieldItRefuses) {
  json document = to_document(example());
  document["points"][1]["ms"] = "fast";
  EXPECT_EQ(refusal(document), "field points[1].ms: must be a number, found string \"fast\"");

  document = to_document(example());
  document.erase("status");
  EXPECT_EQ(refusal(document), "field status: is missing");

  document = to_document(example());
  document["statuss"] = "ok";
  EXPECT_EQ(refusal(document),
            "field statuss: is not a field of this document (one of another kopt version?)");

  document = to_document(example());
  document["tint"] = "blue";
  EXPECT_EQ(refusal(document), "field tint: is \"blue\", not one of red, green");

  document = to_document(example());
  document["points"] = "none";
  EXPECT_EQ(refusal(document), "field points: must be an array, found string \"none\"");
}

TEST(Document, ASchemaOfAnotherVersionIsRefused) {
  json document = to_document(example());
  document["schema"] = 5;
  EXPECT_EQ(refusal(document),
            "field schema: is 5, expected \"kopt.sample_report/v1\" (a document of another kopt "
            "version, or not kopt's)");
  document.erase("schema");
  EXPECT_NE(refusal(document).find("field schema: is missing"), std::string::npos);
}

TEST(Document, NumbersOutsideTheirTypeOrDeclaredRangeAreRefused) {
  json document = to_document(example());
  document["warmup"] = 99999999999;
  EXPECT_EQ(refusal(document), "field warmup: is 99999999999, out of this field's range");
  document["warmup"] = 1001;
  EXPECT_EQ(refusal(document), "field warmup: is 1001, must be between 0 and 1000");
  document["warmup"] = 2.5;
  EXPECT_EQ(refusal(document), "field warmup: must be a whole number, found number 2.5");
  document = to_document(example());
  document["seed"] = -1;
  EXPECT_EQ(refusal(document), "field seed: is -1, must not be negative");
  document = to_document(example());
  document["points"][0]["mhz"] = 0;
  EXPECT_EQ(refusal(document), "field points[0].mhz: is 0, must be between 1 and 5000");
}

struct peer_message {
  static constexpr bool document_open = true;
  std::string method;
  std::optional<int> id;
};
BOOST_DESCRIBE_STRUCT(peer_message, (), (method, id))

TEST(Document, AnOpenDocumentPassesOverFieldsItDoesNotListButChecksThoseItDoes) {
  const peer_message read = from_document<peer_message>(json{{"method", "ping"}, {"_meta", {{"x", 1}}}, {"id", 3}});
  EXPECT_EQ(read.method, "ping");
  EXPECT_EQ(read.id, 3);
  try {
    (void)from_document<peer_message>(json{{"method", 5}, {"later", true}});
    FAIL() << "a method of the wrong type was read";
  } catch (const document_error& e) {
    EXPECT_EQ(e.headline(), "field method: must be a string, found number 5");
  }
}

TEST(CheckedJson, TooDeepTooLargeAndOverflowingTextsAreOneError) {
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  try {
    (void)parse_json_checked(deep);
    FAIL() << "a 200,000-deep text was read";
  } catch (const document_error& e) {
    EXPECT_EQ(e.headline(), "arrays and objects nested deeper than 64 levels");
  }
  EXPECT_NO_THROW((void)parse_json_checked(std::string(64, '[') + std::string(64, ']')));
  EXPECT_THROW((void)parse_json_checked(std::string(65, '[') + std::string(65, ']')), document_error);
  try {
    (void)parse_json_checked(R"({"ms": 1e999})");
    FAIL() << "1e999 was read";
  } catch (const document_error& e) {
    EXPECT_NE(e.headline().find("a number beyond the range of a double"), std::string::npos) << e.headline();
  }
  EXPECT_THROW((void)parse_json_checked("{\"a\": 1", {}), document_error);
  EXPECT_THROW((void)parse_json_checked("[1, 2, 3]", json_limits{64, 4}), document_error);
}

TEST(CheckedJson, AWrappedErrorSaysWhereAndWhatToDo) {
  const document_error e("kernel.median_ms", "must be a number, found string \"x\"");
  EXPECT_STREQ(
      e.in("run/benchmark_result.json", "run kopt bench again").what(),
      "run/benchmark_result.json: field kernel.median_ms: must be a number, found string \"x\"; run kopt "
      "bench again");
}

}  // namespace
}  // namespace kopt
