#include "ctl/text_table.h"

#include <algorithm>

namespace drift::ctl {

TextTable::TextTable(std::vector<std::string> header) : right_(header.size(), false) {
  rows_.push_back(std::move(header));
}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(right_.size());
  rows_.push_back(std::move(cells));
}

void TextTable::align_right(std::size_t column) {
  if (column < right_.size()) right_[column] = true;
}

std::vector<std::size_t> TextTable::widths() const {
  std::vector<std::size_t> w(right_.size(), 0);
  for (const auto& row : rows_) {
    for (std::size_t c = 0; c < row.size(); ++c) w[c] = std::max(w[c], row[c].size());
  }
  return w;
}

std::string TextTable::render_row(const std::vector<std::string>& row,
                                  const std::vector<std::size_t>& widths) const {
  std::string line;
  for (std::size_t c = 0; c < row.size(); ++c) {
    const std::string pad(widths[c] - row[c].size(), ' ');
    if (c > 0) line += "  ";
    line += right_[c] ? pad + row[c] : row[c] + pad;
  }
  line.erase(line.find_last_not_of(' ') + 1);
  return line + "\n";
}

std::string TextTable::render() const {
  const auto w = widths();
  std::string out;
  for (const auto& row : rows_) out += render_row(row, w);
  return out;
}

}  // namespace drift::ctl
