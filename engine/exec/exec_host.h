#pragma once
// The execution layer's scan and 64-bit key sort from host vectors, on a chosen backend: upload, run,
// download. For tests (CPU against std::, CUDA against CPU) and host tools; engine code calls the
// Exec members directly. Backend::Cuda throws std::runtime_error without the CUDA backend or a device.
#include "core/types.h"

#include <cstdint>
#include <vector>

namespace ejecta {

// n + 1 entries: the exclusive prefix sums of `in`, then the total.
std::vector<uint32_t> exclusive_scan_on(Backend backend, const std::vector<uint32_t>& in);
std::vector<uint64_t> exclusive_scan_on(Backend backend, const std::vector<uint64_t>& in);

// Sorts (keys[i], values[i]) stably by key, in place.
void sort_pairs64_on(Backend backend, std::vector<uint64_t>& keys, std::vector<uint32_t>& values);

}  // namespace ejecta
