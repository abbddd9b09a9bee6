#include "dist/dist_restart.h"

#include "dist/dist_comm.h"
#include "dist/frame_rows.h"
#include "io/h5_reader.h"
#include "params/param_set.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <regex>

namespace ejecta::dist {

namespace fs = std::filesystem;

namespace {

std::string per_rank_name(const std::string& base, std::size_t r, std::size_t k) {
  return base + ".rank" + std::to_string(r) + "of" + std::to_string(k) + ".h5";
}
}  // namespace

std::vector<std::string> recording_files(const std::string& path) {
  static const std::regex one_rank(R"((.*)\.rank(\d+)of(\d+)\.h5)");
  std::smatch m;
  std::string base;
  std::size_t k = 0;
  if (std::regex_match(path, m, one_rank)) {
    base = m[1];
    k = std::stoul(m[3]);
  } else if (fs::exists(path)) {
    return {path};
  } else {
    // run.h5 -> the K of the run.rank0ofK.h5 beside it.
    base = path.size() > 3 && path.compare(path.size() - 3, 3, ".h5") == 0 ? path.substr(0, path.size() - 3) : path;
    const fs::path dir = fs::path(base).parent_path().empty() ? fs::path(".") : fs::path(base).parent_path();
    const std::string stem = fs::path(base).filename().string();
    std::vector<std::size_t> found;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string name = e.path().filename().string();
      std::smatch n;
      if (std::regex_match(name, n, one_rank) && n[1] == stem && n[2] == "0") found.push_back(std::stoul(n[3]));
    }
    if (found.empty())
      throw ParamError("--restart: '" + path + "' does not exist, nor do per-rank recordings " + base +
                       ".rank0ofK.h5 of a distributed run");
    if (found.size() > 1)
      throw ParamError("--restart: '" + path + "' names per-rank recordings of several runs (" + base + ".rank0of" +
                       std::to_string(found[0]) + ".h5, " + base + ".rank0of" + std::to_string(found[1]) +
                       ".h5, ...): give one of their files");
    k = found[0];
  }
  if (k == 0) throw ParamError("--restart: '" + path + "': a run of 0 ranks");
  std::vector<std::string> files;
  for (std::size_t r = 0; r < k; ++r) {
    files.push_back(per_rank_name(base, r, k));
    if (!fs::exists(files.back()))
      throw ParamError("--restart: '" + files.back() + "' is missing: a run on " + std::to_string(k) +
                       " ranks left one recording per rank, and a restart needs them all");
  }
  return files;
}

bool per_rank_recording(const std::string& path) {
  // A per-rank name is always one (recording_files then says which file of the set is missing).
  if (std::regex_match(fs::path(path).filename().string(), std::regex(R"(.*\.rank\d+of\d+\.h5)"))) return true;
  try {
    return recording_files(path).size() > 1;
  } catch (const std::exception&) {
    return false;
  }
}

RestartShare read_restart_share(const std::string& path, std::optional<long> frame) {
  ensure_initialized();
  const std::vector<std::string> files = recording_files(path);
  const std::size_t K = files.size(), M = std::size_t(size()), r = std::size_t(rank());
  // The files this rank reads, and which of their rows.
  std::vector<std::size_t> mine;
  std::size_t stride = 1, offset = 0;
  if (K >= M) {
    for (std::size_t f = r; f < K; f += M) mine.push_back(f);
  } else {
    mine.push_back(r % K);
    stride = (M - r % K + K - 1) / K;  // the ranks q < M with q % K == r % K
    offset = r / K;
  }
  std::vector<std::unique_ptr<H5Reader>> readers;
  std::string problem;
  double counts = 1e300;
  for (std::size_t f : mine) {
    try {
      readers.push_back(std::make_unique<H5Reader>(files[f]));
      counts = std::min(counts, double(readers.back()->frame_count()));
    } catch (const std::exception& e) {
      problem = e.what();
    }
  }
  // Errors are agreed, so that every rank stops with the same message.
  const std::string first = first_failure(!problem.empty(), problem);
  if (!first.empty()) throw ParamError("--restart: " + first);
  counts = -max_all(-counts);
  if (counts < 1) throw ParamError("--restart: '" + path + "': some per-rank file holds no complete frame");
  const std::size_t n_frames = std::size_t(counts);
  std::size_t k = n_frames - 1;
  if (frame) {
    if (*frame < 0 || std::size_t(*frame) >= n_frames)
      throw ParamError("--restart: '" + path + "' has complete frames 0.." + std::to_string(n_frames - 1) +
                       (K > 1 ? " in every per-rank file" : "") + ", not frame " + std::to_string(*frame));
    k = std::size_t(*frame);
  }
  RestartShare s;
  s.index = k;
  s.files = K;
  s.scene_ini = readers.front()->info().scene_ini;
  for (const auto& rd : readers) {
    FrameData f = rd->read_frame(k);
    if (stride > 1) {
      std::vector<unsigned char> rec;
      std::size_t n = 0;
      for (std::size_t i = offset; i < f.particles; i += stride) ++n;
      FrameData part = empty_like(f, n);
      std::size_t j = 0;
      for (std::size_t i = offset; i < f.particles; i += stride) {
        rec.clear();
        append_row(f, i, rec);
        write_row(part, j++, rec.data());
      }
      f = std::move(part);
    }
    append_rows(s.frame, f);
  }
  // The files belong together: the same frame at the same step and time, every particle once.
  double clock[4] = {double(s.frame.step), s.frame.time, -double(s.frame.step), -s.frame.time};
  max_all(clock, 4);
  double n = double(s.frame.particles);
  sum_all(&n, 1);
  s.particles = std::size_t(n);
  if (clock[0] != -clock[2] || clock[1] != -clock[3])
    throw ParamError("--restart: frame " + std::to_string(k) + " of the per-rank files of '" + path +
                     "' is not at the same step in every file (steps " + std::to_string(long(-clock[2])) + " to " +
                     std::to_string(long(clock[0])) + "): the files are not of one run");
  return s;
}

}  // namespace ejecta::dist
