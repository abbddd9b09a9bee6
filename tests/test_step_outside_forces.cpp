// The liquid's step outside the force pass (issue 18, helper speed11; docs/benchmarks.md, "the step
// outside the force pass"): the bucket table in two passes (neighbors/bucket_offsets.h) against
// std::lower_bound; the store's reorder in groups of fields (particles/field_moves.h) against a gather
// per field, through the store's own scratch and through a spare of 12 bytes a particle at a 4-byte
// boundary (the liquid's, in the sort block); the grouping of the liquid's fields; the walls' pressure
// pass over the wet walls' list (boundary.wall_threads = wet) against every thread, bit for bit.
#include "exec/exec_cpu.h"
#include "neighbors/bucket_offsets.h"
#include "particles/particle_store.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

namespace ejecta {
namespace {

// Sorted keys with long empty runs (the air over the water), crowded keys and the last keys empty.
void expect_offsets_match(std::size_t n, uint32_t m, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> keys(n);
  for (auto& k : keys) {
    const uint32_t r = rng() % 4;
    k = r == 0 ? rng() % std::max(1u, m / 3) : r == 1 ? m / 2 + rng() % 3 : rng() % std::max(1u, m - m / 8);
    k = std::min(k, m - 1);
  }
  std::sort(keys.begin(), keys.end());
  CpuExec exec;
  std::vector<uint32_t> offset(std::size_t(m) + 1, 0xdeadbeefu);
  build_bucket_offsets(exec, keys.data(), offset.data(), uint32_t(n), m);
  for (uint32_t b = 0; b <= m; ++b)
    ASSERT_EQ(offset[b], uint32_t(std::lower_bound(keys.begin(), keys.end(), b) - keys.begin()))
        << "key " << b << " of " << m << ", n " << n;
}

TEST(BucketTable, TwoPassesMatchLowerBound) {
  expect_offsets_match(5000, 10000, 1u);  // about 2 keys a particle, as the liquid's grid
  expect_offsets_match(5000, 6400, 2u);   // m a multiple of 64
  expect_offsets_match(300, 100000, 3u);  // mostly empty
  expect_offsets_match(20000, 70, 4u);    // crowded, m just over one stretch
  expect_offsets_match(10, 1, 5u);        // one key
  expect_offsets_match(0, 130, 6u);       // no particle
}

// The liquid's eight persistent fields (float 3D) in its 12 bytes a particle: five groups.
TEST(FieldGroups, TheLiquidsFieldsInFiveGroups) {
  const std::size_t n = 1001;
  const std::vector<std::size_t> elem = {12, 12, 4, 12, 4, 4, 1, 4};  // x, v, rho, vp, rhop, m, kind, id
  const std::vector<FieldGroup> g = pack_field_groups(elem, n, 12 * n);
  ASSERT_EQ(g.size(), 5u);
  std::vector<int> seen(elem.size(), 0);
  for (const FieldGroup& group : g) {
    EXPECT_LE(group.used, 12 * n);
    for (int k = 0; k < group.count; ++k) {
      ++seen[std::size_t(group.field[k])];
      EXPECT_EQ(group.offset[k] % 16, 0u);
    }
  }
  for (int s : seen) EXPECT_EQ(s, 1);
}

// A store of fields of every element kind, reordered by a random permutation, against a gather per field.
template <class E>
std::vector<E> random_field(std::size_t n, std::mt19937& rng) {
  std::vector<E> v(n);
  unsigned char* bytes = reinterpret_cast<unsigned char*>(v.data());
  for (std::size_t k = 0; k < sizeof(E) * n; ++k) bytes[k] = static_cast<unsigned char>(rng());
  return v;
}

template <class E>
void add_field(ParticleStore<CpuExec>& store, const char* name, bool persistent, std::size_t n, std::mt19937& rng,
               std::vector<std::vector<unsigned char>>& host) {
  FieldInfo info;
  info.name = name;
  info.persistent = persistent;
  E* data = store.add<E>(info);
  const std::vector<E> v = random_field<E>(n, rng);
  std::memcpy(data, v.data(), sizeof(E) * n);
  host.emplace_back(reinterpret_cast<const unsigned char*>(v.data()),
                    reinterpret_cast<const unsigned char*>(v.data()) + sizeof(E) * n);
}

void expect_reorder_matches(bool spare) {
  const std::size_t n = 777;
  std::mt19937 rng(11u);
  CpuExec exec;
  ParticleStore<CpuExec> store(exec, n);
  std::vector<std::vector<unsigned char>> host;
  // With the spare, no field larger than its 12 bytes a particle (else the store takes its own scratch).
  std::vector<const char*> names = {"x", "v", "rho", "id", "kind", "derived", "pair"};
  add_field<Vec<float, 3>>(store, names[0], true, n, rng, host);
  add_field<Vec<float, 2>>(store, names[1], true, n, rng, host);  // 8 bytes: 4-byte words at the spare
  add_field<float>(store, names[2], true, n, rng, host);
  add_field<uint32_t>(store, names[3], true, n, rng, host);
  add_field<uint8_t>(store, names[4], true, n, rng, host);
  add_field<float>(store, names[5], false, n, rng, host);  // not persistent: left as it is
  add_field<Vec<uint32_t, 2>>(store, names[6], true, n, rng, host);
  if (!spare) {
    names.push_back("dd");
    names.push_back("vd");
    add_field<double>(store, names[7], true, n, rng, host);          // 8-byte words
    add_field<Vec<double, 3>>(store, names[8], true, n, rng, host);  // the largest field
  }
  std::vector<uint32_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = uint32_t(i);
  std::shuffle(perm.begin(), perm.end(), rng);
  // The spare: 12 bytes a particle starting 4 bytes into a buffer (the sort block's second word run).
  std::vector<uint32_t> block(3 * n + 1);
  if (spare)
    store.reorder(perm.data(), block.data() + 1, 12 * n);
  else
    store.reorder(perm.data());
  for (std::size_t f = 0; f < host.size(); ++f) {
    const FieldInfo* info = store.info(names[f]);
    ASSERT_NE(info, nullptr);
    const std::vector<unsigned char> got = store.download_raw(names[f]);
    const std::size_t e = host[f].size() / n;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t from = info->persistent ? perm[i] : i;
      ASSERT_EQ(std::memcmp(got.data() + e * i, host[f].data() + e * from, e), 0) << names[f] << " particle " << i;
    }
  }
}

TEST(FieldGroups, ReorderMatchesAGatherPerField_OwnScratch) { expect_reorder_matches(false); }
TEST(FieldGroups, ReorderMatchesAGatherPerField_Spare) { expect_reorder_matches(true); }

// boundary.wall_threads = wet: the wall pass over the wet walls' list, each wall's sums as over every
// particle, so the same state bit for bit (40 steps of the 3D dam break at dp 0.06, float, half cells;
// in double with cells of the support, no-slip walls and the walls' pressure with the fluid's acceleration).
std::unique_ptr<Simulation> run_dam_break(std::vector<std::string> o, long steps) {
  auto sim = make_simulation(test::shipped_scene("dambreak3d.ini", o), Backend::Cpu);
  StopRule rule;
  rule.max_steps = steps;
  StepLoop(*sim, rule).run();
  return sim;
}

void expect_wet_list_same_state(std::vector<std::string> o, long steps) {
  std::vector<std::string> all = o, wet = o;
  all.push_back("boundary.wall_threads=all");
  wet.push_back("boundary.wall_threads=wet");
  const auto a = run_dam_break(all, steps), b = run_dam_break(wet, steps);
  test::expect_same_state(*a, *b);
  // The walls' values too, the dry walls' included (given by the flag pass over the list; no fluid
  // particle reads them, so the state alone would not tell).
  const std::vector<std::string> walls = {"pressure", "density_predicted", "velocity_predicted"};
  const FrameData fa = a->capture_frame(walls), fb = b->capture_frame(walls);
  ASSERT_EQ(fa.fields.size(), walls.size());
  for (std::size_t k = 0; k < walls.size(); ++k) EXPECT_EQ(fa.fields[k].bytes, fb.fields[k].bytes) << walls[k];
}

TEST(WallThreads, WetListSameState_DamBreak3D_Float) { expect_wet_list_same_state({"particles.dp=0.06"}, 40); }
TEST(WallThreads, WetListSameState_Double) {
  expect_wet_list_same_state({"particles.dp=0.06", "scene.precision=double", "fluid.neighbour_cells=support",
                              "boundary.slip=no_slip", "boundary.wall_pressure=fluid_acceleration"},
                             30);
}

}  // namespace
}  // namespace ejecta
