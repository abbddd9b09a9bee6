// The liquid force pass's A/B variants of issue 18 (solver/terms/liquid_uniform_terms.h, variant()):
// fluid.force_threads = fluid launches the pass over a list of the fluid's sorted indices (flag, scan,
// scatter each pass) instead of every particle; fluid.force_registers = 64 bounds the CUDA kernel to 64
// registers (8 blocks of 128 a SM) in float. Each particle runs the same functor over the same
// candidates in the same order, so on the CPU the runs end in the same state bit for bit; on the GPU
// the variants are separately compiled kernels (FMA contraction may differ): round-off. The same for the
// two-phase neighbour loop of fluid.neighbour_batch (NeighbourBatch.*, below), whose queue in shared
// memory must give the state of its queue in local memory bit for bit on the GPU too.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace ejecta {
namespace {

std::unique_ptr<Simulation> run(std::vector<std::string> o, Backend backend, long steps, const char* scene = "dambreak3d.ini") {
  auto sim = make_simulation(test::shipped_scene(scene, o), backend);
  sim->set_count_pairs(true);
  StopRule rule;
  rule.max_steps = steps;
  StepLoop(*sim, rule).run();
  return sim;
}

void expect_same_pairs(const Simulation& a, const Simulation& b) {
  const PairCounts pa = a.pair_counts(), pb = b.pair_counts();
  EXPECT_GT(pa.real, 0);
  EXPECT_EQ(pa.real, pb.real) << "the same neighbours";
  EXPECT_EQ(pa.candidate, pb.candidate) << "the same candidates";
}

// 40 steps of the 3D dam break at dp = 0.06 (the column starts to fall), float, half cells (the default).
TEST(ForceVariants, FluidListSameStateAsEveryThread_DamBreak3D_Float) {
  // Every thread and 72 registers (the former defaults) against the fluid list and 64 (the defaults now).
  const auto a = run({"particles.dp=0.06", "fluid.force_threads=all", "fluid.force_registers=72"}, Backend::Cpu, 40);
  const auto b = run({"particles.dp=0.06", "fluid.force_threads=fluid", "fluid.force_registers=64"}, Backend::Cpu, 40);
  test::expect_same_state(*a, *b);
  expect_same_pairs(*a, *b);
}

// In double with cells of the support, Zhang's pair pressure, no-slip walls and XSPH (shifting off: the
// variants are built without it, and with shifting on the default pass runs whatever the keys say).
TEST(ForceVariants, FluidListSameStateAsEveryThread_Double) {
  const std::vector<std::string> o = {"particles.dp=0.06", "scene.precision=double", "fluid.pressure_term=zhang2017",
                                      "boundary.slip=no_slip", "fluid.xsph=0.1", "fluid.neighbour_cells=support"};
  std::vector<std::string> u = o, v = o;
  u.push_back("fluid.force_threads=all");
  v.push_back("fluid.force_threads=fluid");
  const auto a = run(u, Backend::Cpu, 40), b = run(v, Backend::Cpu, 40);
  test::expect_same_state(*a, *b);
  expect_same_pairs(*a, *b);
}

// fluid.neighbour_batch (physics/forces_wcsph_batch.h): per row of cells, the candidates within the
// support queued first, their pair terms computed after. The same pair function over the same pairs in
// the same order, so each variant ends in the state of the one loop bit for bit, for every option of the
// pass; with cells of the support (up to ~130 neighbours a row) the queues fill several times a row, so
// the resumed scan is exercised too. row32_shared and rows2_shared (the queue in shared memory on the
// GPU, exec/thread_slots.h) run the same loop here: their selection and launch are what is checked.
void expect_batches_same_state(std::vector<std::string> o, long steps, bool shared = false) {
  o.push_back("fluid.neighbour_batch=off");
  const auto base = run(o, Backend::Cpu, steps);
  std::vector<const char*> batches = {"fluid.neighbour_batch=row16", "fluid.neighbour_batch=row32",
                                      "fluid.neighbour_batch=rows2", "fluid.neighbour_batch=auto",
                                      "fluid.neighbour_batch=ring32", "fluid.neighbour_batch=ring64"};
  if (shared)
    batches.insert(batches.end(), {"fluid.neighbour_batch=row32_shared", "fluid.neighbour_batch=rows2_shared",
                                   "fluid.neighbour_batch=ring32_shared"});
  for (const char* batch : batches) {
    SCOPED_TRACE(batch);
    o.back() = batch;
    const auto s = run(o, Backend::Cpu, steps);
    test::expect_same_state(*base, *s);
    expect_same_pairs(*base, *s);
  }
}

// Float, the defaults (half cells, the fluid list, 64 registers, Adami's walls), the column starting to fall.
TEST(NeighbourBatch, SameStateAsOneLoop_DamBreak3D_Float) { expect_batches_same_state({"particles.dp=0.06"}, 40, true); }

// Double, cells of the support, Zhang's pair pressure, no-slip walls, XSPH, shifting, Molteni's diffusion.
TEST(NeighbourBatch, SameStateAsOneLoop_EveryOption_Double) {
  expect_batches_same_state({"particles.dp=0.06", "scene.precision=double", "fluid.neighbour_cells=support",
                             "fluid.pressure_term=zhang2017", "boundary.slip=no_slip", "fluid.xsph=0.1",
                             "fluid.shifting=0.2", "fluid.density_diffusion=molteni2009"},
                            30);
}

// Dynamic and modified dynamic boundary particles (wall masses as stored), every thread, 72 registers.
TEST(NeighbourBatch, SameStateAsOneLoop_DbcAndMdbc_Float) {
  expect_batches_same_state({"particles.dp=0.06", "boundary.model=dbc_crespo2007", "fluid.force_threads=all",
                             "fluid.force_registers=72"},
                            20);
  expect_batches_same_state({"particles.dp=0.06", "boundary.model=mdbc_english2022"}, 20);
}

// fluid.force_specialised = defaults (forces_wcsph.h's Defaults): the pass compiled for the default options,
// their branches removed, against the general pass (off): the same arithmetic on the same pairs, so the
// same state bit for bit, in 3D (the row32 loop, float) and in 2D (the one loop, double); and with an
// option off its defaults (XSPH, no-slip walls, Zhang's pressure, beta), where the general pass must run.
// A and B: the two values of fluid.force_specialised compared (off against defaults unless said).
void expect_specialised_same_state(const char* scene, std::vector<std::string> o, long steps, const char* a_value = "off",
                                   const char* b_value = "defaults") {
  std::vector<std::string> a = o, b = o;
  a.push_back(std::string("fluid.force_specialised=") + a_value);
  b.push_back(std::string("fluid.force_specialised=") + b_value);
  const auto general = run(a, Backend::Cpu, steps, scene), specialised = run(b, Backend::Cpu, steps, scene);
  test::expect_same_state(*general, *specialised);
  expect_same_pairs(*general, *specialised);
}

// The specialised pass runs where the options are the defaults (wcsph_default_options), so the shipped scenes must
// have them: were a default changed, the bit-identity tests below would still pass while every run took the
// general pass. The options the pass is compiled for, read from the shipped 3D and 2D dam breaks.
TEST(ForceVariants, ShippedDamBreaksHaveTheOptionsTheSpecialisedPassIsCompiledFor) {
  for (const char* scene : {"dambreak3d.ini", "dambreak2d.ini", "spheric2_slice2d.ini"}) {
    SCOPED_TRACE(scene);
    const ParamSet p = test::shipped_scene(scene, {});
    EXPECT_EQ(p.text("fluid.force_specialised"), "fast");
    EXPECT_EQ(p.text("fluid.force_kernel"), "particles");
    EXPECT_EQ(p.text("fluid.neighbour_batch"), "auto");
    EXPECT_EQ(p.text("fluid.pressure_term"), "monaghan1992");
    EXPECT_EQ(p.text("boundary.slip"), "at_rest");
    EXPECT_EQ(p.text("boundary.model"), "adami2012");
    EXPECT_EQ(p.text("fluid.density_diffusion"), "fourtakas2019");
    EXPECT_FALSE(p.flag("fluid.wall_diffusion"));
    EXPECT_EQ(p.real("fluid.xsph"), 0.0);
    EXPECT_EQ(p.real("viscosity.beta"), 0.0);
    EXPECT_EQ(p.real("fluid.shifting"), 0.0);
    EXPECT_EQ(p.text("particles.kernel"), "wendland_c2");
  }
}

TEST(ForceVariants, SpecialisedDefaultsSameStateAsGeneral_DamBreak3D_Float) {
  expect_specialised_same_state("dambreak3d.ini", {"particles.dp=0.06"}, 40);
}

TEST(ForceVariants, SpecialisedDefaultsSameStateAsGeneral_DamBreak2D_Double) {
  expect_specialised_same_state("dambreak2d.ini", {"particles.dp=0.004", "scene.precision=double"}, 100);
}

TEST(ForceVariants, SpecialisedDefaultsLeaveOtherOptionsToTheGeneralPass) {
  for (const char* option : {"fluid.xsph=0.1", "boundary.slip=no_slip", "fluid.pressure_term=zhang2017", "viscosity.beta=0.5",
                             "fluid.wall_diffusion=true", "boundary.slip=wall_law"}) {
    SCOPED_TRACE(option);
    expect_specialised_same_state("dambreak3d.ini", {"particles.dp=0.08", option}, 20);
  }
}

// On the GPU, each variant against the every-thread, 72-register kernel with one loop (the former default) over 200 steps
// at dp = 0.04, float.
TEST(ForceVariants, CudaVariantsAgreeWithTheDefaultPass_Float) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const auto base = run({"particles.dp=0.04", "fluid.force_threads=all", "fluid.force_registers=72", "fluid.neighbour_batch=off"},
                        Backend::Cuda, 200);
  for (const char* v : {"fluid.force_threads=fluid", "fluid.force_registers=64", "fluid.neighbour_batch=row16",
                        "fluid.neighbour_batch=row32", "fluid.neighbour_batch=rows2", "fluid.force_specialised=off",
                        "fluid.force_specialised=fast"}) {
    const auto s = run({"particles.dp=0.04", v}, Backend::Cuda, 200);
    const test::ParticleDifference d = test::max_difference_by_id(base->download(), s->download());
    std::printf("  %s against every thread and 72 registers, GPU, 200 steps: |dx| %.3g m, |dv| %.3g m/s, |drho| %.3g\n", v, d.position,
                d.velocity, d.density);
    EXPECT_LT(d.position, 1e-3 * 0.04) << v;
  }
}

