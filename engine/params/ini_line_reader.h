#pragma once
// Feeds INI text to inih (ini_parse_stream) one physical line per call, so that our line count is
// inih's (the Debian inih has no INI_HANDLER_LINENO to tell us), and keeps the first error found
// with its line. Shared by the scene reader and the material library.
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

namespace ejecta {

struct IniLineReader {
  const std::string* text = nullptr;
  std::string name;                // file name, for messages
  std::size_t pos = 0;
  int line = 0;                    // physical line last handed to inih (1-based)
  std::vector<std::string> lines;  // the lines as handed to inih, for quoting in errors
  int error_line = 0;
  std::string error;               // complete message of the first error found

  void record(const std::string& message) {
    if (!error.empty()) return;
    error = message;
    error_line = line;
  }

  // The next physical line without its CR and its indentation (inih would read an indented line as
  // a continuation of the value above it; indentation means nothing in our files). False at the end.
  bool next(std::string& out) {
    if (pos >= text->size()) return false;
    std::size_t eol = text->find('\n', pos);
    if (eol == std::string::npos) eol = text->size();
    out = text->substr(pos, eol - pos);
    pos = eol + 1;
    ++line;
    if (!out.empty() && out.back() == '\r') out.pop_back();
    const std::size_t b = out.find_first_not_of(" \t");
    out = b == std::string::npos ? "" : out.substr(b);
    lines.push_back(out);
    return true;
  }

  // Copies `l` into inih's buffer of `num` bytes. inih's buffer is fixed; a longer line would reach
  // it in pieces, each a bogus line of its own, so it is reported and handed over empty.
  char* hand_over(char* str, int num, std::string l) {
    const std::size_t room = num > 2 ? static_cast<std::size_t>(num) - 2 : 0;  // '\n' and '\0'
    if (l.size() > room) {
      record(name + ":" + std::to_string(line) + ": line is too long (" + std::to_string(l.size()) +
             " characters, at most " + std::to_string(room) + " are read)");
      l.clear();
    }
    std::memcpy(str, l.data(), l.size());
    str[l.size()] = '\n';
    str[l.size() + 1] = '\0';
    return str;
  }
};

}  // namespace ejecta
