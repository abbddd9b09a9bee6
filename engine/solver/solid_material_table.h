#pragma once
// The solid materials of a scene as one table in the execution layer's memory (device memory on
// CUDA, host memory on the CPU), read by the functors through a typed pointer (SolidModel::mat), with
// a host copy for the solver's own reads. Every change is uploaded at once (CudaExec::upload waits
// for the copy), so a live edit between steps reaches the next launch.
// The table used to be an array of kMaxSolidMaterials materials inside SolidModel, copied by value
// into every kernel's parameters: SolidForces<double, 3> weighed 4136 bytes, over the classic 4 KB
// kernel-parameter limit (CUDA 12.1 raised it to 32 KB on Volta and later).
#include "exec/device_array.h"
#include "materials/material_library.h"
#include "physics/solid_model.h"
#include "solver/solid_material_convert.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta {

template <class T, class Exec>
class SolidMaterialTable {
 public:
  // The table of `materials`, converted to T; its device bytes are added to *tally.
  void assign(Exec& exec, const std::vector<Material>& materials, std::size_t* tally) {
    if (materials.size() > std::size_t(kMaxSolidMaterials))
      throw std::invalid_argument("a scene may use at most " + std::to_string(kMaxSolidMaterials) +
                                  " solid materials; it has " + std::to_string(materials.size()));
    exec_ = &exec;
    host_.clear();
    for (const Material& m : materials) host_.push_back(to_solid_material<T>(m));
    table_.resize(exec, host_.empty() ? 1 : host_.size(), tally);
    upload();
  }

  // Material k replaced (the viewer's material panel).
  void set(std::size_t k, const Material& m) {
    host_.at(k) = to_solid_material<T>(m);
    upload();
  }

  int size() const { return int(host_.size()); }
  const SolidMaterial<T>& operator[](std::size_t k) const { return host_[k]; }
  // The table the functors read (SolidModel::mat).
  DevicePtr<const SolidMaterial<T>> device() const { return table_.device(); }

  bool any_yield() const {
    for (const SolidMaterial<T>& m : host_)
      if (m.yield != kSolidNoLimit) return true;
    return false;
  }

 private:
  void upload() {
    if (!host_.empty()) ejecta::upload(*exec_, table_.device(), host_.data(), host_.size());
  }

  Exec* exec_ = nullptr;
  std::vector<SolidMaterial<T>> host_;
  DeviceArray<SolidMaterial<T>, Exec> table_;
};

}  // namespace ejecta
