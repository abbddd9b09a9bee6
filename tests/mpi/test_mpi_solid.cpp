// The solid under mpirun -n 1, 2 and 4 (issue 19, ctest label mpi): a 2D impact (a basalt disc at
// 3 km/s into a basalt block: elastic-plastic with the von Mises limit, artificial stress, the
// Randles & Libersky kernel-gradient correction and Grady-Kipp damage from Weibull flaws) run as a
// DistributedSimulation against one process of the same scene.
//
// Tolerance, derived as for the dam break (test_mpi_dist.cpp): the distributed run computes each
// particle's rates from the same neighbours with the same functors, in another summation order, so it
// parts from one process by round-off that the flow carries and amplifies. That growth is measured:
// the single-process run is repeated with its particles given in another order (ids, and so the
// Weibull flaws, unchanged), and the distributed run must stay within 10 times that spread, in
// position and in damage (floors: 1e3 eps of the block's size, 1e-12 in damage). A missing ghost, a
// stress or damage not carried by the halo or the migration, or a flaw table indexed by the local
// numbering moves particles by a fraction of the spacing and damage by O(1), orders of magnitude above.
#include "../sim_test_util.h"
#include "../step_util.h"
#include "dist/dist_simulation.h"
#include "dist/frame_rows.h"
#include "io/h5_reader.h"
#include "io/h5_recorder.h"
#include "params/param_set.h"
#include "scene/solid_scene.h"
#include "solver/solver_factory.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>
#include <random>

