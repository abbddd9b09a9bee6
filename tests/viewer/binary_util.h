#pragma once
// Running the ejecta binary of this build from a test (EJECTA_BINARY overrides its path).
#include "../command_output.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace ejecta::test {

inline std::string ejecta_binary() {
  const char* env = std::getenv("EJECTA_BINARY");
  return env && *env ? env : std::string(EJECTA_BINARY_DIR) + "/ejecta";
}

struct RunResult {
  int code = -1;  // exit status, -1 for a signal
  std::string out;  // stdout and stderr
};

// `env` is prepended to the command (e.g. "DISPLAY= "), stderr folded into stdout.
inline RunResult run_binary(const std::string& args, const std::string& env = "") {
  RunResult r;
  const CommandOutput c = command_output(env + " OMP_NUM_THREADS=1 '" + ejecta_binary() + "' " + args + " 2>&1");
  r.code = c.code;
  r.out = c.out;
  return r;
}

}  // namespace ejecta::test
