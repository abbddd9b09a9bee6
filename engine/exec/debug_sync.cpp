#include "exec/debug_sync.h"

#include <cxxabi.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace ejecta {

bool parse_debug_sync(const char* value) {
  if (!value || !*value || std::strcmp(value, "0") == 0) return false;
  if (std::strcmp(value, "1") == 0) return true;
  throw std::invalid_argument(std::string(kDebugSyncVariable) + "=" + value +
                              ": expected 1 (synchronise and check after every CUDA launch) or 0 (off); "
                              "the --debug-sync flag sets it to 1");
}

bool debug_sync_from_environment() { return parse_debug_sync(std::getenv(kDebugSyncVariable)); }

std::string demangled_type_name(const char* mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
  return status == 0 && name ? std::string(name.get()) : std::string(mangled);
}

}  // namespace ejecta
