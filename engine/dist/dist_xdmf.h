#pragma once
// One XDMF for a distributed recording (issue 19): each rank writes PATH.rankRofK.h5 with its own
// sidecar PATH.rankRofK.xdmf (io/xdmf.h, a temporal collection of its frames); at the end of the run
// rank 0 joins them into PATH.xdmf, a temporal collection whose every frame is a spatial collection of
// the ranks' grids of that frame, so ParaView or VisIt open the whole run as one. It holds no data:
// the ranks' grids are copied as written (their HDF5 references are file names, the files lie side by
// side). Only frames every rank's sidecar holds are joined. No MPI here.
#include <string>
#include <vector>

namespace ejecta::dist {

// The joined text from the ranks' sidecar texts (rank order).
std::string joined_xdmf_text(const std::vector<std::string>& rank_texts);

// Reads the K sidecars of the recording `path` (as given to --record) and writes its joined XDMF
// (PATH without its extension, plus .xdmf), atomically; returns that path. Throws RecordError when a
// sidecar cannot be read or the file cannot be written.
std::string write_joined_xdmf(const std::string& path, int ranks);

}  // namespace ejecta::dist