// fluid.force_specialised = fast (core/pair_math.h): on the CPU the same instructions as defaults, so
// the same state bit for bit (the key's help says so), in 3D (float, row32) and 2D (float, the one loop).
TEST(ForceVariants, FastMathIsTheSpecialisedPassOnTheCpu) {
  for (const auto& [scene, dp] : {std::pair{"dambreak3d.ini", "particles.dp=0.06"}, std::pair{"dambreak2d.ini", "particles.dp=0.004"}}) {
    SCOPED_TRACE(scene);
    expect_specialised_same_state(scene, {dp}, 40, "defaults", "fast");
  }
}

// On the GPU, fast runs a kernel of its own (the approximate reciprocal and square root; in double
// refined by FMA steps): its state must differ both from the exact specialised pass's and from the
// general pass's (else the selection ran one of those), by round-off only, over 200 steps of the 3D dam
// break (row32) and 400 of the 2D one (the one loop) in float, and 200 steps of the 3D one in double,
// where round-off is nine orders smaller (the bound 1e-6 dp, the float's 1e-3 dp).
TEST(ForceVariants, CudaFastMathDiffersByRoundOffOnly) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  struct Case {
    const char* scene;
    double dp;
    long steps;
    const char* precision;
    double bound;  // in dp
  };
  for (const Case c : {Case{"dambreak3d.ini", 0.04, 200, "float", 1e-3}, Case{"dambreak2d.ini", 0.004, 400, "float", 1e-3},
                       Case{"dambreak3d.ini", 0.06, 200, "double", 1e-6}}) {
    SCOPED_TRACE(std::string(c.scene) + ", " + c.precision);
    const std::string dp = "particles.dp=" + std::to_string(c.dp), precision = std::string("scene.precision=") + c.precision;
    const auto fast = run({dp, precision, "fluid.force_specialised=fast"}, Backend::Cuda, c.steps, c.scene);
    for (const char* other : {"defaults", "off"}) {
      const auto o = run({dp, precision, std::string("fluid.force_specialised=") + other}, Backend::Cuda, c.steps, c.scene);
      const test::ParticleDifference d = test::max_difference_by_id(o->download(), fast->download());
      std::printf("  %s, %s: fast against %s, GPU, %ld steps: |dx| %.3g m, |dv| %.3g m/s, |drho| %.3g\n", c.scene, c.precision,
                  other, c.steps, d.position, d.velocity, d.density);
      EXPECT_GT(d.position + d.velocity + d.density, 0.0) << "fast ran the kernel of " << other;
      EXPECT_LT(d.position, c.bound * c.dp) << other;
    }
  }
}

