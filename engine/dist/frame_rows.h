#pragma once
// Particles as rows of a FrameData (every field of the solver's registry, in its native type): the
// unit that the halo exchange and the migration move, so that a particle always travels with all of
// its fields, whatever the solver registers (particles/particle_store.h).
#include "io/frame.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta::dist {

inline std::size_t row_bytes(const FieldData& f) { return std::size_t(f.info.components) * scalar_bytes(f.info.scalar); }

// Bytes of one particle over every field of the frame.
inline std::size_t record_bytes(const FrameData& f) {
  std::size_t b = 0;
  for (const FieldData& fd : f.fields) b += row_bytes(fd);
  return b;
}

// Appends row i of every field to `out`.
inline void append_row(const FrameData& f, std::size_t i, std::vector<unsigned char>& out) {
  for (const FieldData& fd : f.fields) {
    const std::size_t rb = row_bytes(fd);
    out.insert(out.end(), fd.bytes.begin() + std::ptrdiff_t(i * rb), fd.bytes.begin() + std::ptrdiff_t((i + 1) * rb));
  }
}

// Overwrites row i of every field from a record; returns the bytes read.
inline std::size_t write_row(FrameData& f, std::size_t i, const unsigned char* rec) {
  std::size_t off = 0;
  for (FieldData& fd : f.fields) {
    const std::size_t rb = row_bytes(fd);
    std::memcpy(fd.bytes.data() + i * rb, rec + off, rb);
    off += rb;
  }
  return off;
}

// A frame with the fields (names, types) of `like` and `n` rows, zeroed.
inline FrameData empty_like(const FrameData& like, std::size_t n) {
  FrameData f;
  f.time = like.time;
  f.step = like.step;
  f.dt = like.dt;
  f.particles = n;
  f.fields.resize(like.fields.size());
  for (std::size_t k = 0; k < like.fields.size(); ++k) {
    f.fields[k].info = like.fields[k].info;
    f.fields[k].bytes.assign(n * row_bytes(like.fields[k]), 0);
  }
  return f;
}

// Row i of a field as doubles (components values into out).
inline void row_values(const FieldData& fd, std::size_t i, double* out) {
  const int c = fd.info.components;
  for (int k = 0; k < c; ++k) {
    const std::size_t e = i * std::size_t(c) + std::size_t(k);
    switch (fd.info.scalar) {
      case ScalarType::Float32: out[k] = reinterpret_cast<const float*>(fd.bytes.data())[e]; break;
      case ScalarType::Float64: out[k] = reinterpret_cast<const double*>(fd.bytes.data())[e]; break;
      case ScalarType::UInt8: out[k] = fd.bytes[e]; break;
      case ScalarType::UInt32: out[k] = reinterpret_cast<const uint32_t*>(fd.bytes.data())[e]; break;
    }
  }
}

// Appends the rows of `from` to `into` (an empty `into` takes its fields and clock): the share of a
// distributed restart that one rank reads from several files.
inline void append_rows(FrameData& into, const FrameData& from) {
  if (into.fields.empty()) {
    into = from;
    return;
  }
  for (FieldData& fd : into.fields) {
    const FieldData* src = from.find(fd.info.name);
    if (!src || src->info.scalar != fd.info.scalar || src->info.components != fd.info.components)
      throw std::invalid_argument("the frames to join differ in field '" + fd.info.name + "'");
    fd.bytes.insert(fd.bytes.end(), src->bytes.begin(), src->bytes.end());
  }
  into.particles += from.particles;
}

// The fields by name: rows packed by one rank and read by another need one field order, which the
// registries need not share (a field added live comes last in one store, in its place in another).
inline void sort_fields(FrameData& f) {
  std::sort(f.fields.begin(), f.fields.end(),
            [](const FieldData& a, const FieldData& b) { return a.info.name < b.info.name; });
}

inline const uint32_t* ids_of(const FrameData& f) {
  const FieldData* id = f.find("id");
  return id ? reinterpret_cast<const uint32_t*>(id->bytes.data()) : nullptr;
}

}  // namespace ejecta::dist
