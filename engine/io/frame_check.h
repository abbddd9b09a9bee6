#pragma once
// Validation of a frame read back from a file before a restart continues from it: a damaged or
// hand-edited recording must be refused with a message, not run (issue 11).
#include "io/frame.h"

#include <string>

namespace ejecta {

// Throws RecordError naming `where` (the file and frame) when the frame cannot be a solver state:
// time, step or dt out of range; a field whose byte count does not match particles x components;
// a non-finite value in a floating-point field (the first one is named: field, particle,
// component); a particle kind other than 0 or 1. Whether the fields fit the scene (names, types,
// count) is checked by Simulation::restore_frame.
void check_restart_frame(const FrameData& frame, const std::string& where);

}  // namespace ejecta
