// ballast's state (ballast_state.h).
#include "apps/ballast/ballast_state.h"

#include "apps/common/digest.h"

namespace drift::ballast {

namespace {
constexpr std::uint64_t kWordsPerStep = 4;
}  // namespace

std::vector<std::uint64_t> initial_words(std::uint32_t index, std::uint64_t count) {
  std::vector<std::uint64_t> words(count);
  apps::SplitMix64 rng(apps::hash_words({index}));
  for (auto& w : words) w = rng.next();
  return words;
}

void apply_step(std::span<std::uint64_t> words, std::uint32_t index, std::uint64_t step) {
  if (words.empty()) return;
  for (std::uint64_t r = 0; r < kWordsPerStep; ++r) {
    const std::uint64_t at = apps::hash_words({index, step, r}) % words.size();
    words[at] = apps::mix64(words[at] + step + 1);
  }
}

std::uint64_t words_digest(std::uint32_t index, std::span<const std::uint64_t> words) {
  apps::Digest d;
  d.add(index).add(words.size());
  for (std::uint64_t w : words) d.add(w);
  return d.value();
}

}  // namespace drift::ballast
