#pragma once
// How the OpenMP runtime waits at barriers. GNU libgomp spins for about 300000 iterations (a few
// hundred microseconds to milliseconds) before a waiting thread sleeps, which is fastest when each
// thread has a core to itself. When another program keeps a core busy, the thread that shares it is
// preempted while its partner spins at the barrier for its whole quantum: on 2 cores with one other busy
// process the CPU backend ran 25 to 55 times slower (issue 13). The passive policy (threads sleep at
// once) loses little on an idle machine and all of that under load (figures in docs/benchmarks.md,
// where a short GOMP_SPINCOUNT of 10000 was measured too and lost to passive under load).
//
// libgomp reads its environment once, when the library is loaded (before main), so the setting is made
// by re-executing the program with it; the user's own OMP_WAIT_POLICY or GOMP_SPINCOUNT, or
// --omp-spin, are left alone.
#include <string>
#include <vector>

namespace ejecta::app {

// The variable and value set by default: OMP_WAIT_POLICY = passive.
extern const char* const kOmpWaitVariable;
extern const char* const kOmpWaitValue;

// True when the program should re-execute itself with kOmpWaitVariable set: the build has OpenMP,
// the environment sets neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT, and the arguments hold no
// --omp-spin. `getenv` is the environment lookup (std::getenv in the program, a map in tests).
bool wants_omp_wait_reexec(const std::vector<std::string>& args, const char* (*getenv)(const char*));

// Sets the variable and re-executes /proc/self/exe with argv when wants_omp_wait_reexec says so.
// Returns only when it did not (nothing to do, or exec failed: the run goes on with the spin default).
void apply_omp_wait_policy(int argc, char** argv);

}  // namespace ejecta::app
