#include "render/video_writer.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace ejecta::render {

const char* const kFfmpegNotFound =
    "ffmpeg not found: install it (apt install ffmpeg) or record PNG frames with --render-dir";

namespace {

bool is_executable_file(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

// For /bin/sh: 'it'\''s' survives any character in a file name.
std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

std::string find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) return is_executable_file(program) ? program : "";
  const char* env = std::getenv("PATH");
  std::istringstream dirs(env ? env : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string p = (dir.empty() ? "." : dir) + "/" + program;
    if (is_executable_file(p)) return p;
  }
  return "";
}

VideoWriter::VideoWriter(const std::string& path, const VideoOptions& opt) : path_(path), opt_(opt) {
  if (opt.width < 2 || opt.height < 2) throw std::invalid_argument("video: frames must be at least 2 x 2 pixels");
  if (!(opt.fps > 0)) throw std::invalid_argument("video: the frame rate must be > 0");
  // Checked here rather than left to the shell, whose "command not found" would only show up as a
  // broken pipe at the first frame.
  const std::string ffmpeg = find_program(opt.ffmpeg);
  if (ffmpeg.empty()) throw std::runtime_error(kFfmpegNotFound);
  // A dead ffmpeg must make fwrite fail with EPIPE (reported below), not kill us with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  std::ostringstream cmd;
  cmd << shell_quote(ffmpeg) << " -hide_banner -loglevel error -nostdin -y -f rawvideo -pix_fmt rgba -s "
      << opt.width << "x" << opt.height << " -r " << opt.fps << " -i -";
  // libx264's yuv420p needs even sizes: crop the odd last row/column rather than fail.
  std::string filters = opt.bottom_up ? "vflip," : "";
  filters += "crop=trunc(iw/2)*2:trunc(ih/2)*2";
  cmd << " -vf " << shell_quote(filters) << " -c:v libx264 -pix_fmt yuv420p -movflags +faststart "
      << shell_quote(path);
  pipe_ = ::popen(cmd.str().c_str(), "w");
  if (!pipe_) throw std::runtime_error("video: cannot start ffmpeg for " + path);
}

VideoWriter::~VideoWriter() {
  if (!pipe_) return;
  try {
    close();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ejecta: %s\n", e.what());
  }
}

void VideoWriter::write(const Image& img) {
  if (img.width != opt_.width || img.height != opt_.height)
    throw std::invalid_argument("video: frame of " + std::to_string(img.width) + "x" + std::to_string(img.height) +
                                " pixels in a " + std::to_string(opt_.width) + "x" + std::to_string(opt_.height) +
                                " video");
  write_rgba(img.rgba.data(), img.rgba.size());
}

void VideoWriter::write_rgba(const uint8_t* rgba, std::size_t bytes) {
  if (!pipe_) throw std::runtime_error("video: " + path_ + " is already closed");
  if (bytes != std::size_t(opt_.width) * opt_.height * 4)
    throw std::invalid_argument("video: frame of " + std::to_string(bytes) + " bytes, expected " +
                                std::to_string(std::size_t(opt_.width) * opt_.height * 4));
  if (std::fwrite(rgba, 1, bytes, pipe_) != bytes)
    throw std::runtime_error("video: ffmpeg stopped reading frames for " + path_ + " (see its messages above)");
  ++frames_;
}

void VideoWriter::close() {
  if (!pipe_) return;
  FILE* p = pipe_;
  pipe_ = nullptr;
  const int status = ::pclose(p);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const std::string how = status == -1        ? "could not be waited for"
                            : WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                                                : "was killed by signal " + std::to_string(WTERMSIG(status));
    throw std::runtime_error("video: ffmpeg " + how + " writing " + path_ + " (see its messages above)");
  }
}

}  // namespace ejecta::render
