#pragma once
// Structure-of-arrays particle storage on one backend, with a registry of its fields. Each field is a
// device buffer of one element type; the registry knows how to reorder it (gather by the sort
// permutation) and how to copy it to the host as doubles, so neither the solver nor the output code
// lists fields twice.
#include "core/vec.h"
#include "particles/field_info.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace ejecta {

template <class E>
struct GatherFunctor {
  E* dst;
  const E* src;
  const uint32_t* perm;
  EJ_INLINE void operator()(std::size_t i) const { dst[i] = src[perm[i]]; }
};

template <class E>
struct ScalarOf { using type = E; };
template <class T, int D>
struct ScalarOf<Vec<T, D>> { using type = T; };

template <class E>
constexpr ScalarType scalar_type_of() {
  using S = typename ScalarOf<E>::type;
  if (std::is_same<S, float>::value) return ScalarType::Float32;
  if (std::is_same<S, double>::value) return ScalarType::Float64;
  if (std::is_same<S, uint8_t>::value) return ScalarType::UInt8;
  return ScalarType::UInt32;
}

template <class Exec>
class ParticleStore {
 public:
  ParticleStore(Exec& exec, std::size_t n) : exec_(exec), n_(n) {}
  ~ParticleStore() {
    for (auto& f : fields_) exec_.deallocate(f.data);
    if (scratch_) exec_.deallocate(scratch_);
  }
  ParticleStore(const ParticleStore&) = delete;
  ParticleStore& operator=(const ParticleStore&) = delete;

  std::size_t size() const { return n_; }

  // Allocates a field of element type E (a scalar or Vec<T, D>) and returns its device pointer.
  template <class E>
  E* add(FieldInfo info) {
    info.scalar = scalar_type_of<E>();
    info.components = sizeof(E) / sizeof(typename ScalarOf<E>::type);
    Field f;
    f.info = std::move(info);
    f.elem_bytes = sizeof(E);
    f.data = exec_.allocate(sizeof(E) * n_);
    bytes_ += sizeof(E) * n_;
    f.gather = [this](void* dst, const void* src, const uint32_t* perm) {
      exec_.for_each(n_, GatherFunctor<E>{static_cast<E*>(dst), static_cast<const E*>(src), perm});
    };
    fields_.push_back(std::move(f));
    if (sizeof(E) > scratch_elem_) scratch_elem_ = sizeof(E);
    return static_cast<E*>(fields_.back().data);
  }

  // Reorders every persistent field by perm (new[i] = old[perm[i]]) through the store's scratch buffer.
  void reorder(const uint32_t* perm) { reorder(perm, nullptr, 0, ReorderPlan{}); }

  // The bytes a reorder's scratch must hold (its largest field).
  std::size_t reorder_scratch_bytes() const { return scratch_elem_ * n_; }
  // The same through the caller's dead buffer `spare` of `bytes` (the liquid passes the sort's,
  // neighbors/cell_index.h), so the store needs no scratch of its own; its own where that is too small.
  void reorder(const uint32_t* perm, void* spare, std::size_t bytes) { reorder(perm, spare, bytes, ReorderPlan{}); }

  // What a reorder does besides the persistent fields: `carry`, fields the caller still reads after the
  // reorder though they are not persistent (gathered too); `dead`, non-persistent fields whose contents
  // the caller has finished with and rewrites before reading them again (the liquid's rates between its
  // kick-drift and its force pass).
  struct ReorderPlan {
    std::vector<std::string> carry, dead;
  };
  // The reorder with a plan: a field gathered into a dead field's buffer of its element size takes
  // that buffer, and the dead field the gathered field's old one, so the field needs no copy back (one
  // dead buffer serves every field of its size in turn: the liquid's positions and velocities go
  // through the acceleration's, its densities, masses and ids through the density rate's). The other
  // fields go through `spare` (or the store's scratch) and a copy back. Issue 18: the copies back were
  // 44 us of the float step's 1229 us at 1M particles on the H100 (docs/benchmarks.md). Buffers move: a
  // field's device pointer taken before the call (add, raw_data) is stale after it, and moves() counts
  // the calls that moved any.
  void reorder(const uint32_t* perm, void* spare, std::size_t bytes, const ReorderPlan& plan) {
    const auto listed = [](const std::vector<std::string>& names, const std::string& name) {
      return std::find(names.begin(), names.end(), name) != names.end();
    };
    std::vector<Field*> dead;
    for (auto& f : fields_)
      if (!f.info.persistent && listed(plan.dead, f.info.name) && !listed(plan.carry, f.info.name)) dead.push_back(&f);
    if (!spare || bytes < scratch_elem_ * n_) spare = nullptr;
    bool moved = false;
    for (auto& f : fields_) {
      if (!f.info.persistent && !listed(plan.carry, f.info.name)) continue;
      const auto d = std::find_if(dead.begin(), dead.end(), [&](const Field* g) { return g->elem_bytes == f.elem_bytes; });
      if (d != dead.end()) {
        f.gather((*d)->data, f.data, perm);
        std::swap(f.data, (*d)->data);
        moved = true;
        continue;
      }
      void* through = spare ? spare : own_scratch();
      f.gather(through, f.data, perm);
      exec_.copy(f.data, through, f.elem_bytes * n_);
    }
    if (moved) ++moves_;
  }
  // How many reorders moved a field's buffer (the probes' channel views follow them: probe_sampler.h).
  std::size_t moves() const { return moves_; }

