// The XDMF sidecar opens in ParaView: a recorded 2D and 3D run is read by ParaView's own XDMF reader
// (pvpython, from Debian's paraview package), which must see every frame as a time step, every
// particle as a point and every field as a point array. Skips, saying so, where pvpython is missing.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace ejecta {
namespace {

std::string run_command(const std::string& cmd, int* rc) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    *rc = -1;
    return out;
  }
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  *rc = pclose(p);
  return out;
}

TEST(ParaView, XdmfReadersOpenTheRecordingIn1D2DAnd3D) {
  int rc = 0;
  run_command("command -v pvpython >/dev/null 2>&1", &rc);
  if (rc != 0) GTEST_SKIP() << "pvpython not found (Debian package paraview; scripts/install-deps.sh installs it with EJECTA_WITH_PARAVIEW=1)";
  const auto dir = std::filesystem::temp_directory_path() / ("ejecta-pv-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string f1 = (dir / "s1.h5").string(), f2 = (dir / "d2.h5").string(), f3 = (dir / "d3.h5").string();
  test::record_steps(f1, test::shipped_scene("sod1d.ini"), 40, 20);
  test::record_steps(f2, test::shipped_scene("dambreak2d.ini", {"particles.dp=0.0028575"}), 40, 10);
  test::record_steps(f3, test::shipped_scene("dambreak3d.ini", {"particles.dp=0.05"}), 20, 10);
  // 1D (the X_Y geometry): the Xdmf2 reader only, the Xdmf3 readers of ParaView 5.11 crash on it.
  const std::string out1 = run_command("EJECTA_PV_READERS=xdmf2 pvpython '" + test::source_dir() + "/tests/pv_check.py' '" +
                                           (dir / "s1.xdmf").string() + "' 2>&1",
                                       &rc);
  ASSERT_EQ(rc, 0) << out1;
  std::printf("%s", out1.c_str());
  EXPECT_NE(out1.find("reader=xdmf2 file=" + dir.string() + "/s1.xdmf timesteps=3 points=800 "), std::string::npos) << out1;
  EXPECT_NE(out1.find("internal_energy:1"), std::string::npos) << out1;
  const std::string out = run_command("pvpython '" + test::source_dir() + "/tests/pv_check.py' '" + (dir / "d2.xdmf").string() +
                                          "' '" + (dir / "d3.xdmf").string() + "' 2>&1",
                                      &rc);
  std::filesystem::remove_all(dir);
  ASSERT_EQ(rc, 0) << out;
  std::printf("%s", out.c_str());
  const auto n2 = make_simulation(test::shipped_scene("dambreak2d.ini", {"particles.dp=0.0028575"}), Backend::Cpu)->particle_count();
  const auto n3 = make_simulation(test::shipped_scene("dambreak3d.ini", {"particles.dp=0.05"}), Backend::Cpu)->particle_count();
  // Both of ParaView's XDMF readers (Xdmf2, the library under VisIt's plugin, and Xdmf3) see it all.
  for (const char* reader : {"xdmf2", "xdmf3"}) {
    const std::string head = std::string("reader=") + reader + " file=" + dir.string();
    EXPECT_NE(out.find(head + "/d2.xdmf timesteps=5 points=" + std::to_string(n2) + " "), std::string::npos) << out;
    EXPECT_NE(out.find(head + "/d3.xdmf timesteps=3 points=" + std::to_string(n3) + " "), std::string::npos) << out;
  }
  EXPECT_NE(out.find("velocity:3"), std::string::npos) << out;
  EXPECT_NE(out.find("density:1"), std::string::npos) << out;
  EXPECT_NE(out.find("pressure:1"), std::string::npos) << out;
  // The values arrive, not just the names: water density within 10% of rho0 in both files.
  for (std::size_t at = out.find("density="); at != std::string::npos; at = out.find("density=", at + 1)) {
    double lo = 0, hi = 0;
    ASSERT_EQ(std::sscanf(out.c_str() + at, "density=%lg..%lg", &lo, &hi), 2) << out;
    EXPECT_GT(lo, 900.0);
    EXPECT_LT(hi, 1100.0);
  }
}

}  // namespace
}  // namespace ejecta
