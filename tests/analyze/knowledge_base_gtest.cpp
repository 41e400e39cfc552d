// The embedded knowledge base: complete (every class for every backend), well-formed, and
// strict about what it accepts.
#include <regex>
#include <set>

#include <gtest/gtest.h>

#include "analyze/knowledge_base.h"
#include "core/error.h"

namespace kopt::analyze {
namespace {

TEST(KnowledgeBase, EveryClassHasEntriesForEveryBackend) {
  for (const auto& backend : knowledge_backends()) {
    for (bottleneck cls : all_bottlenecks()) {
      EXPECT_FALSE(kb_entries_for(backend, cls).empty()) << backend << " " << to_string(cls);
    }
  }
}

TEST(KnowledgeBase, EntriesAreWellFormed) {
  const std::regex tag("[a-z0-9_-]+");
  std::set<std::string> ids;
  for (const auto& e : knowledge_base()) {
    EXPECT_TRUE(ids.insert(e.id).second) << e.id;
    EXPECT_EQ(e.id.rfind(e.backend + "-", 0), 0u) << e.id;  // ids say their backend
    EXPECT_FALSE(e.tags.empty()) << e.id;
    for (const auto& t : e.tags) EXPECT_TRUE(std::regex_match(t, tag)) << e.id << " " << t;
    EXPECT_FALSE(e.links.empty()) << e.id;
    for (const auto& l : e.links) {
      const bool official = l.rfind("https://docs.nvidia.com/", 0) == 0 || l.rfind("https://triton-lang.org/", 0) == 0;
      EXPECT_TRUE(official) << e.id << " " << l;
    }
  }
  EXPECT_GE(knowledge_base().size(), 40u);
}

TEST(KnowledgeBase, BackendSpecificAdvice) {
  ASSERT_NE(find_kb_entry("cutlass-split-k-stream-k"), nullptr);
  EXPECT_EQ(find_kb_entry("cutlass-hopper-wgmma")->when.at(0).quantity, "uses_mma");
  EXPECT_EQ(find_kb_entry("triton-persistent-kernel")->backend, "triton");
  EXPECT_EQ(find_kb_entry("no-such-entry"), nullptr);
  const auto launch = kb_entries_for("cuda", bottleneck::launch);
  EXPECT_EQ(launch.front()->id, "cuda-more-blocks");  // highest priority first
}

TEST(KnowledgeBase, RejectsBrokenFiles) {
  const auto headline = [](const std::string& text) {
    try {
      parse_knowledge(text, "bad.json");
    } catch (const error& e) {
      return std::string(e.headline());
    }
    return std::string("accepted");
  };
  const std::string head = R"({"schema": "kopt.knowledge/v1", "backend": "cuda", "entries": [)";
  const std::string entry = R"({"id": "cuda-x", "title": "t", "classes": ["dram"], "change": "c", "verify": "v", "tags": ["a_b"], "links": []})";
  EXPECT_EQ(headline(head + entry + "]}"), "accepted");
  EXPECT_EQ(headline("{").rfind("knowledge file bad.json is invalid", 0), 0u);
  EXPECT_NE(headline(R"({"schema": "kopt.knowledge/v2", "backend": "cuda", "entries": []})").find("schema"), std::string::npos);
  EXPECT_NE(headline(head + R"({"id": "cuda-x", "title": "t", "classes": ["disk"], "change": "c", "verify": "v", "tags": ["a"]})" + "]}").find("unknown class"), std::string::npos);
  EXPECT_NE(headline(head + R"({"id": "cuda-x", "title": "t", "classes": ["dram"], "change": "c", "verify": "v", "tags": ["Bad Tag"]})" + "]}").find("tag"), std::string::npos);
  EXPECT_NE(headline(head + R"({"id": "cuda-x", "title": "t", "classes": ["dram"], "when": [{"quantity": "speed", "op": "<", "value": 1}], "change": "c", "verify": "v", "tags": ["a"]})" + "]}").find("unknown quantity"), std::string::npos);
}

}  // namespace
}  // namespace kopt::analyze