  // The reorder's scratch buffer, at least elem_bytes a particle (grown to that): free for the caller
  // between reorders, which overwrite it (the liquid's packed neighbour record, solver/uniform_liquid.h).
  void* scratch(std::size_t elem_bytes) {
    if (scratch_ && elem_bytes > scratch_elem_) {
      exec_.deallocate(scratch_);
      bytes_ -= scratch_elem_ * n_;
      scratch_ = nullptr;
    }
    if (elem_bytes > scratch_elem_) scratch_elem_ = elem_bytes;
    if (!scratch_) {
      scratch_ = exec_.allocate(scratch_elem_ * n_);
      bytes_ += scratch_elem_ * n_;
    }
    return scratch_;
  }

  std::vector<FieldInfo> fields() const {
    std::vector<FieldInfo> out;
    for (auto& f : fields_) out.push_back(f.info);
    return out;
  }
  bool has(const std::string& name) const { return find(name) != nullptr; }

  const FieldInfo* info(const std::string& name) const {
    const Field* f = find(name);
    return f ? &f->info : nullptr;
  }

  // The field's bytes on the host, in its native element type (n elements), into `raw` (its
  // capacity is reused).
  void download_raw_into(const std::string& name, std::vector<unsigned char>& raw) const {
    const Field* f = find(name);
    if (!f) throw std::logic_error("no particle field '" + name + "'");
    raw.resize(f->elem_bytes * n_);
    exec_.download(raw.data(), f->data, raw.size());
  }
  std::vector<unsigned char> download_raw(const std::string& name) const {
    std::vector<unsigned char> raw;
    download_raw_into(name, raw);
    return raw;
  }

  // Replaces the field's contents; `raw` must hold exactly n elements of its native type.
  void upload_raw(const std::string& name, const std::vector<unsigned char>& raw) {
    Field* f = const_cast<Field*>(find(name));
    if (!f) throw std::logic_error("no particle field '" + name + "'");
    if (raw.size() != f->elem_bytes * n_) throw std::invalid_argument("field '" + name + "' has the wrong size");
    exec_.upload(f->data, raw.data(), raw.size());
  }

  // Copies a field to the host as doubles, n * components values.
  std::vector<double> download(const std::string& name) const {
    const Field* f = find(name);
    if (!f) throw std::logic_error("no particle field '" + name + "'");
    const std::vector<unsigned char> raw = download_raw(name);
    const std::size_t count = n_ * static_cast<std::size_t>(f->info.components);
    std::vector<double> out(count);
    for (std::size_t k = 0; k < count; ++k) {
      switch (f->info.scalar) {
        case ScalarType::Float32: out[k] = reinterpret_cast<const float*>(raw.data())[k]; break;
        case ScalarType::Float64: out[k] = reinterpret_cast<const double*>(raw.data())[k]; break;
        case ScalarType::UInt8: out[k] = raw[k]; break;
        case ScalarType::UInt32: out[k] = reinterpret_cast<const uint32_t*>(raw.data())[k]; break;
      }
    }
    return out;
  }

  std::size_t bytes() const { return bytes_; }
  // The field's storage (device memory on CUDA) for functors that read any field by name (the
  // viewer's colouring); nullptr for an unknown name. Valid until the store is destroyed or a reorder
  // with a plan moves the field's buffer (moves()).
  const void* raw_data(const std::string& name) const {
    const Field* f = find(name);
    return f ? f->data : nullptr;
  }
  // The same, typed, for the solver's views of its own fields after a reorder moved them.
  template <class E>
  E* data(const std::string& name) {
    const Field* f = find(name);
    if (!f || f->elem_bytes != sizeof(E)) throw std::logic_error("no particle field '" + name + "' of that element size");
    return static_cast<E*>(f->data);
  }

 private:
  struct Field {
    FieldInfo info;
    std::size_t elem_bytes = 0;
    void* data = nullptr;
    std::function<void(void*, const void*, const uint32_t*)> gather;
  };
  const Field* find(const std::string& name) const {
    for (auto& f : fields_)
      if (f.info.name == name) return &f;
    return nullptr;
  }
  void* own_scratch() {
    if (!scratch_) {
      scratch_ = exec_.allocate(scratch_elem_ * n_);
      bytes_ += scratch_elem_ * n_;
    }
    return scratch_;
  }
  Exec& exec_;
  std::size_t n_;
  std::vector<Field> fields_;
  void* scratch_ = nullptr;
  std::size_t scratch_elem_ = 0;
  std::size_t bytes_ = 0;
  std::size_t moves_ = 0;
};

}  // namespace ejecta