// On the GPU, the queue in shared memory (row32_shared, rows2_shared) against the same loop with the queue
// in local memory (row32, rows2): the same pairs through the same instructions (the arithmetic of the
// pass does not change with where the queue's indices are kept, only the register allocation), so the
// same state bit for bit, in float with both launch bounds (fluid.force_registers 64 and 72) and in
// double, with cells of the support (refills) in double.
TEST(NeighbourBatch, CudaSharedQueueSameStateAsLocal) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const std::vector<std::vector<std::string>> settings = {
      {"particles.dp=0.04", "fluid.force_registers=64"},
      {"particles.dp=0.04", "fluid.force_registers=72"},
      {"particles.dp=0.06", "scene.precision=double", "fluid.neighbour_cells=support", "fluid.xsph=0.1"}};
  for (const auto& o : settings)
    for (const char* rows : {"row32", "rows2"}) {
      // The general pass on both sides: fluid.force_specialised compiles its own kernel for row32's local
      // queue only, another kernel (round-off apart) than the shared queue's.
      std::vector<std::string> a = o, b = o;
      a.push_back("fluid.force_specialised=off");
      b.push_back("fluid.force_specialised=off");
      a.push_back(std::string("fluid.neighbour_batch=") + rows);
      b.push_back(std::string("fluid.neighbour_batch=") + rows + "_shared");
      SCOPED_TRACE(b.back() + ", " + o[1]);
      const auto local = run(a, Backend::Cuda, 100), shared = run(b, Backend::Cuda, 100);
      test::expect_same_state(*local, *shared);
      expect_same_pairs(*local, *shared);
    }
}

