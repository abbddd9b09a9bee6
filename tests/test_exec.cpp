// The execution layer's primitives on the CPU backend: the exclusive scan and the 64-bit key sort
// against std::exclusive_scan and std::stable_sort, count_bins against a plain count, for several
// thread counts, and the reduction with meanwhile; the CUDA backend against the CPU (skips without a
// GPU); the debug launch mode's switch and kernel names.
#include "exec/debug_sync.h"
#include "exec/exec_cpu.h"
#include "exec/exec_host.h"
#include "neighbors/bucket_offsets.h"
#include "neighbors/cell_grid.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace ejecta {
namespace {

// Runs f with `threads` OpenMP threads, then restores the count.
template <class F>
auto with_threads(int threads, F&& f) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  auto r = f();
  omp_set_num_threads(before);
  return r;
}

template <class T>
std::vector<T> std_exclusive_scan(const std::vector<T>& in) {
  std::vector<T> out(in.size() + 1, T(0));
  std::exclusive_scan(in.begin(), in.end(), out.begin(), T(0));
  if (!in.empty()) out[in.size()] = out[in.size() - 1] + in.back();
  return out;
}

TEST(ExecScan, CpuMatchesStdExclusiveScanWithTheTotalLast) {
  std::mt19937 rng(3);
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(5), std::size_t(1000), std::size_t(100003)}) {
    std::vector<uint32_t> counts(n);
    for (auto& c : counts) c = rng() % 40;  // bucket counts: many zeros and small numbers
    const auto expected = std_exclusive_scan(counts);
    for (int threads : {1, 2, 3, 8}) {
      const auto got = with_threads(threads, [&] { return exclusive_scan_on(Backend::Cpu, counts); });
      ASSERT_EQ(got, expected) << "n = " << n << ", " << threads << " threads";
    }
  }
  // 64-bit sums past 2^32.
  std::vector<uint64_t> big(1000, uint64_t(1) << 33);
  EXPECT_EQ(exclusive_scan_on(Backend::Cpu, big), std_exclusive_scan(big));
  EXPECT_EQ(exclusive_scan_on(Backend::Cpu, big).back(), uint64_t(1000) << 33);
}

// count_bins: every i counted in its bin, an i whose bin is outside [0, bins) (-1, bins, beyond) in none,
// for any thread count; and the transform_reduce with meanwhile: the reduction's value, meanwhile() once,
// after the reduction (the CPU runs it to its end first).
TEST(ExecCountBins, CpuCountsEachBinAndNoneOutside) {
  CpuExec exec;
  std::mt19937 rng(5);
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(100003)}) {
    std::vector<int> bin(n);
    for (auto& b : bin) b = int(rng() % 40) - 4;  // -4 .. 35 over 32 bins: some below, some above
    std::vector<uint32_t> expected(32, 0u);
    for (int b : bin)
      if (b >= 0 && b < 32) ++expected[std::size_t(b)];
    for (int threads : {1, 2, 3, 8}) {
      std::vector<uint32_t> got(32, 777u);
      with_threads(threads, [&] {
        exec.count_bins(n, 32, [&](std::size_t i) { return bin[i]; }, got.data());
        return 0;
      });
      ASSERT_EQ(got, expected) << "n = " << n << ", " << threads << " threads";
    }
  }
}

TEST(ExecReduce, CpuMeanwhileRunsOnceAfterTheReduction) {
  CpuExec exec;
  std::vector<double> x(1001);
  std::iota(x.begin(), x.end(), 0.0);
  int calls = 0;
  const double sum = exec.transform_reduce(
      x.size(), 0.0, [&](std::size_t i) { return x[i]; }, [](double a, double b) { return a + b; },
      [&] {
        ++calls;
        x[0] = 1e9;  // after the reduction: does not change its value
      });
  EXPECT_EQ(sum, 500500.0);
  EXPECT_EQ(calls, 1);
}

// Keys with many duplicates over the whole 64-bit range, keys that differ only in their high bits,
// keys that differ in one middle bit, and equal keys.
std::vector<std::vector<uint64_t>> key_sets(std::size_t n) {
  std::mt19937_64 rng(11);
  std::vector<std::vector<uint64_t>> sets(4, std::vector<uint64_t>(n));
  for (std::size_t i = 0; i < n; ++i) {
    sets[0][i] = rng() % 2 ? rng() : (rng() % 16) << 60 | 12345;  // full range, duplicates
    sets[1][i] = (rng() % 1000) << 54;                               // high bits only
    sets[2][i] = 0xABCD000000000000ull | (uint64_t(rng() % 2) << 31);  // one bit
    sets[3][i] = 42;
  }
  return sets;
}

