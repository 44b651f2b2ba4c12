// ballast's task state and its evolution, shared by the tasks and the serial reference: a vector
// of 64-bit words filled from the task index, a few words rewritten per step (positions and
// values from (index, step)), and a digest of the whole vector at the end. Pure uint64 arithmetic.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace drift::ballast {

std::vector<std::uint64_t> initial_words(std::uint32_t index, std::uint64_t count);

// Step `step`'s deterministic update of a few words.
void apply_step(std::span<std::uint64_t> words, std::uint32_t index, std::uint64_t step);

std::uint64_t words_digest(std::uint32_t index, std::span<const std::uint64_t> words);

}  // namespace drift::ballast
