#pragma once
// Copies named fields of a ParticleStore into a FrameData (all fields when `names` is empty),
// reusing the frame's buffers: the one capture path of every solver (recording, restart, inspector).
#include "io/frame.h"
#include "particles/particle_store.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta {

template <class Store>
void capture_fields_into(const Store& store, FrameData& f, const std::vector<std::string>& names) {
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

}  // namespace ejecta
