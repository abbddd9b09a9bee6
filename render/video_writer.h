#pragma once
// A video file written by piping raw RGBA frames to an `ffmpeg` process (libx264, yuv420p, so that
// every player opens it). Headless rendering (--render-video) and the window's "Record video" use it.
#include "render/image.h"

#include <cstdint>
#include <cstdio>
#include <string>

namespace ejecta::render {

struct VideoOptions {
  int width = 0, height = 0;  // of the frames handed to write(); odd sizes lose their last row/column
  double fps = 30;
  bool bottom_up = false;        // frames as glReadPixels gives them (first row = bottom): ffmpeg flips
  std::string ffmpeg = "ffmpeg";  // program name (looked up on PATH) or a path
};

// The message when ffmpeg cannot be found (tests look for it).
extern const char* const kFfmpegNotFound;

// Full path of `program` when it is an executable on PATH (or a path to one), else "".
std::string find_program(const std::string& program);

class VideoWriter {
 public:
  // Starts ffmpeg writing `path` (overwritten: -y). Throws std::runtime_error with kFfmpegNotFound
  // when ffmpeg is not on PATH, std::invalid_argument for a bad size or rate.
  VideoWriter(const std::string& path, const VideoOptions& opt);
  // Closes the pipe if close() was not called; errors are printed, not thrown.
  ~VideoWriter();
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  // One frame of exactly width x height pixels; throws std::runtime_error when ffmpeg has gone away.
  void write(const Image& img);
  void write_rgba(const uint8_t* rgba, std::size_t bytes);
  // Ends the stream and waits for ffmpeg; throws std::runtime_error unless it exited with status 0.
  void close();
  std::size_t frames() const { return frames_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  VideoOptions opt_;
  FILE* pipe_ = nullptr;
  std::size_t frames_ = 0;
};

}  // namespace ejecta::render
