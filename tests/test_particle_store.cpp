// The particle store's reorder (particles/particle_store.h) on the CPU backend: the reorder with a plan
// (the liquid's step: its rates' buffers dead, positions, velocities and densities moved through them)
// against the plain reorder, field by field; the fields it carries, the ones it leaves, and the probes'
// channel views following the moved buffers (probes/probe_sampler.h).
#include "core/vec.h"
#include "exec/exec_cpu.h"
#include "particles/particle_store.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace ejecta {
namespace {

using V = Vec<float, 3>;
constexpr std::size_t kN = 1000;

// A store with the liquid's kinds of fields: persistent vectors, floats, ids and kinds; non-persistent
// rates (a vector and a float) and a pressure; each filled with values that name its field and row.
struct Fields {
  V *x, *v, *a;
  float *rho, *drho, *p;
  uint32_t* id;
  uint8_t* kind;
};
Fields make_fields(ParticleStore<CpuExec>& s) {
  Fields f{};
  f.x = s.add<V>(FieldInfo{"position", 1, "m", "", ScalarType::Float32, true});
  f.v = s.add<V>(FieldInfo{"velocity", 1, "m/s", "", ScalarType::Float32, true});
  f.rho = s.add<float>(FieldInfo{"density", 1, "kg/m^3", "", ScalarType::Float32, true});
  f.p = s.add<float>(FieldInfo{"pressure", 1, "Pa", "", ScalarType::Float32, false});
  f.a = s.add<V>(FieldInfo{"acceleration", 1, "m/s^2", "", ScalarType::Float32, false});
  f.drho = s.add<float>(FieldInfo{"density_rate", 1, "kg/(m^3 s)", "", ScalarType::Float32, false});
  f.kind = s.add<uint8_t>(FieldInfo{"kind", 1, "", "", ScalarType::UInt8, true});
  f.id = s.add<uint32_t>(FieldInfo{"id", 1, "", "", ScalarType::UInt32, true});
  for (std::size_t i = 0; i < kN; ++i) {
    const float r = float(i);
    f.x[i] = V{r, r + 0.25f, r + 0.5f};
    f.v[i] = V{-r, 2 * r, 3 * r};
    f.a[i] = V{10 * r, 11 * r, 12 * r};
    f.rho[i] = 1000 + r;
    f.drho[i] = 5 * r;
    f.p[i] = 7 * r;
    f.kind[i] = uint8_t(i % 3);
    f.id[i] = uint32_t(i);
  }
  return f;
}

std::vector<uint32_t> shuffled(unsigned seed) {
  std::vector<uint32_t> perm(kN);
  std::iota(perm.begin(), perm.end(), 0u);
  std::shuffle(perm.begin(), perm.end(), std::mt19937(seed));
  return perm;
}

std::vector<double> values(const ParticleStore<CpuExec>& s, const char* name) { return s.download(name); }

TEST(ParticleStore, ReorderThroughDeadFieldsGathersAsTheCopyingReorder) {
  CpuExec exec;
  ParticleStore<CpuExec> plain(exec, kN), moved(exec, kN);
  make_fields(plain);
  const Fields before = make_fields(moved);
  ParticleStore<CpuExec>::ReorderPlan plan;
  plan.dead = {"acceleration", "density_rate"};
  // Three steps: each persistent field goes through the dead buffer of its size (a cycle of buffers).
  for (unsigned step = 0; step < 3; ++step) {
    const std::vector<uint32_t> perm = shuffled(step + 1);
    plain.reorder(perm.data());
    moved.reorder(perm.data(), nullptr, 0, plan);
    EXPECT_EQ(moved.moves(), step + 1);
    for (const char* name : {"position", "velocity", "density", "kind", "id"})
      EXPECT_EQ(values(moved, name), values(plain, name)) << name << " after step " << step;
    // The pressure is neither carried nor dead: left in place, in the old order, as the plain reorder leaves it.
    EXPECT_EQ(moved.raw_data("pressure"), static_cast<const void*>(before.p));
    EXPECT_EQ(values(moved, "pressure"), values(plain, "pressure"));
    // The vectors and the 4-byte fields moved through the rates' buffers, a cycle of three buffers each
    // (position, velocity, acceleration; density, id, density rate): moved after the first and second
    // reorders, back after the third. The kinds (no dead field of their size) were copied back in place.
    const bool back = step == 2;
    EXPECT_EQ(moved.raw_data("position") == static_cast<const void*>(before.x), back) << step;
    EXPECT_EQ(moved.raw_data("acceleration") == static_cast<const void*>(before.a), back) << step;
    EXPECT_EQ(moved.raw_data("density_rate") == static_cast<const void*>(before.drho), back) << step;
    EXPECT_EQ(moved.raw_data("kind"), static_cast<const void*>(before.kind));
  }
  EXPECT_EQ(moved.data<V>("position"), moved.raw_data("position"));
  EXPECT_THROW(moved.data<float>("position"), std::logic_error);  // another element size
}

TEST(ParticleStore, ReorderCarriesANonPersistentFieldAskedFor) {
  CpuExec exec;
  ParticleStore<CpuExec> s(exec, kN);
  make_fields(s);
  const std::vector<double> a0 = values(s, "acceleration"), p0 = values(s, "pressure");
  const std::vector<uint32_t> perm = shuffled(7);
  ParticleStore<CpuExec>::ReorderPlan plan;
  plan.carry = {"acceleration"};
  plan.dead = {"acceleration", "density_rate"};  // carried wins over dead: the acceleration is gathered
  s.reorder(perm.data(), nullptr, 0, plan);
  const std::vector<double> a1 = values(s, "acceleration");
  for (std::size_t i = 0; i < kN; ++i)
    for (int d = 0; d < 3; ++d) ASSERT_EQ(a1[3 * i + d], a0[3 * perm[i] + d]) << "row " << i;
  EXPECT_EQ(values(s, "pressure"), p0);
  // Without a dead buffer of their size the vectors were copied back; the floats and ids moved.
  EXPECT_EQ(s.moves(), 1u);
}

TEST(ParticleStore, PlainReorderMovesNoBuffer) {
  CpuExec exec;
  ParticleStore<CpuExec> s(exec, kN);
  const Fields f = make_fields(s);
  const std::vector<uint32_t> perm = shuffled(3);
  s.reorder(perm.data());
  s.reorder(perm.data(), nullptr, 0);
  EXPECT_EQ(s.moves(), 0u);
  EXPECT_EQ(s.raw_data("position"), static_cast<const void*>(f.x));
  EXPECT_EQ(s.raw_data("acceleration"), static_cast<const void*>(f.a));
}

}  // namespace
}  // namespace ejecta
