#pragma once
// Copies named fields of a ParticleStore into a FrameData (all fields when `names` is empty),
// reusing the frame's buffers, and back: the one capture and restore path of every solver
// (recording, restart, inspector).
#include "io/frame.h"
#include "particles/particle_store.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta {

template <class Store>
void capture_fields_into(const Store& store, FrameData& f, const std::vector<std::string>& names, double time,
                         long step, double dt) {
  f.time = time;
  f.step = step;
  f.dt = dt;
  f.particles = store.size();
  std::vector<FieldInfo> chosen;
  if (names.empty()) chosen = store.fields();
  for (const std::string& name : names) {
    const FieldInfo* info = store.info(name);
    if (!info) {
      std::string known;
      for (const FieldInfo& i : store.fields()) known += (known.empty() ? "" : ", ") + i.name;
      throw std::invalid_argument("no particle field '" + name + "' (fields: " + known + ")");
    }
    chosen.push_back(*info);
  }
  f.fields.resize(chosen.size());
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    f.fields[k].info = chosen[k];
    store.download_raw_into(chosen[k].name, f.fields[k].bytes);
  }
}

// Uploads every field of `store` found in `frame`; a field the solver needs to continue exactly
// (`needed(info)`) must be there, with the store's type and shape. Throws std::invalid_argument
// naming the field. The caller restores time, step and dt, and whatever it derives from the fields.
template <class Store, class Needed>
void restore_fields_from(Store& store, const FrameData& frame, std::size_t n, Needed needed) {
  if (frame.particles != n)
    throw std::invalid_argument("the frame has " + std::to_string(frame.particles) + " particles, this scene " +
                                std::to_string(n));
  for (const FieldInfo& info : store.fields()) {
    const FieldData* fd = frame.find(info.name);
    if (!fd) {
      if (needed(info)) throw std::invalid_argument("the frame lacks field '" + info.name + "' needed to restart");
      continue;
    }
    if (fd->info.scalar != info.scalar || fd->info.components != info.components)
      throw std::invalid_argument("field '" + info.name + "' of the frame has another type or shape (" +
                                  "recorded in another precision or dimension?)");
    store.upload_raw(info.name, fd->bytes);
  }
}

}  // namespace ejecta
