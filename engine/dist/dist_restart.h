#pragma once
// `ejecta --restart` of a distributed run (issue 19; docs/architecture.md, "Distributed runs"): the
// recording of a run on K ranks is K files, run.rank0ofK.h5 ... run.rank{K-1}ofK.h5 (dist::rank_path),
// each an ordinary recording of one rank's particles. A continuation on M ranks reads them in shares
// (any K, any M, M = 1 included) and DistributedSimulation::restore_frame redistributes the particles.
#include "io/frame.h"

#include <optional>
#include <string>
#include <vector>

namespace ejecta::dist {

// The files of the recording named `path`, in rank order: all K per-rank files when `path` is one of
// them (run.rank2of4.h5) or their common name (run.h5, when that file itself does not exist); else
// {path}. Throws ParamError when `path` names neither a file nor exactly one set of per-rank files,
// or a set misses a file.
std::vector<std::string> recording_files(const std::string& path);
// True when `path` names per-rank files of a distributed run: a per-rank file name (run.rank1of4.h5),
// or a missing file beside which recording_files finds K > 1 of them; false, without throwing,
// otherwise (a missing file is then the ordinary restart's error to report).
bool per_rank_recording(const std::string& path);

// This rank's share of one frame of a (possibly per-rank) recording.
struct RestartShare {
  std::string scene_ini;  // the recorded scene (of the first file)
  FrameData frame;        // this rank's rows of the frame, every field
  std::size_t index = 0;  // the frame's index among the complete frames of every file
  std::size_t files = 1;  // K
  std::size_t particles = 0;  // over all files
};

// Collective over the ranks (initialises MPI, as a singleton without mpirun): with K files and M ranks,
// rank r reads the files f = r, r + M, ... when K >= M, else file r % K and its rows i with
// i % c == r / K, c the number of ranks reading that file. `frame` is the frame to continue from
// (default: the last complete one of every file); all files must hold it at the same step and time.
// Throws ParamError (the same on every rank) on a missing frame or files that do not belong together.
RestartShare read_restart_share(const std::string& path, std::optional<long> frame);

}  // namespace ejecta::dist
