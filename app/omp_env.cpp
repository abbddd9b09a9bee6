#include "omp_env.h"

#include <cstdlib>
#include <unistd.h>

namespace ejecta::app {

const char* const kOmpWaitVariable = "OMP_WAIT_POLICY";
const char* const kOmpWaitValue = "passive";

bool wants_omp_wait_reexec(const std::vector<std::string>& args, const char* (*getenv)(const char*)) {
#ifdef _OPENMP
  if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT")) return false;
  for (const auto& a : args)
    if (a == "--omp-spin") return false;
  return true;
#else
  (void)args;
  (void)getenv;
  return false;
#endif
}

void apply_omp_wait_policy(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (!wants_omp_wait_reexec(args, [](const char* name) -> const char* { return std::getenv(name); })) return;
  // Set before exec, so a failed exec cannot loop: the next start finds the variable set.
  setenv(kOmpWaitVariable, kOmpWaitValue, 1);
  execv("/proc/self/exe", argv);
}

}  // namespace ejecta::app
