// The legend's histogram measured by the engine (Simulation::colour_histogram,
// render_data/colour_histogram.h): equal to a histogram built on the host from the downloaded field,
// on the CPU backend for the three solvers; on CUDA (GPU-only, skips without a device) equal to the host
// histogram of its own download, and in agreement with the CPU backend.
#include "render_data/colour_histogram.h"
#include "sim_test_util.h"
#include "step_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace ejecta {
namespace {

// The colour value of every particle from a host frame (the definition: the component, or the
// magnitude of a vector computed in double, as a float), and whether it counts (fluid).
struct HostValues {
  std::vector<float> v;
  std::vector<bool> counts;
};

HostValues host_values(const Simulation& sim, const RenderRequest& req) {
  const FrameData f = sim.capture_frame({req.field, "kind"});
  const FieldData& x = *f.find(req.field);
  const FieldData& k = *f.find("kind");
  const int comps = x.info.components;
  auto raw = [&](std::size_t e) -> double {
    switch (x.info.scalar) {
      case ScalarType::Float32: return reinterpret_cast<const float*>(x.bytes.data())[e];
      case ScalarType::Float64: return reinterpret_cast<const double*>(x.bytes.data())[e];
      case ScalarType::UInt8: return x.bytes[e];
      default: return reinterpret_cast<const uint32_t*>(x.bytes.data())[e];
    }
  };
  HostValues out;
  bool any_fluid = false;
  for (std::size_t i = 0; i < f.particles; ++i) any_fluid = any_fluid || k.bytes[i] == kFluid;
  for (std::size_t i = 0; i < f.particles; ++i) {
    double s = 0;
    if (comps == 1) {
      s = raw(i);
    } else if (req.component >= 0) {
      s = raw(i * comps + req.component);
    } else {
      for (int c = 0; c < comps; ++c) s += raw(i * comps + c) * raw(i * comps + c);
      s = std::sqrt(s);
    }
    out.v.push_back(float(s));
    out.counts.push_back(!any_fluid || k.bytes[i] == kFluid);
  }
  return out;
}

// The reference: 32 equal bins over [lo, hi], the ends taking what lies outside, non-finite values
// left out, written out here on its own.
std::vector<uint32_t> host_histogram(const HostValues& h, float lo, float hi) {
  std::vector<uint32_t> c(kColourHistogramBins, 0u);
  for (std::size_t i = 0; i < h.v.size(); ++i) {
    if (!h.counts[i] || !std::isfinite(h.v[i])) continue;
    long b = kColourHistogramBins / 2;
    if (hi > lo) {
      const float t = (h.v[i] - lo) / (hi - lo) * float(kColourHistogramBins);
      b = t <= 0 ? 0 : (t >= kColourHistogramBins ? kColourHistogramBins - 1 : long(std::floor(t)));
    }
    ++c[std::size_t(b)];
  }
  return c;
}

std::pair<float, float> host_range(const HostValues& h) {
  float lo = std::numeric_limits<float>::max(), hi = -lo;
  for (std::size_t i = 0; i < h.v.size(); ++i)
    if (h.counts[i] && std::isfinite(h.v[i])) lo = std::min(lo, h.v[i]), hi = std::max(hi, h.v[i]);
  return {lo, hi};
}

std::size_t total(const std::vector<uint32_t>& c) {
  std::size_t s = 0;
  for (uint32_t x : c) s += x;
  return s;
}

// The measured range and a narrower manual one (so both end bins collect the values outside) give the
// host's counts, for each request.
void expect_host_histograms(Simulation& sim, const std::vector<RenderRequest>& reqs) {
  for (const RenderRequest& req : reqs) {
    SCOPED_TRACE(req.field + " component " + std::to_string(req.component));
    const HostValues h = host_values(sim, req);
    const auto [lo, hi] = host_range(h);
    ASSERT_LT(lo, hi) << "a field with a spread of values";
    const ColourHistogram measured = sim.colour_histogram(req, 1.f, 0.f);  // lo > hi: measure the range
    EXPECT_EQ(measured.min, lo);
    EXPECT_EQ(measured.max, hi);
    EXPECT_EQ(measured.counts, host_histogram(h, lo, hi));
    std::size_t counted = 0;
    for (std::size_t i = 0; i < h.v.size(); ++i) counted += h.counts[i] ? 1 : 0;
    EXPECT_EQ(total(measured.counts), counted) << "every counted particle in one bin";
    const float a = lo + 0.3f * (hi - lo), b = lo + 0.6f * (hi - lo);
    const ColourHistogram manual = sim.colour_histogram(req, a, b);
    EXPECT_EQ(manual.min, a);
    EXPECT_EQ(manual.max, b);
    EXPECT_EQ(manual.counts, host_histogram(h, a, b));
    EXPECT_GT(manual.counts.front(), 0u) << "values below the range go to the first bin";
    EXPECT_GT(manual.counts.back(), 0u) << "values above the range go to the last bin";
  }
}

TEST(ColourHistogram, BinsOfValues) {
  EXPECT_EQ(colour_bin(0.f, 0.f, 1.f, 32), 0);
  EXPECT_EQ(colour_bin(1.f, 0.f, 1.f, 32), 31) << "the top of the range is in the last bin";
  EXPECT_EQ(colour_bin(0.5f, 0.f, 1.f, 32), 16);
  EXPECT_EQ(colour_bin(0.49f, 0.f, 1.f, 32), 15);
  EXPECT_EQ(colour_bin(-7.f, 0.f, 1.f, 32), 0);
  EXPECT_EQ(colour_bin(3e38f, 0.f, 1.f, 32), 31);
  EXPECT_EQ(colour_bin(5.f, 2.f, 2.f, 32), 16) << "a degenerate range: the middle bin";
  EXPECT_EQ(colour_bin(std::numeric_limits<float>::quiet_NaN(), 0.f, 1.f, 32), -1);
  EXPECT_EQ(colour_bin(std::numeric_limits<float>::infinity(), 0.f, 1.f, 32), -1);
}

TEST(ColourHistogram, EqualsHostHistogramOnTheCpu_Liquid) {
  auto sim = make_simulation(test::shipped_scene("dambreak2d.ini", {"particles.dp=0.01"}), Backend::Cpu);
  test::step_n(*sim, 20);  // moving fluid: a spread of speeds and pressures
  expect_host_histograms(*sim, {{"velocity", -1}, {"velocity", 1}, {"density", -1}, {"pressure", -1}, {"id", -1}});
  // Walls (kind 1) are left out: the kind field has a single value over the fluid.
  const ColourHistogram k = sim->colour_histogram(RenderRequest{"kind", -1}, -0.5f, 9.5f);
  EXPECT_EQ(total(k.counts), sim->fluid_count());
  EXPECT_THROW(sim->colour_histogram(RenderRequest{"speed", -1}, 0.f, 1.f), std::invalid_argument);
  EXPECT_THROW(sim->colour_histogram(RenderRequest{"velocity", 2}, 0.f, 1.f), std::invalid_argument);
}

TEST(ColourHistogram, EqualsHostHistogramOnTheCpu_GasAndSolid) {
  auto gas = make_simulation(test::shipped_scene("sod1d.ini"), Backend::Cpu);
  test::step_n(*gas, 5);
  expect_host_histograms(*gas, {{"density", -1}, {"pressure", -1}});
  auto solid = make_simulation(test::shipped_scene("plate2d.ini"), Backend::Cpu);
  test::step_n(*solid, 1);
  expect_host_histograms(*solid, {{"position", 0}, {"position", 1}});
}

// GPU-only: the device histogram against the host histogram of the device's own download (the same
// values, so the same counts), and against the CPU backend on the same initial state.
TEST(ColourHistogram, CudaEqualsHostHistogramAndAgreesWithCpu) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const ParamSet p = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.01", "scene.precision=double"});
  auto gpu = make_simulation(p, Backend::Cuda);
  auto cpu = make_simulation(p, Backend::Cpu);
  // The initial state is the same on both (no step yet): identical histograms.
  for (const RenderRequest req : {RenderRequest{"position", 0}, RenderRequest{"position", 1}, RenderRequest{"id", -1}}) {
    const ColourHistogram g = gpu->colour_histogram(req, 1.f, 0.f), c = cpu->colour_histogram(req, 1.f, 0.f);
    EXPECT_EQ(g.min, c.min);
    EXPECT_EQ(g.max, c.max);
    EXPECT_EQ(g.counts, c.counts) << req.field;
  }
  test::step_n(*gpu, 20);
  expect_host_histograms(*gpu, {{"velocity", 1}, {"density", -1}, {"pressure", -1}});
  // Magnitudes: the device may fuse the sum of squares (FMA), a last-bit difference that can move a
  // value across a bin edge; a handful of particles at most.
  const RenderRequest speed{"velocity", -1};
  const HostValues h = host_values(*gpu, speed);
  const ColourHistogram g = gpu->colour_histogram(speed, 1.f, 0.f);
  const std::vector<uint32_t> ref = host_histogram(h, g.min, g.max);
  long diff = 0;
  for (int b = 0; b < kColourHistogramBins; ++b) diff += std::labs(long(g.counts[b]) - long(ref[b]));
  std::printf("  speed histogram: %ld of %zu particles in another bin than the host's\n", diff / 2, total(ref));
  EXPECT_EQ(total(g.counts), total(ref));
  EXPECT_LE(diff, 10);
}

}  // namespace
}  // namespace ejecta
