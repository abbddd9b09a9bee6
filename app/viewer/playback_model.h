#pragma once
// The playback window's time control, apart from GL and ImGui (so a test can drive it): which
// recorded frame is shown, play/pause, and the step to the next frame. One recorded frame per drawn
// frame while playing; playing stops on the last frame (Space at the end starts again from 0).
#include <cstddef>

namespace ejecta::viewer {

class PlaybackModel {
 public:
  explicit PlaybackModel(std::size_t frames) : frames_(frames) {}
  std::size_t frames() const { return frames_; }
  std::size_t frame() const { return frame_; }
  bool playing() const { return playing_; }
  // The slider: clamped to the recording.
  void seek(long k) { frame_ = k < 0 ? 0 : std::size_t(k) >= frames_ ? frames_ - 1 : std::size_t(k); }
  void toggle_play() {
    if (!playing_ && frame_ + 1 >= frames_) frame_ = 0;
    playing_ = !playing_ && frames_ > 1;
  }
  // Once per drawn frame: the next recorded frame while playing.
  void tick() {
    if (!playing_) return;
    if (frame_ + 1 < frames_) ++frame_;
    if (frame_ + 1 >= frames_) playing_ = false;
  }

 private:
  std::size_t frames_;
  std::size_t frame_ = 0;
  bool playing_ = false;
};

}  // namespace ejecta::viewer