TEST(ExecSort64, CpuMatchesStdStableSort) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(50000)}) {
    for (const auto& keys0 : key_sets(n)) {
      std::vector<uint32_t> order(n);
      std::iota(order.begin(), order.end(), 0u);
      std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys0[a] < keys0[b]; });
      std::vector<uint64_t> expected_keys(n);
      for (std::size_t i = 0; i < n; ++i) expected_keys[i] = keys0[order[i]];
      for (int threads : {1, 3}) {
        std::vector<uint64_t> keys(keys0);
        std::vector<uint32_t> values(n);
        std::iota(values.begin(), values.end(), 0u);
        with_threads(threads, [&] {
          sort_pairs64_on(Backend::Cpu, keys, values);
          return 0;
        });
        ASSERT_EQ(keys, expected_keys) << "n = " << n << ", " << threads << " threads";
        ASSERT_EQ(values, order) << "the permutation of a stable sort, n = " << n << ", " << threads << " threads";
      }
    }
  }
  std::vector<uint64_t> keys(3);
  std::vector<uint32_t> values(2);
  EXPECT_THROW(sort_pairs64_on(Backend::Cpu, keys, values), std::invalid_argument);
}

TEST(ExecAgreement, CudaScanAndSort64MatchTheCpu) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  std::mt19937 rng(5);
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(3000017)}) {
    std::vector<uint32_t> counts(n);
    for (auto& c : counts) c = rng() % 40;
    ASSERT_EQ(exclusive_scan_on(Backend::Cuda, counts), exclusive_scan_on(Backend::Cpu, counts)) << n;
    for (const auto& keys0 : key_sets(n)) {
      std::vector<uint64_t> kc(keys0), kg(keys0);
      std::vector<uint32_t> vc(n), vg(n);
      std::iota(vc.begin(), vc.end(), 0u);
      std::iota(vg.begin(), vg.end(), 0u);
      sort_pairs64_on(Backend::Cpu, kc, vc);
      sort_pairs64_on(Backend::Cuda, kg, vg);
      ASSERT_EQ(kg, kc) << n;
      ASSERT_EQ(vg, vc) << "both sorts are stable: the same permutation, n = " << n;
    }
  }
}

TEST(DebugSync, SwitchValues) {
  EXPECT_FALSE(parse_debug_sync(nullptr));
  EXPECT_FALSE(parse_debug_sync(""));
  EXPECT_FALSE(parse_debug_sync("0"));
  EXPECT_TRUE(parse_debug_sync("1"));
  try {
    parse_debug_sync("yes");
    FAIL() << "a bad value must be an error";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("EJECTA_DEBUG_SYNC=yes"), std::string::npos) << what;
    EXPECT_NE(what.find("expected 1"), std::string::npos) << what;
  }
}

TEST(DebugSync, KernelNamesAreDemangled) {
  EXPECT_EQ(demangled_type_name(typeid(BucketOffsetsFine).name()), "ejecta::BucketOffsetsFine");
  EXPECT_EQ(demangled_type_name(typeid(ComputeBucketKeys<float, 3>).name()), "ejecta::ComputeBucketKeys<float, 3>");
  EXPECT_EQ(demangled_type_name("not a mangled name"), "not a mangled name");
}

// A CUDA run in debug mode (a synchronisation and a check after every launch) passes and ends where
// the same run without it ends, bit for bit: the mode changes when errors surface, not the results.
TEST(DebugSync, CudaRunWithSyncAfterEveryLaunchMatchesTheAsyncRun) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const ParamSet scene = test::shipped_scene("dambreak2d.ini");
  auto run = [&](const char* mode) {
    setenv(kDebugSyncVariable, mode, 1);
    auto sim = make_simulation(scene, Backend::Cuda);
    unsetenv(kDebugSyncVariable);
    StopRule stop;
    stop.max_steps = 200;
    StepLoop(*sim, stop).run();
    return sim;
  };
  const auto checked = run("1");
  const auto plain = run("0");
  test::expect_same_state(*plain, *checked);
}

}  // namespace
}  // namespace ejecta
