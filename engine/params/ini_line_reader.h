#pragma once
// Feeds INI text to inih (ini_parse_stream) one physical line per call, so that our line count is
// inih's (the Debian inih has no INI_HANDLER_LINENO to tell us), and keeps the first error found
// with its line. Shared by the scene reader and the material library, which both want the same
// strictness: plain text only (no control characters, which inih would read as whitespace and so as a
// continuation of the value above), a [section] header alone on its line (a ; comment may follow),
// each section opened once, and no section without keys.
#include <sys/stat.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ejecta {

// Scene and material files are a few kB of text; anything larger is the wrong file (a recording, a
// device such as /dev/zero) and is refused before it is read into memory.
constexpr std::size_t kMaxIniFileBytes = std::size_t(1) << 20;

// Reads at most kMaxIniFileBytes of `path` into `text`. Returns "" on success, else the reason
// ("cannot open ...: No such file", "is a directory", "is larger than 1 MiB ...") for the caller's
// message; `what` names the file's role ("scene file", "material library").
inline std::string read_bounded_text_file(const std::string& path, const char* what, std::string* text) {
  const std::string q = std::string(what) + " '" + path + "'";
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return "cannot open " + q + ": " + std::strerror(errno);
  struct stat st {};
  const std::string too_big = q + " is larger than 1 MiB; a " + what + " is a small text file (is it the right file?)";
  if (fstat(fileno(f), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return std::fclose(f), "cannot read " + q + ": " + std::strerror(EISDIR);
    if (S_ISREG(st.st_mode) && std::size_t(st.st_size) > kMaxIniFileBytes) return std::fclose(f), too_big;
  }
  // A device or a pipe has no size: read one byte past the limit to tell.
  text->clear();
  char buf[65536];
  std::size_t n = 0;
  while (text->size() <= kMaxIniFileBytes && (n = std::fread(buf, 1, sizeof buf, f)) > 0) text->append(buf, n);
  const bool failed = std::ferror(f) != 0;
  const int err = errno;
  std::fclose(f);
  if (failed) return "cannot read " + q + ": " + std::strerror(err);
  if (text->size() > kMaxIniFileBytes) return text->clear(), too_big;
  return "";
}

struct IniLineReader {
  const std::string* text = nullptr;
  std::string name;                // file name, for messages
  std::size_t pos = 0;
  int line = 0;                    // physical line last handed to inih (1-based)
  std::vector<std::string> lines;  // the lines as handed to inih, for quoting in errors
  int error_line = 0;
  std::string error;               // complete message of the first error found
  // Section headers seen (name -> line of its header) and the sections that received a key.
  std::map<std::string, int> header_line;
  std::set<std::string> keyed;

  std::string here() const { return name + ":" + std::to_string(line); }

  void record(const std::string& message) {
    if (!error.empty()) return;
    error = message;
    error_line = line;
  }

  // The next physical line without its line end and its indentation (inih would read an indented line
  // as a continuation of the value above it; indentation means nothing in our files). A line ends at
  // "\n", "\r\n" or a lone "\r" (old Mac files). A line with a control character is reported and
  // handed over empty. False at the end.
  bool next(std::string& out) {
    if (pos >= text->size()) return false;
    std::size_t eol = text->find_first_of("\r\n", pos);
    std::size_t after = eol + 1;
    if (eol == std::string::npos) {
      eol = after = text->size();
    } else if ((*text)[eol] == '\r' && eol + 1 < text->size() && (*text)[eol + 1] == '\n') {
      after = eol + 2;
    }
    out = text->substr(pos, eol - pos);
    pos = after;
    ++line;
    for (std::size_t i = 0; i < out.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(out[i]);
      if ((c < 0x20 && c != '\t') || c == 0x7f) {
        record(here() + ": control character " + control_name(c) + " at column " + std::to_string(i + 1) +
               ": scene and material files are plain text; remove it (a line may start with spaces or tabs only)");
        out.clear();
        break;
      }
    }
    const std::size_t b = out.find_first_not_of(" \t");
    out = b == std::string::npos ? "" : out.substr(b);
    lines.push_back(out);
    return true;
  }

  // For a header line "[name]" (a ; or # comment may follow): the trimmed name, after checking that
  // nothing else follows the ']' and that the section was not opened before ("[material] is defined
  // twice" with kind "material"). "" for any other line, and for a header without ']' (inih reports it).
  std::string header(const std::string& l, const char* kind) {
    if (l.empty() || l[0] != '[') return "";
    const std::size_t close = l.find(']');
    if (close == std::string::npos) return "";
    const std::string sec = trim_blank(l.substr(1, close - 1));
    const std::string rest = trim_blank(l.substr(close + 1));
    if (sec.empty()) {
      record(here() + ": a " + kind + " header needs a name inside the [ ]");
      return "";
    }
    if (!rest.empty() && rest[0] != ';' && rest[0] != '#')
      record(here() + ": text after the section header [" + sec + "]: '" + rest +
             "'; a header stands alone on its line (write a comment as '; ...')");
    const auto it = header_line.find(sec);
    if (it != header_line.end())
      record(here() + ": " + kind + " [" + sec + "] is defined twice (first at line " + std::to_string(it->second) +
             "); put all its keys under one header");
    else
      header_line[sec] = line;
    return sec;
  }

  // After the parse: the first section (in file order) that received no key, with its line, as
  // "file:line: [name] has no keys; ..." or "" when every section has keys.
  std::string empty_section_message() const {
    int first = 0;
    std::string sec;
    for (const auto& [s, l] : header_line)
      if (!keyed.count(s) && (first == 0 || l < first)) first = l, sec = s;
    if (first == 0) return "";
    return name + ":" + std::to_string(first) + ": [" + sec + "] has no keys; add its keys or remove the header";
  }

  // Copies `l` into inih's buffer of `num` bytes. inih's buffer is fixed; a longer line would reach
  // it in pieces, each a bogus line of its own, so it is reported and handed over empty.
  char* hand_over(char* str, int num, std::string l) {
    const std::size_t room = num > 2 ? static_cast<std::size_t>(num) - 2 : 0;  // '\n' and '\0'
    if (l.size() > room) {
      record(here() + ": line is too long (" + std::to_string(l.size()) + " characters, at most " +
             std::to_string(room) + " are read)");
      l.clear();
    }
    std::memcpy(str, l.data(), l.size());
    str[l.size()] = '\n';
    str[l.size() + 1] = '\0';
    return str;
  }

 private:
  static std::string trim_blank(const std::string& s) {
    const std::size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
  }
  static std::string control_name(unsigned char c) {
    static const char* names[] = {"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "backspace",
                                  "tab", "line feed", "vertical tab", "form feed", "carriage return",
                                  "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN",
                                  "EM", "SUB", "ESC", "FS", "GS", "RS", "US"};
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", c);
    return std::string(hex) + " (" + (c < 0x20 ? names[c] : "DEL") + ")";
  }
};

}  // namespace ejecta
