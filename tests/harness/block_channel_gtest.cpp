// The channel of a comparison in turns, both ends over a real socket pair: requests are call
// counts, replies are numbered and sealed, and a reply without the seal, with another key or
// answering another request is refused by the parent's side.
#include "harness/block_channel.h"

#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include <gtest/gtest.h>

#include "core/error.h"
#include "support/timings.h"

namespace kopt::harness {
namespace {

struct socket_pair {
  int parent = -1;
  int child = -1;
  socket_pair() {
    int ends[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, ends), 0);
    parent = ends[0];
    child = ends[1];
  }
  ~socket_pair() {
    if (parent >= 0) ::close(parent);
    if (child >= 0) ::close(child);
  }
  void send(const std::string& text) const {
    ASSERT_EQ(::write(parent, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }
  std::string receive() const {
    std::string text(4096, '\0');
    const ssize_t n = ::read(parent, text.data(), text.size());
    text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return text;
  }
};

TEST(BlockChannel, ARequestIsACountAndItsReplyIsSealedAndNumbered) {
  socket_pair pair;
  block_channel channel(pair.child, std::string("secret key"));
  pair.send("64\n25\n");
  EXPECT_EQ(channel.next_request(), std::optional<int>(64));
  block_reply reply;
  reply.timing = testing::timing_around(0.5);
  reply.placement = 3;
  channel.reply(reply);
  const std::string first = pair.receive();
  const auto document = read_block_reply(first, "secret key", 1);
  ASSERT_TRUE(document.has_value()) << first;
  ASSERT_TRUE(document->timing.has_value());
  EXPECT_EQ(document->timing->median_ms, reply.timing->median_ms);
  EXPECT_EQ(document->placement, 3);
  // The same reply cannot stand for the next block, nor be read with another key.
  EXPECT_FALSE(read_block_reply(first, "secret key", 2).has_value());
  EXPECT_FALSE(read_block_reply(first, "another key", 1).has_value());
  // Unsealed text is refused where a key was given.
  EXPECT_FALSE(read_block_reply("{\"block\":1,\"status\":\"ok\"}\n", "secret key", 1).has_value());

  EXPECT_EQ(channel.next_request(), std::optional<int>(25));
  channel.reply(block_reply{.status = run_status::failed, .reason = "host thread: work after solve() returned"});
  const auto failed = read_block_reply(pair.receive(), "secret key", 2);
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->status, run_status::failed);
  EXPECT_EQ(failed->reason, "host thread: work after solve() returned");
  ::close(pair.parent);
  pair.parent = -1;
  EXPECT_FALSE(channel.next_request().has_value());  // the parent is done
}

TEST(BlockChannel, AReplyItsReaderRefusesIsNoReply) {
  // Unsealed here (no key) so that only the document's shape is at stake.
  EXPECT_FALSE(read_block_reply("{\"block\":1,\"status\":\"ok\"}", "", 1).has_value());
  EXPECT_FALSE(read_block_reply("{\"block\":1,\"status\":\"fine\",\"reason\":\"\",\"timing\":null,"
                                "\"placement\":0,\"warning\":null}", "", 1).has_value());
  EXPECT_TRUE(read_block_reply("{\"block\":1,\"status\":\"ok\",\"reason\":\"\",\"timing\":null,"
                               "\"placement\":0,\"warning\":null}", "", 1).has_value());
}

TEST(BlockChannel, ARequestThatIsNotAPositiveCountIsAnError) {
  for (const char* bad : {"0\n", "-3\n", "ten\n", "12 calls\n"}) {
    socket_pair pair;
    block_channel channel(pair.child, std::nullopt);
    pair.send(bad);
    EXPECT_THROW(channel.next_request(), error) << bad;
  }
}

}  // namespace
}  // namespace kopt::harness
