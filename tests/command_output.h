#pragma once
// A shell command's standard output (popen), and its exit status, for the tests that run the binary.
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace ejecta::test {

struct CommandOutput {
  std::string out;
  int code = -1;    // exit status, or -1 when it did not exit normally (a signal) or could not start
  bool ok = false;  // exited normally with status 0
};

inline CommandOutput command_output(const std::string& cmd) {
  CommandOutput r;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return r;
  char buf[4096];
  std::size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) r.out.append(buf, got);
  const int status = pclose(f);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.ok = r.code == 0;
  return r;
}

}  // namespace ejecta::test
