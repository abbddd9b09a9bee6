#pragma once
// The execution layer's debug mode (the idea of ALIEN's Macros.cuh, chosen at run time here): after
// every kernel launch and library call (sort, scan, reduce) the CUDA backend synchronises its stream
// and checks for errors, naming the kernel's functor. Asynchronous faults (an out-of-bounds access in
// a force pass) then surface at the launch that caused them, not at the next copy. It costs one
// synchronisation per launch; the CPU backend has nothing to check.
//
// Switched on by EJECTA_DEBUG_SYNC=1 in the environment, read when an execution layer is created;
// the app's --debug-sync flag sets that variable before any simulation is made.
#include <string>

namespace ejecta {

inline constexpr const char* kDebugSyncVariable = "EJECTA_DEBUG_SYNC";

// The mode for a value of EJECTA_DEBUG_SYNC: unset or "" or "0" off, "1" on; anything else throws
// std::invalid_argument naming the variable and the values allowed.
bool parse_debug_sync(const char* value);

// parse_debug_sync of the process environment.
bool debug_sync_from_environment();

// "ejecta::Forces_WCSPH_Monaghan1992<float, 3>" from a mangled type name (typeid(F).name()).
std::string demangled_type_name(const char* mangled);

}  // namespace ejecta