// On the GPU, fluid.neighbour_batch = auto (row32 with the row's scan bounded by the queue's room in
// candidates, where a row's candidates fit the queue: the fast pass in float at h/dp 1.5 with half cells)
// against row32: the same pairs in the same order through the same pair function, so the same state bit
// for bit; at the defaults (the bounded scan runs) and with cells of the support (rows of up to ~130
// candidates: auto keeps row32's scan, the same kernel).
TEST(NeighbourBatch, CudaBoundedScanSameStateAsRow32) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  for (const std::vector<std::string>& o : std::vector<std::vector<std::string>>{
           {"particles.dp=0.04"}, {"particles.dp=0.04", "fluid.neighbour_cells=support"}}) {
    std::vector<std::string> a = o, b = o;
    a.push_back("fluid.neighbour_batch=row32");
    b.push_back("fluid.neighbour_batch=auto");
    SCOPED_TRACE(o.back());
    const auto row32 = run(a, Backend::Cuda, 100), bounded = run(b, Backend::Cuda, 100);
    test::expect_same_state(*row32, *bounded);
    expect_same_pairs(*row32, *bounded);
  }
}

// On the GPU, the ring's flushes (fluid.neighbour_batch = ring32, ring64, ring32_shared: the lanes of a warp
// vote on when to run their queued pairs, physics/forces_wcsph_ring.h) against auto and row32: each
// particle's pairs in the same order through the same pair function, whatever the warp's pace, so the
// same state bit for bit; at the defaults (the fast specialised pass), with cells of the support (rings
// filled and drained many times a particle) and in double with XSPH (the general pass).
TEST(NeighbourBatch, CudaRingSameStateAsRowFlushes) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const std::vector<std::pair<std::vector<std::string>, const char*>> settings = {
      {{"particles.dp=0.04"}, "auto"},
      {{"particles.dp=0.04", "fluid.neighbour_cells=support"}, "row32"},
      {{"particles.dp=0.06", "scene.precision=double", "fluid.xsph=0.1"}, "row32"}};
  for (const auto& [o, reference] : settings) {
    std::vector<std::string> a = o;
    a.push_back(std::string("fluid.neighbour_batch=") + reference);
    const auto base = run(a, Backend::Cuda, 100);
    for (const char* ring : {"ring32", "ring64", "ring32_shared"}) {
      std::vector<std::string> b = o;
      b.push_back(std::string("fluid.neighbour_batch=") + ring);
      SCOPED_TRACE(b.back() + ", " + o.back());
      const auto s = run(b, Backend::Cuda, 100);
      test::expect_same_state(*base, *s);
      expect_same_pairs(*base, *s);
    }
  }
}

}  // namespace
}  // namespace ejecta
