// A plain-text table for terminals: a header row, columns padded to their widest cell, numbers
// right-aligned. No colours and no box drawing, so the output greps and diffs well.
#pragma once

#include <string>
#include <vector>

namespace drift::ctl {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header);

  void add_row(std::vector<std::string> cells);
  void align_right(std::size_t column);
  std::string render() const;

 private:
  std::vector<std::size_t> widths() const;
  std::string render_row(const std::vector<std::string>& row,
                         const std::vector<std::size_t>& widths) const;

  std::vector<std::vector<std::string>> rows_;
  std::vector<bool> right_;
};

}  // namespace drift::ctl
