// The viewer's snapshot (app/viewer/snapshot.h): one frame of every field, written by the recorder,
// restarts bit for bit; after fluid was dropped, `ejecta --restart` opens it too.
#include "io/h5_reader.h"
#include "scene/fluid_drop.h"
#include "sim_test_util.h"
#include "viewer/snapshot.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

namespace ejecta::viewer {
namespace {

ParamSet tank() {
  return read_scene_string(
      "[scene]\ndim = 2\n[particles]\ndp = 0.005\n[tank.1]\nmin = 0, 0, 0\nmax = 0.2, 0.2, 0\n"
      "[block.1]\nmin = 0, 0, 0\nmax = 0.1, 0.1, 0\n",
      "tank.ini");
}

std::string temp(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("ejecta-" + std::to_string(getpid()) + "-" + name)).string();
}

void remove_recording(const std::string& h5) {
  std::filesystem::remove(h5);
  std::filesystem::remove(h5.substr(0, h5.size() - 3) + ".xdmf");
}

TEST(Snapshot, RestartsBitExactly) {
  const ParamSet p = tank();
  auto whole = make_simulation(p, Backend::Cpu);
  auto part = make_simulation(p, Backend::Cpu);
  StopRule rule;
  rule.max_steps = 8;
  StepLoop(*part, rule).run();
  const std::string path = temp("snap.h5");
  write_snapshot(path, *part, p, "test");
  const H5Reader r(path);
  ASSERT_EQ(r.frame_count(), 1u);
  EXPECT_EQ(r.diagnostics().size(), 1u);
  EXPECT_EQ(r.info().command_line, "test");
  auto resumed = make_simulation_from_frame(read_scene_string(r.info().scene_ini, "recorded"), Backend::Cpu,
                                            r.read_frame(0));
  remove_recording(path);
  rule.max_steps = 12;
  StepLoop(*resumed, rule).run();
  rule.max_steps = 20;
  StepLoop(*whole, rule).run();
  test::expect_same_state(*whole, *resumed);
  EXPECT_THROW(write_snapshot("/nonexistent-dir/x.h5", *part, p, ""), std::runtime_error);
}

TEST(Snapshot, CliRestartsASnapshotWithFluidAdded) {
  const std::string bin = std::string(EJECTA_BINARY_DIR) + "/ejecta";
  if (access(bin.c_str(), X_OK) != 0) GTEST_SKIP() << "needs the ejecta binary at " << bin;
  const ParamSet p = tank();
  auto sim = make_simulation(p, Backend::Cpu);
  FluidDrop d;
  d.center[0] = d.center[1] = 0.15;
  d.size = 0.02;
  sim = add_fluid(*sim, p, d);
  const std::string snap = temp("drop.h5"), out = temp("drop-cont.h5");
  write_snapshot(snap, *sim, p, "test");
  const std::string cmd = "OMP_NUM_THREADS=1 '" + bin + "' --headless --backend cpu --restart '" + snap +
                          "' --steps 4 --record '" + out + "' --record-every-steps 4 >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd;
  const H5Reader r(out);
  ASSERT_GE(r.frame_count(), 1u);
  EXPECT_EQ(r.read_frame(r.frame_count() - 1).particles, sim->particle_count()) << "the dropped fluid is there";
  EXPECT_EQ(r.read_frame(r.frame_count() - 1).step, sim->steps() + 4);
  remove_recording(snap);
  remove_recording(out);
}

}  // namespace
}  // namespace ejecta::viewer
