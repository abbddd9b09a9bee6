#include "dist/dist_xdmf.h"

#include "io/h5_recorder.h"  // RecordError
#include "io/xdmf.h"        // xdmf_path_for

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace ejecta::dist {

namespace {

// Rank r's file of `path` among k ranks (dist_comm.cpp's rank_path for any rank).
std::string rank_file(const std::string& path, int r, int k) {
  const std::string tag = ".rank" + std::to_string(r) + "of" + std::to_string(k);
  const bool h5 = path.size() > 3 && path.compare(path.size() - 3, 3, ".h5") == 0;
  return h5 ? path.substr(0, path.size() - 3) + tag + ".h5" : path + tag;
}

struct FrameGrid {
  std::string time;
  std::string body;  // the grid's lines but its <Time>, indented two more spaces
};

// The frame grids of one sidecar as io/xdmf.cpp writes them: each opens with a line
// `      <Grid Name="frame_NNNNNN" GridType="Uniform">` and closes with `      </Grid>`.
std::vector<std::pair<std::string, FrameGrid>> frame_grids(const std::string& text) {
  std::vector<std::pair<std::string, FrameGrid>> out;
  std::istringstream in(text);
  std::string line, name;
  FrameGrid g;
  bool inside = false;
  const std::string open = "      <Grid Name=\"frame_", close = "      </Grid>";
  while (std::getline(in, line)) {
    if (!inside && line.compare(0, open.size(), open) == 0) {
      inside = true;
      name = line.substr(open.size(), line.find('"', open.size()) - open.size());
      g = FrameGrid{};
      continue;
    }
    if (!inside) continue;
    if (line == close) {
      inside = false;
      out.emplace_back(name, g);
      continue;
    }
    const std::size_t t = line.find("<Time Value=\"");
    if (t != std::string::npos) {
      const std::size_t a = t + 13;
      g.time = line.substr(a, line.find('"', a) - a);
      continue;
    }
    g.body += "  " + line + "\n";
  }
  return out;
}

}  // namespace

std::string joined_xdmf_text(const std::vector<std::string>& rank_texts) {
  const int k = int(rank_texts.size());
  std::vector<std::map<std::string, FrameGrid>> grids(rank_texts.size());
  std::vector<std::pair<std::string, FrameGrid>> order;
  for (int r = 0; r < k; ++r) {
    auto g = frame_grids(rank_texts[std::size_t(r)]);
    if (r == 0) order = g;
    for (auto& [name, grid] : g) grids[std::size_t(r)][name] = grid;
  }
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    << "<!-- Written by Ejecta at the end of a run on " << k << " MPI ranks: each frame joins the ranks' grids "
    << "of their sidecars (PATH.rankRofK.xdmf), which stay valid on their own. -->\n"
    << "<Xdmf Version=\"3.0\">\n  <Domain>\n"
    << "    <Grid Name=\"particles\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const auto& [name, first] : order) {
    bool everywhere = true;
    for (int r = 0; r < k; ++r) everywhere = everywhere && grids[std::size_t(r)].count(name) > 0;
    if (!everywhere) continue;  // a frame some rank did not complete
    o << "      <Grid Name=\"frame_" << name << "\" GridType=\"Collection\" CollectionType=\"Spatial\">\n"
      << "        <Time Value=\"" << first.time << "\"/>\n";
    for (int r = 0; r < k; ++r)
      o << "        <Grid Name=\"frame_" << name << "_rank" << r << "\" GridType=\"Uniform\">\n"
        << grids[std::size_t(r)][name].body << "        </Grid>\n";
    o << "      </Grid>\n";
  }
  o << "    </Grid>\n  </Domain>\n</Xdmf>\n";
  return o.str();
}

std::string write_joined_xdmf(const std::string& path, int ranks) {
  std::vector<std::string> texts;
  for (int r = 0; r < ranks; ++r) {
    const std::string side = xdmf_path_for(rank_file(path, r, ranks));
    std::ifstream in(side, std::ios::binary);
    if (!in) throw RecordError("cannot read '" + side + "' to join the ranks' XDMF files");
    std::ostringstream s;
    s << in.rdbuf();
    texts.push_back(s.str());
  }
  const std::string text = joined_xdmf_text(texts);
  const std::string out = xdmf_path_for(path), tmp = out + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw RecordError("cannot write '" + tmp + "': " + std::strerror(errno));
  const bool wrote = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool closed = std::fclose(f) == 0;
  if (!wrote || !closed || std::rename(tmp.c_str(), out.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    throw RecordError("cannot write '" + out + "': " + std::strerror(e));
  }
  return out;
}

}  // namespace ejecta::dist
