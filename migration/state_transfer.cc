#include "migration/state_transfer.h"

#include <algorithm>
#include <string>

namespace drift {

std::uint32_t chunk_count(std::uint64_t bytes, std::uint32_t chunk_bytes) {
  if (bytes == 0) return 1;
  return static_cast<std::uint32_t>((bytes + chunk_bytes - 1) / chunk_bytes);
}

std::span<const std::uint8_t> chunk_of(std::span<const std::uint8_t> state, std::uint32_t index,
                                       std::uint32_t chunk_bytes) {
  std::uint64_t begin = std::uint64_t{index} * chunk_bytes;
  if (begin >= state.size()) return {};
  std::uint64_t len = std::min<std::uint64_t>(chunk_bytes, state.size() - begin);
  return state.subspan(static_cast<std::size_t>(begin), static_cast<std::size_t>(len));
}

void StatePieces::add(std::span<const std::uint8_t> bytes, std::shared_ptr<const void> owner) {
  spans_.push_back(bytes);
  owners_.push_back(std::move(owner));
  size_ += bytes.size();
}

std::vector<std::uint8_t> StatePieces::flatten() const {
  std::vector<std::uint8_t> out;
  out.reserve(static_cast<std::size_t>(size_));
  for (const auto& s : spans_) out.insert(out.end(), s.begin(), s.end());
  return out;
}

StateAssembler::StateAssembler(std::uint64_t total_bytes, std::uint32_t chunks,
                               std::uint32_t chunk_bytes)
    : total_(total_bytes),
      chunks_(chunks),
      chunk_bytes_(chunk_bytes),
      have_(chunks, false),
      pieces_(chunks) {}

Status StateAssembler::add(std::uint32_t index, std::span<const std::uint8_t> bytes,
                           std::shared_ptr<const void> owner) {
  if (index >= chunks_) {
    return Status::error("chunk " + std::to_string(index) + " of a state in " +
                         std::to_string(chunks_) + " chunks");
  }
  if (have_[index]) return Status::error("chunk " + std::to_string(index) + " arrived twice");
  std::uint64_t begin = std::uint64_t{index} * chunk_bytes_;
  std::uint64_t expected =
      begin >= total_ ? 0 : std::min<std::uint64_t>(chunk_bytes_, total_ - begin);
  if (bytes.size() != expected) {
    return Status::error("chunk " + std::to_string(index) + " has " + std::to_string(bytes.size()) +
                         " bytes, expected " + std::to_string(expected));
  }
  if (!owner && !bytes.empty()) {  // valid only during this call: keep a copy
    auto copy = std::make_shared<const std::vector<std::uint8_t>>(bytes.begin(), bytes.end());
    bytes = *copy;
    owner = std::move(copy);
  }
  pieces_[index] = Piece{bytes, std::move(owner)};
  have_[index] = true;
  ++received_;
  return Status::ok();
}

StatePieces StateAssembler::take() {
  StatePieces out;
  for (Piece& p : pieces_) out.add(p.bytes, std::move(p.owner));
  pieces_.clear();
  return out;
}

}  // namespace drift
