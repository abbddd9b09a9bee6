// Exec::select_if on the CPU backend (the fluid's list of the liquid's force pass,
// solver/terms/liquid_uniform_terms.h): the indices whose predicate holds, in increasing order, and
// their count, for any thread count, against a plain loop; each index tested once (a predicate that
// writes is run correctly on the CPU, if slowly on CUDA). The CUDA backend's (CUB's DeviceSelect::If) runs in the GPU
// tier through the liquid's step (ForceVariants.Cuda*, BackendAgreement.*: the CUDA runs against the CPU's).
#include "exec/exec_cpu.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <random>
#include <vector>

namespace ejecta {
namespace {

struct KeepMarked {
  const uint8_t* mark;
  uint32_t* tested;  // counts the tests of each index
  bool operator()(std::size_t i) const {
    ++tested[i];
    return mark[i] != 0;
  }
};

TEST(ExecSelect, CpuListsTheKeptIndicesInOrderForAnyThreadCount) {
  std::mt19937 rng(7);
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(1000), std::size_t(100003)}) {
    std::vector<uint8_t> mark(n);
    for (auto& m : mark) m = (rng() % 5) < 2;  // about 40% kept, in runs
    std::vector<uint32_t> expected;
    for (std::size_t i = 0; i < n; ++i)
      if (mark[i]) expected.push_back(static_cast<uint32_t>(i));
    for (int threads : {1, 2, 3, 8}) {
      const int before = omp_get_max_threads();
      omp_set_num_threads(threads);
      std::vector<uint32_t> list(n + 1, 0xffffffffu), tested(n, 0);
      uint32_t count = 0xffffffffu;
      CpuExec exec;
      exec.select_if(n, KeepMarked{mark.data(), tested.data()}, list.data(), &count);
      omp_set_num_threads(before);
      ASSERT_EQ(count, expected.size()) << "n = " << n << ", " << threads << " threads";
      list.resize(count);
      EXPECT_EQ(list, expected) << "n = " << n << ", " << threads << " threads";
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(tested[i], 1u) << i;
    }
  }
}

}  // namespace
}  // namespace ejecta