namespace ejecta {
namespace {

int rank_of_world() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int size_of_world() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// 1330 particles (dp = 0.04 m): the block [-1, 1] x [-1, 0] m and a disc of radius 0.2 m touching it.
const char* kImpact2D = R"(
[scene]
name = impact2d_mpi
dim = 2
precision = double
[particles]
kernel = cubic_spline
[physics]
model = solid
gravity = 0, -9.81, 0
[solid]
h_over_dp = 1.3
artificial_stress = 0.3
gradient_correction = true
[viscosity]
alpha = 1
beta = 2
[time]
cfl = 0.3
[solid_block.1]
shape = box
min = -1, -1
max = 1, 0
dp = 0.04
material = basalt
[solid_block.2]
shape = sphere
center = 0, 0.22
radius = 0.2
dp = 0.04
material = basalt
velocity = 0, -3000
)";
const long kImpactSteps = 300;  // 0.27 ms: the crater opens and the block's back spalls (damage > 0.5)
const double kImpactSize = 2.0;

ParamSet impact(const std::vector<std::string>& extra = {}) {
  ParamSet p = read_scene_string(kImpact2D, "impact2d_mpi.ini");
  p.apply_override("dist.skin=0.5");  // a rebuild every ~25 steps once the disc moves (migration exercised)
  for (const auto& o : extra) p.apply_override(o);
  return p;
}

// A particle as gathered on rank 0.
struct SolidRow {
  double mass, x[2], damage, stress_xx, eps_p;
};
using SolidRows = std::map<uint32_t, SolidRow>;

std::vector<double> rows_of(const Simulation& sim) {
  FrameData f;
  sim.capture_frame_into(f, {"id", "mass", "position", "damage", "deviatoric_stress", "plastic_strain"});
  std::vector<double> out;
  double x[2], s[3], v;
  for (std::size_t i = 0; i < f.particles; ++i) {
    out.push_back(double(dist::ids_of(f)[i]));
    dist::row_values(*f.find("mass"), i, &v);
    out.push_back(v);
    dist::row_values(*f.find("position"), i, x);
    out.insert(out.end(), {x[0], x[1]});
    dist::row_values(*f.find("damage"), i, &v);
    out.push_back(v);
    dist::row_values(*f.find("deviatoric_stress"), i, s);
    out.push_back(s[0]);
    dist::row_values(*f.find("plastic_strain"), i, &v);
    out.push_back(v);
  }
  return out;
}
constexpr int kW = 7;

SolidRows to_rows(const std::vector<double>& all, int* duplicates) {
  SolidRows out;
  *duplicates = 0;
  for (std::size_t k = 0; k + kW <= all.size(); k += kW)
    if (!out.emplace(uint32_t(all[k]), SolidRow{all[k + 1], {all[k + 2], all[k + 3]}, all[k + 4], all[k + 5], all[k + 6]})
             .second)
      ++*duplicates;
  return out;
}

// Every rank's own particles on rank 0.
SolidRows gather(const Simulation& sim, int* duplicates) {
  const std::vector<double> mine = rows_of(sim);
  int n = int(mine.size());
  std::vector<int> counts(size_of_world()), displs(size_of_world());
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::partial_sum(counts.begin(), counts.end() - 1, displs.begin() + 1);
  std::vector<double> all(rank_of_world() == 0 ? std::size_t(displs.back() + counts.back()) : 0);
  MPI_Gatherv(mine.data(), n, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return to_rows(all, duplicates);
}

struct SolidReference {
  SolidRows rows;
  Diagnostics diag;
};

// One process, its particles in the scene's order or shuffled (ids, and so the flaws, kept).
std::unique_ptr<Simulation> one_process(const ParamSet& p, const SceneParticles& init, Backend backend) {
  if (backend == Backend::Cpu) return make_cpu_store_solver(p, init, Precision::Double);
#ifdef EJECTA_WITH_CUDA
  return make_cuda_store_solver_double(p, init);
#else
  throw std::runtime_error("no CUDA backend in this build");
#endif
}

SolidReference solid_reference(bool shuffled, Backend backend) {
  const ParamSet p = impact();
  const SceneParticles s = build_solid_scene(p);
  const std::size_t n = s.size();
  std::vector<std::size_t> perm(n);
  std::iota(perm.begin(), perm.end(), std::size_t(0));
  if (shuffled) std::shuffle(perm.begin(), perm.end(), std::mt19937(19));
  SceneParticles q = s;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = perm[k];
    for (int d = 0; d < 2; ++d) {
      q.position[k * 2 + d] = s.position[i * 2 + d];
      q.velocity[k * 2 + d] = s.velocity[i * 2 + d];
    }
    q.density[k] = s.density[i];
    q.mass[k] = s.mass[i];
    q.h[k] = s.h[i];
    q.material[k] = s.material[i];
    q.kind[k] = s.kind[i];
  }
  q.id.assign(perm.begin(), perm.end());
  std::unique_ptr<Simulation> sim = one_process(p, q, backend);
  test::step_n(*sim, kImpactSteps);
  int dup = 0;
  SolidReference r;
  r.rows = to_rows(rows_of(*sim), &dup);
  r.diag = sim->diagnostics();
  return r;
}

const SolidReference& solid_ref(Backend backend) {
  static std::map<Backend, SolidReference> cache;
  if (!cache.count(backend)) cache[backend] = solid_reference(false, backend);
  return cache[backend];
}

struct Spread {
  double dx = 0, dd = 0;
};
Spread spread_of(const SolidRows& a, const SolidRows& b) {
  Spread s;
  for (const auto& [id, r] : a) {
    const auto it = b.find(id);
    if (it == b.end()) return Spread{INFINITY, INFINITY};
    for (int d = 0; d < 2; ++d) s.dx = std::max(s.dx, std::fabs(r.x[d] - it->second.x[d]));
    s.dd = std::max(s.dd, std::fabs(r.damage - it->second.damage));
  }
  return s;
}

void expect_impact_same_as_one_process(Backend backend) {
  auto sim = std::make_unique<DistributedSimulation>(impact(), backend);
  test::step_n(*sim, kImpactSteps);
  int duplicates = 0;
  const SolidRows rows = gather(*sim, &duplicates);
  const Diagnostics diag = sim->diagnostics();
  const DistStats st = sim->stats();
  if (rank_of_world() != 0) return;
  const SolidReference& r = solid_ref(backend);
  const Spread shuffled = spread_of(solid_reference(true, backend).rows, r.rows);
  const double tol_x = std::max(10 * shuffled.dx, 1e3 * 2.2e-16 * kImpactSize);
  const double tol_d = std::max(10 * shuffled.dd, 1e-12);
  EXPECT_EQ(duplicates, 0);
  ASSERT_EQ(rows.size(), r.rows.size());
  bool mass_exact = true;
  double max_damage = 0, max_eps_p = 0;
  for (const auto& [id, row] : rows) {
    mass_exact = mass_exact && row.mass == r.rows.at(id).mass;
    max_damage = std::max(max_damage, r.rows.at(id).damage);
    max_eps_p = std::max(max_eps_p, r.rows.at(id).eps_p);
  }
  const Spread got = spread_of(rows, r.rows);
  const double de = std::fabs(diag.total - r.diag.total) / std::fabs(r.diag.total);
  std::printf("[ dist ] impact 2D on %d ranks (%s), %ld steps: max |dx| %.3e m (reordered one process %.3e, tolerance "
              "%.3e), max |dD| %.3e (reordered %.3e, tolerance %.3e); largest damage %.3f, plastic strain %.3e; total "
              "energy %.15e vs %.15e (rel. %.2e); time %.17g vs %.17g; rebuilds %ld, rank 0 owns %zu with %zu ghosts\n",
              size_of_world(), to_string(backend), kImpactSteps, got.dx, shuffled.dx, tol_x, got.dd, shuffled.dd, tol_d, max_damage, max_eps_p,
              diag.total, r.diag.total, de, diag.time, r.diag.time, st.rebuilds, st.owned, st.ghosts);
  EXPECT_TRUE(mass_exact);
  EXPECT_LE(got.dx, tol_x);
  EXPECT_LE(got.dd, tol_d);
  // The scene must exercise what the halo carries: damage and plastic flow both well under way.
  EXPECT_GT(max_damage, 0.5);
  EXPECT_GT(max_eps_p, 0.0);
  if (size_of_world() > 1) EXPECT_GE(st.rebuilds, 3);
  EXPECT_NEAR(diag.mass, r.diag.mass, 1e-14 * double(rows.size()) * r.diag.mass);
  EXPECT_LE(de, 1e-12);
  EXPECT_NEAR(diag.time, r.diag.time, 1e-12 * r.diag.time);  // dt from v_sig, summed in another order
}

TEST(DistImpact2D, SameAsOneProcess) { expect_impact_same_as_one_process(Backend::Cpu); }

// The CUDA backend (label gpu): each rank's store of solids on its device, the halo packed by CUDA kernels;
// against one CUDA process by the same rule (that backend's own reordering spread).
TEST(DistCudaImpact2D, SameAsOneCudaProcess) {
  if (!cuda_available()) GTEST_SKIP() << "no usable CUDA device: " << cuda_unavailable_reason();
  if (size_of_world() < 2) GTEST_SKIP() << "run with mpirun -n 2 (or more)";
  expect_impact_same_as_one_process(Backend::Cuda);
}

// A solid restart under MPI (ctest mpi_impact_restart_write_4, then mpi_impact_restart_continue_2): the
// impact run on 4 ranks to half its steps, each rank's particles written to its own file (every stored
// field: stress, plastic strain, damage, active flaws, the stage buffers), then continued on 2 ranks
// (each reads files r and r + 2, the particles redistributed) to the end, against one uninterrupted
// process by the rule above (positions and damage within 10 times the reordering spread). A stress or
// damage lost by the restart, or a flaw table indexed by the new ranks' numbering, is O(1) off.
std::string impact_restart_file(int rank, int ranks) {
  return std::string(EJECTA_BINARY_DIR) + "/mpi-impact-restart/impact2d.rank" + std::to_string(rank) + "of" +
         std::to_string(ranks) + ".h5";
}

TEST(DistImpactRestart, WriteOnFour) {
  if (size_of_world() != 4) GTEST_SKIP() << "run with mpirun -n 4";
  auto sim = std::make_unique<DistributedSimulation>(impact(), Backend::Cpu);
  test::step_n(*sim, kImpactSteps / 2);
  std::filesystem::create_directories(std::string(EJECTA_BINARY_DIR) + "/mpi-impact-restart");
  RunInfo info;
  info.dim = sim->dim();
  info.precision = "double";
  info.backend = "cpu";
  info.scene_ini = impact().to_ini();
  H5Recorder rec(impact_restart_file(rank_of_world(), 4), info, RecordOptions{});
  rec.write_frame(sim->capture_frame());
  rec.close();
  EXPECT_EQ(sim->steps(), kImpactSteps / 2);
}

TEST(DistImpactRestart, ContinueOnTwo) {
  if (size_of_world() != 2) GTEST_SKIP() << "run with mpirun -n 2 after DistImpactRestart.WriteOnFour on 4";
  FrameData mine;
  for (int file = rank_of_world(); file < 4; file += 2) {
    H5Reader reader(impact_restart_file(file, 4));
    ASSERT_EQ(reader.frame_count(), 1u);
    dist::append_rows(mine, reader.read_frame(0));
  }
  auto sim = std::make_unique<DistributedSimulation>(impact(), Backend::Cpu);
  sim->restore_frame(mine);
  EXPECT_EQ(sim->steps(), kImpactSteps / 2);
  test::step_n(*sim, kImpactSteps - kImpactSteps / 2);
  int duplicates = 0;
  const SolidRows rows = gather(*sim, &duplicates);
  const double time = sim->time();
  if (rank_of_world() != 0) return;
  const SolidReference& r = solid_ref(Backend::Cpu);
  const Spread shuffled = spread_of(solid_reference(true, Backend::Cpu).rows, r.rows);
  const double tol_x = std::max(10 * shuffled.dx, 1e3 * 2.2e-16 * kImpactSize);
  const double tol_d = std::max(10 * shuffled.dd, 1e-12);
  EXPECT_EQ(duplicates, 0);
  ASSERT_EQ(rows.size(), r.rows.size());
  bool mass_exact = true;
  double max_damage = 0;
  for (const auto& [id, row] : rows) {
    mass_exact = mass_exact && row.mass == r.rows.at(id).mass;
    max_damage = std::max(max_damage, row.damage);
  }
  const Spread got = spread_of(rows, r.rows);
  std::printf("[ dist ] impact 2D restart written by 4 ranks at step %ld, continued on 2 to step %ld: max |dx| %.3e m "
              "(tolerance %.3e), max |dD| %.3e (tolerance %.3e), largest damage %.3f; time %.17g vs %.17g\n",
              kImpactSteps / 2, kImpactSteps, got.dx, tol_x, got.dd, tol_d, max_damage, time, r.diag.time);
  EXPECT_TRUE(mass_exact);
  EXPECT_LE(got.dx, tol_x);
  EXPECT_LE(got.dd, tol_d);
  EXPECT_GT(max_damage, 0.5);
  EXPECT_NEAR(time, r.diag.time, 1e-12 * r.diag.time);
}

// The models that do not run distributed are refused with the key and a suggestion, on every rank.
TEST(DistImpact2D, UnsupportedSettingsAreRefused) {
  auto message = [](const std::vector<std::string>& extra) -> std::string {
    try {
      DistributedSimulation sim(impact(extra), Backend::Cpu);
    } catch (const ParamError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(message({"time.integrator=rk23"}).find("time.integrator = rk23 does not run on several MPI ranks"),
            std::string::npos);
  EXPECT_NE(message({"dist.halo=frame"}).find("dist.halo = packed"), std::string::npos);
  ParamSet gas = test::shipped_scene("sod1d.ini");
  std::string what;
  try {
    make_distributed_simulation(gas, Backend::Cpu);
  } catch (const ParamError& e) {
    what = e.what();
  }
  EXPECT_NE(what.find("physics.model = gas does not run on several MPI ranks yet"), std::string::npos) << what;
}

}  // namespace

namespace test_mpi {
ParamSet impact_scene(const std::vector<std::string>& extra) { return impact(extra); }
}  // namespace test_mpi
}  // namespace ejecta
