// app_query: the question a daemon or driftctl asks an application's executable (AppQuery) and
// its answer (AppAnswer) round-trip through the portable archives; out-of-range kinds, reduce
// ops and bools are refused.
#include "protocol/app_query.h"

#include <gtest/gtest.h>

#include <drift/archives.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace drift {
namespace {

JobSpec query_spec() {
  JobSpec spec;
  spec.app = "particles";
  spec.tasks = 6;
  spec.steps = 250;
  spec.params = {{"particles", "10000"}, {"box", "1.5"}};
  spec.runtime = {{"chaos_migrations", "1"}};
  return spec;
}

AppAnswer sample_answer() {
  AppAnswer a;
  a.ok = true;
  a.error = "";
  a.app = "particles";
  a.options = {"--particles N  how many (default 1000)", "--box L  side of the box"};
  a.spec = query_spec();
  a.reduce_ops = {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin, ReduceOp::kSum};
  a.spare_tasks = 2;
  a.memory_per_task = std::uint64_t{3} << 30;
  a.checksum = "0123456789abcdef";
  a.details = {{"energy", "1.25"}, {"collisions", "42"}};
  return a;
}

void expect_same_answer(const AppAnswer& got, const AppAnswer& want) {
  EXPECT_EQ(got.version, want.version);
  EXPECT_EQ(got.ok, want.ok);
  EXPECT_EQ(got.error, want.error);
  EXPECT_EQ(got.app, want.app);
  EXPECT_EQ(got.options, want.options);
  EXPECT_EQ(got.spec, want.spec);
  EXPECT_EQ(got.reduce_ops, want.reduce_ops);
  EXPECT_EQ(got.spare_tasks, want.spare_tasks);
  EXPECT_EQ(got.memory_per_task, want.memory_per_task);
  EXPECT_EQ(got.checksum, want.checksum);
  EXPECT_EQ(got.details, want.details);
}

// The one byte in which two encodings differ.
std::size_t only_difference(const std::vector<std::uint8_t>& x,
                            const std::vector<std::uint8_t>& y) {
  if (x.size() != y.size()) throw std::logic_error("encodings of different sizes");
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] != y[i]) at.push_back(i);
  }
  if (at.size() != 1) throw std::logic_error("encodings differ in " + std::to_string(at.size()));
  return at[0];
}

TEST(AppQuery, EveryKindRoundTrips) {
  for (AppQueryKind kind : {AppQueryKind::kInfo, AppQueryKind::kValidate, AppQueryKind::kSerial,
                            AppQueryKind::kCombine}) {
    AppQuery q;
    q.kind = kind;
    q.spec = query_spec();
    if (kind == AppQueryKind::kCombine) q.results = {{1, 2, 3}, {}, {255}};
    AppQuery back;
    back.version = 0;
    const Status s = decode_portable(encode_portable(q), back);
    ASSERT_TRUE(s) << s.message();
    EXPECT_EQ(back.version, kAppQueryVersion);
    EXPECT_EQ(back.kind, kind);
    EXPECT_EQ(back.spec, q.spec);
    EXPECT_EQ(back.results, q.results);
  }
}

TEST(AppQuery, AnOutOfRangeKindIsRefused) {
  AppQuery info;
  info.kind = AppQueryKind::kInfo;
  AppQuery combine;
  combine.kind = AppQueryKind::kCombine;
  std::vector<std::uint8_t> bytes = encode_portable(info);
  bytes[only_difference(bytes, encode_portable(combine))] = 4;
  AppQuery back;
  const Status s = decode_portable(bytes, back);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.message(), "enum value 4 out of range 0..3");
}

TEST(AppQuery, ATruncatedQueryIsRefused) {
  AppQuery q;
  q.kind = AppQueryKind::kCombine;
  q.spec = query_spec();
  q.results = {{1, 2, 3}};
  const std::vector<std::uint8_t> bytes = encode_portable(q);
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    AppQuery back;
    EXPECT_FALSE(decode_portable(std::span(bytes).first(cut), back)) << "cut at " << cut;
  }
}

TEST(AppAnswer, RoundTripsWithEveryReduceOp) {
  const AppAnswer answer = sample_answer();
  AppAnswer back;
  const Status s = decode_portable(encode_portable(answer), back);
  ASSERT_TRUE(s) << s.message();
  expect_same_answer(back, answer);
}

// An application built with an SDK from before memory estimates answers version 1, without
// one: it still decodes, stating none.
TEST(AppAnswer, AVersionOneAnswerDecodesWithoutAMemoryEstimate) {
  AppAnswer old = sample_answer();
  old.version = 1;
  AppAnswer back;
  const Status s = decode_portable(encode_portable(old), back);
  ASSERT_TRUE(s) << s.message();
  EXPECT_EQ(back.version, 1u);
  EXPECT_EQ(back.memory_per_task, 0u);
  EXPECT_EQ(back.spare_tasks, 2u);
  EXPECT_EQ(back.details, old.details);
  EXPECT_LT(encode_portable(old).size(), encode_portable(sample_answer()).size());
}

TEST(AppAnswer, AFailedAnswerRoundTrips) {
  AppAnswer answer;
  answer.ok = false;
  answer.error = "--box: 'x' is not a number";
  answer.app = "particles";
  AppAnswer back = sample_answer();  // overwritten, the reduce ops included
  const Status s = decode_portable(encode_portable(answer), back);
  ASSERT_TRUE(s) << s.message();
  expect_same_answer(back, answer);
}

TEST(AppAnswer, AReduceOpAboveTwoIsRefused) {
  AppAnswer sum = sample_answer();
  sum.reduce_ops = {ReduceOp::kSum};
  AppAnswer min = sample_answer();
  min.reduce_ops = {ReduceOp::kMin};
  const std::vector<std::uint8_t> good = encode_portable(sum);
  const std::size_t at = only_difference(good, encode_portable(min));
  for (std::uint8_t raw : {std::uint8_t{3}, std::uint8_t{255}}) {
    std::vector<std::uint8_t> bytes = good;
    bytes[at] = raw;
    AppAnswer back;
    const Status s = decode_portable(bytes, back);
    ASSERT_FALSE(s) << "reduce op " << int{raw} << " was taken";
    EXPECT_EQ(s.message(), "reduce op " + std::to_string(raw) + " out of range");
  }
  std::vector<std::uint8_t> max = good;
  max[at] = 2;
  AppAnswer back;
  ASSERT_TRUE(decode_portable(max, back));
  EXPECT_EQ(back.reduce_ops, std::vector<ReduceOp>{ReduceOp::kMin});
}

TEST(AppAnswer, AnOkThatIsNeitherZeroNorOneIsRefused) {
  AppAnswer yes = sample_answer();
  AppAnswer no = sample_answer();
  no.ok = false;
  std::vector<std::uint8_t> bytes = encode_portable(yes);
  bytes[only_difference(bytes, encode_portable(no))] = 2;
  AppAnswer back;
  const Status s = decode_portable(bytes, back);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.message(), "bool value 2 is neither 0 nor 1");
}

TEST(AppAnswer, TruncatedOrPaddedAnswersAreRefused) {
  const std::vector<std::uint8_t> bytes = encode_portable(sample_answer());
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    AppAnswer back;
    EXPECT_FALSE(decode_portable(std::span(bytes).first(cut), back)) << "cut at " << cut;
  }
  std::vector<std::uint8_t> padded = bytes;
  padded.push_back(0);
  AppAnswer back;
  const Status s = decode_portable(padded, back);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("trailing bytes"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace drift
