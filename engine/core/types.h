#pragma once
// Run-time choices that select a compiled instantiation of the solver.
#include <cstdint>
#include <string>

namespace ejecta {

enum class Backend { Cpu, Cuda };
enum class Precision { Float, Double };

inline const char* to_string(Backend b) { return b == Backend::Cpu ? "cpu" : "cuda"; }
inline const char* to_string(Precision p) { return p == Precision::Float ? "float" : "double"; }

// Particle kinds stored per particle; walls are fixed boundary particles (Adami, Hu & Adams 2012).
enum ParticleKind : uint8_t { kFluid = 0, kWall = 1 };

}  // namespace ejecta
