// Recording a run: AsyncRecorder + RecordObserver write what the solver captured, at the requested
// interval, with the diagnostics; a restart through the file continues bit-exactly; a recording
// killed with SIGKILL stays readable up to its last complete frame; the CLI's info/export/--record
// options behave.
#include "io/async_recorder.h"
#include "io/h5_reader.h"
#include "command_output.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ejecta {
namespace {

// Coarser than the shipped scene (20 x 40 fluid particles) so that every test here stays short.
const char* const kCoarse = "particles.dp=0.0028575";

std::string temp_path(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir && *dir ? dir : "/tmp") + "/ejecta-test-" + std::to_string(getpid()) + "-" + name;
}

// Removes a recording and its XDMF sidecar when the test ends, however it ends.
struct TempFile {
  explicit TempFile(const std::string& name) : path(temp_path(name)) { remove_all(); }
  ~TempFile() { remove_all(); }
  void remove_all() const {
    std::remove(path.c_str());
    const auto dot = path.rfind('.');
    std::remove((path.substr(0, dot) + ".xdmf").c_str());
    std::remove((path.substr(0, dot) + ".csv").c_str());
  }
  std::string path;
};

RunInfo run_info_for(const Simulation& sim, const ParamSet& p) {
  RunInfo info;
  info.dim = sim.dim();
  info.precision = to_string(sim.precision());
  info.backend = to_string(sim.backend());
  info.scene_ini = p.to_ini();
  info.command_line = "ejecta_tests";
  info.start_date = "2026-01-01T00:00:00Z";
  info.ejecta_version = "test";
  info.git_commit = "test";
  return info;
}

void run_steps(Simulation& sim, long n, StepObserver* obs = nullptr) {
  StopRule rule;
  rule.max_steps = n;
  StepLoop(sim, rule).run(obs);
}

void expect_same_field(const FrameData& a, const FrameData& b, const std::string& name) {
  const FieldData* fa = a.find(name);
  const FieldData* fb = b.find(name);
  ASSERT_NE(fa, nullptr) << name;
  ASSERT_NE(fb, nullptr) << name;
  EXPECT_EQ(fa->info.scalar, fb->info.scalar) << name;
  EXPECT_EQ(fa->info.components, fb->info.components) << name;
  EXPECT_TRUE(fa->bytes == fb->bytes) << name << " differs at step " << a.step;
}

TEST(RecordAsync, FramesAndDiagnosticsOnScheduleMatchDirectCapture) {
  const ParamSet p = test::shipped_scene("dambreak2d.ini", {kCoarse});
  const long kSteps = 60, kEvery = 15, kDiag = 4;
  const std::vector<std::string> fields = {"position", "velocity", "density"};
  TempFile file("schedule.h5");

  {
    auto sim = make_simulation(p, Backend::Cpu);
    RecordOptions ro;
    ro.compression = 3;  // gzip on the writer thread must not change the data
    ro.fields = fields;
    AsyncRecorder rec(file.path, run_info_for(*sim, p), ro);
    RecordSchedule sched;
    sched.every_steps = kEvery;
    sched.diag_every = kDiag;
    RecordObserver obs(rec, sched, fields);
    obs.record_initial(*sim);
    run_steps(*sim, kSteps, &obs);
    rec.finish();
    EXPECT_EQ(rec.frames_written(), std::size_t(kSteps / kEvery + 1));
  }

  // The same run again, capturing directly at the steps where the recorder should have.
  auto twin = make_simulation(p, Backend::Cpu);
  std::map<long, FrameData> frames;
  std::map<long, Diagnostics> diags;
  frames[0] = twin->capture_frame(fields);
  diags[0] = twin->diagnostics();
  test::CallbackObserver cap([&](const Simulation& s) {
    if (s.steps() % kEvery == 0) frames[s.steps()] = s.capture_frame(fields);
    if (s.steps() % kEvery == 0 || s.steps() % kDiag == 0) diags[s.steps()] = s.diagnostics();
    return true;
  });
  run_steps(*twin, kSteps, &cap);

  const H5Reader reader(file.path);
  ASSERT_EQ(reader.frame_count(), frames.size());
  EXPECT_EQ(reader.partial_frames(), 0u);
  EXPECT_EQ(reader.info().precision, "float");
  EXPECT_EQ(reader.info().scene_ini, p.to_ini());
  std::size_t k = 0;
  for (const auto& [step, want] : frames) {
    const FrameData got = reader.read_frame(k++);
    EXPECT_EQ(got.step, step);
    EXPECT_EQ(got.time, want.time);
    EXPECT_EQ(got.particles, want.particles);
    EXPECT_EQ(got.fields.size(), fields.size());
    for (const auto& f : fields) expect_same_field(got, want, f);
  }
  const std::vector<Diagnostics> rows = reader.diagnostics();
  ASSERT_EQ(rows.size(), diags.size());
  k = 0;
  for (const auto& [step, want] : diags) {
    SCOPED_TRACE("diagnostics row at step " + std::to_string(step));
    test::expect_same_diagnostics(rows[k++], want);
  }
}

TEST(RecordAsync, TimeScheduleTakesOneFramePerInterval) {
  const ParamSet p = test::shipped_scene("dambreak2d.ini", {kCoarse});
  TempFile file("time.h5");
  auto sim = make_simulation(p, Backend::Cpu);
  const double every = 20 * sim->dt();  // about 20 steps per frame
  {
    RecordOptions ro;
    ro.fields = {"position"};
    AsyncRecorder rec(file.path, run_info_for(*sim, p), ro);
    RecordSchedule sched;
    sched.every_time = every;
    RecordObserver obs(rec, sched, ro.fields);
    obs.record_initial(*sim);
    StopRule rule;
    rule.until_time = 5.5 * every;
    StepLoop(*sim, rule).run(&obs);
    rec.finish();
  }
  const H5Reader reader(file.path);
  ASSERT_EQ(reader.frame_count(), 6u);  // t = 0 and the first step past 1..5 intervals
  for (std::size_t k = 1; k < reader.frame_count(); ++k) {
    const FrameData f = reader.read_frame(k);
    EXPECT_GE(f.time, double(k) * every * (1 - 1e-9)) << k;
    EXPECT_LT(f.time, double(k) * every + 2 * f.dt) << k;  // the first step that reached the frame time
  }
}

TEST(RecordAsync, WriteErrorIsRethrownAndUnwritablePathFailsUpFront) {
  RunInfo info;
  info.dim = 2;
  EXPECT_THROW(AsyncRecorder("/nonexistent-ejecta-dir/x.h5", info, RecordOptions{}), RecordError);

  // An unknown field fails on the writer thread; the error comes back from a later call, and the
  // frame written before it stays readable.
  const ParamSet p = test::shipped_scene("dambreak2d.ini", {kCoarse});
  auto sim = make_simulation(p, Backend::Cpu);
  TempFile file("error.h5");
  RecordOptions ro;
  ro.fields = {"position"};
  AsyncRecorder rec(file.path, run_info_for(*sim, p), ro);
  rec.submit(sim->capture_frame({"position"}));
  rec.submit(sim->capture_frame({"velocity"}));  // lacks the field the recorder was told to write
  bool thrown = false;
  try {
    for (int i = 0; i < 50; ++i) rec.submit(sim->capture_frame({"position"}));
    rec.finish();
  } catch (const RecordError& e) {
    thrown = true;
    EXPECT_NE(std::string(e.what()), "");
  }
  EXPECT_TRUE(thrown);
  EXPECT_EQ(rec.frames_written(), 1u);
  EXPECT_THROW(rec.finish(), RecordError);  // the error stays
  const H5Reader reader(file.path);
  EXPECT_EQ(reader.frame_count(), 1u);
}

void check_restart_through_file(const std::vector<std::string>& overrides) {
  std::vector<std::string> o = {kCoarse};
  o.insert(o.end(), overrides.begin(), overrides.end());
  const ParamSet p = test::shipped_scene("dambreak2d.ini", o);
  const long n = 100;
  TempFile file("restart.h5");

  auto whole = make_simulation(p, Backend::Cpu);
  run_steps(*whole, 2 * n);

  {
    auto first = make_simulation(p, Backend::Cpu);
    AsyncRecorder rec(file.path, run_info_for(*first, p), RecordOptions{});
    RecordSchedule sched;
    sched.every_steps = n;
    RecordObserver obs(rec, sched);
    obs.record_initial(*first);
    run_steps(*first, n, &obs);
    rec.finish();
  }

  // As `--restart FILE.h5` does it: the scene from the file, the last complete frame.
  const H5Reader reader(file.path);
  ASSERT_EQ(reader.frame_count(), 2u);
  const ParamSet recorded = read_scene_string(reader.info().scene_ini, file.path + " (recorded scene)");
  auto resumed = make_simulation(recorded, Backend::Cpu);
  resumed->restore_frame(reader.read_frame(reader.frame_count() - 1));
  EXPECT_EQ(resumed->steps(), n);
  run_steps(*resumed, n);

  const HostParticles a = whole->download(), b = resumed->download();
  ASSERT_EQ(a.n, b.n);
  EXPECT_EQ(a.id, b.id);
  EXPECT_TRUE(a.position == b.position) << "positions must be bit-equal";
  EXPECT_TRUE(a.velocity == b.velocity) << "velocities must be bit-equal";
  EXPECT_TRUE(a.density == b.density) << "densities must be bit-equal";
  EXPECT_EQ(whole->time(), resumed->time());
  EXPECT_EQ(whole->dt(), resumed->dt());
}

TEST(RecordRestart, ThroughFileIsBitExact_Float) { check_restart_through_file({}); }
TEST(RecordRestart, ThroughFileIsBitExact_Double) { check_restart_through_file({"scene.precision=double"}); }

// --- the real binary ---------------------------------------------------------------------------

// The ejecta binary of this build, or EJECTA_BINARY where a copied test binary runs elsewhere.
std::string binary() {
  const char* env = std::getenv("EJECTA_BINARY");
  return env && *env ? env : std::string(EJECTA_BINARY_DIR) + "/ejecta";
}
bool have_binary() { return access(binary().c_str(), X_OK) == 0; }

#define REQUIRE_BINARY() \
  if (!have_binary()) GTEST_SKIP() << "needs the ejecta binary at " << binary() << " (build the app target)"

struct Result {
  int code = -1;  // exit status, or -1 when it did not exit normally (a signal)
  std::string out;
};

// Runs the binary through the shell with stderr folded into stdout.
Result run_ejecta(const std::string& args) {
  Result r;
  const test::CommandOutput c = test::command_output("OMP_NUM_THREADS=1 '" + binary() + "' " + args + " 2>&1");
  r.code = c.code;
  r.out = c.out;
  return r;
}

std::string scene_path() { return test::source_dir() + "/scenes/dambreak2d.ini"; }

TEST(RecordCli, Kill9LeavesAReadableFile) {
  REQUIRE_BINARY();
  TempFile file("kill9.h5");
  const std::string bin = binary(), scene = scene_path();
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // The child: quiet, on the CPU, one thread (the test machine has few cores).
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    setenv("OMP_NUM_THREADS", "1", 1);
    execl(bin.c_str(), bin.c_str(), "--headless", scene.c_str(), "--backend", "cpu", "--record", file.path.c_str(),
          "--record-every-steps", "20", "--until", "10", static_cast<char*>(nullptr));
    _exit(127);
  }
  // A failed assertion returns early; the child must not outlive the test (it would run for minutes).
  struct KillChild {
    pid_t pid;
    bool reaped = false;
    ~KillChild() {
      if (!reaped) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
      }
    }
  } child{pid};
  // The writer holds HDF5's file lock for the whole run, so a reader in another process is refused
  // unless it opts out of locking (as h5dump or ParaView users do). HDF5 reads that setting once per
  // process, when the library starts, and this process has long started it, so the polling reader
  // runs in a fresh process: `ejecta info` (an H5Reader) with HDF5_USE_FILE_LOCKING=FALSE. Opening a
  // file that is being written can still fail (metadata flushed halfway): retry.
  std::size_t seen = 0;
  const std::string poll = "HDF5_USE_FILE_LOCKING=FALSE '" + bin + "' info '" + file.path + "' 2>/dev/null";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (FILE* p = popen(poll.c_str(), "r")) {
      char line[512];
      while (std::fgets(line, sizeof line, p)) {
        unsigned long frames = 0;
        if (std::sscanf(line, "frames %lu", &frames) == 1) seen = frames;
      }
      pclose(p);
    }
    if (seen >= 3) break;
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      child.reaped = true;
      FAIL() << "ejecta exited before it was killed (status " << status << ")";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill(pid, SIGKILL);
  // This process reads with HDF5's locking on: the writer's lock died with it.
  int status = 0;
  waitpid(pid, &status, 0);
  child.reaped = true;
  ASSERT_GE(seen, 3u) << "the recording did not reach 3 frames in time";
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

  const H5Reader r(file.path);
  ASSERT_GE(r.frame_count(), 3u);
  std::printf("[ killed  ] %zu complete frames, %zu partial frames skipped\n", r.frame_count(), r.partial_frames());
  std::size_t n = 0;
  for (std::size_t k = 0; k < r.frame_count(); ++k) {
    const FrameData f = r.read_frame(k);
    if (k == 0) n = f.particles;
    EXPECT_EQ(f.particles, n) << "frame " << k;
    EXPECT_EQ(f.step, long(20 * k)) << "frame " << k;
    const FieldData* pos = f.find("position");
    ASSERT_NE(pos, nullptr) << "frame " << k;
    ASSERT_EQ(pos->count(), n);
    ASSERT_EQ(pos->info.scalar, ScalarType::Float32);  // the shipped scene is float
    const float* x = reinterpret_cast<const float*>(pos->bytes.data());
    for (std::size_t i = 0; i < n * std::size_t(pos->info.components); ++i)
      ASSERT_TRUE(std::isfinite(x[i]) && std::fabs(x[i]) < 10) << "frame " << k << " value " << i;
  }
  EXPECT_GT(n, 0u);
}

// One small recording shared by the CLI tests.
class RecordCliFile : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_BINARY();
    const Result r = run_ejecta("--headless '" + scene_path() + "' --backend cpu --set " + kCoarse +
                                " --steps 30 --record '" + file.path + "' --record-every-steps 10");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("recorded 4 frames to " + file.path), std::string::npos) << r.out;
  }
  TempFile file{"cli.h5"};
};

TEST_F(RecordCliFile, InfoPrintsFramesAndFields) {
  const Result r = run_ejecta("info '" + file.path + "'");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("frames             4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("position"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("velocity"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[m/s]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("partial frames     0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dambreak2d"), std::string::npos) << "the scene text: " << r.out;
}

TEST_F(RecordCliFile, ExportCsvHasOneRowPerDiagnosticsSample) {
  const std::string csv = file.path.substr(0, file.path.rfind('.')) + ".csv";
  const Result r = run_ejecta("export '" + file.path + "' --csv");
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream in(csv);
  ASSERT_TRUE(in) << "no " << csv;
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("time [s],step,dt [s],particles,mass [kg],", 0), 0u) << header;
  std::size_t rows = 0;
  while (std::getline(in, line))
    if (!line.empty()) ++rows;
  const H5Reader reader(file.path);
  EXPECT_EQ(rows, reader.diagnostics().size());
  EXPECT_GE(rows, 4u);  // one per frame at least

  const Result out = run_ejecta("export '" + file.path + "' --csv --output -");
  ASSERT_EQ(out.code, 0);
  EXPECT_EQ(out.out.rfind("time [s],step,dt [s],", 0), 0u) << out.out;
}

TEST_F(RecordCliFile, RestartContinuesFromTheLastFrame) {
  TempFile cont("cli-restart.h5");
  const Result r = run_ejecta("--headless --backend cpu --restart '" + file.path + "' --steps 10 --record '" +
                              cont.path + "' --record-every-steps 10");
  ASSERT_EQ(r.code, 0) << r.out;
  const H5Reader reader(cont.path);
  ASSERT_EQ(reader.frame_count(), 2u);
  EXPECT_EQ(reader.read_frame(0).step, 30);
  EXPECT_EQ(reader.read_frame(1).step, 40);
  const Result bad = run_ejecta("--headless --restart '" + file.path + ":9' --steps 1");
  EXPECT_EQ(bad.code, 2) << bad.out;
}

TEST(RecordCli, BadFieldsExit2ListingTheFields) {
  REQUIRE_BINARY();
  TempFile file("badfields.h5");
  const Result r = run_ejecta("--headless '" + scene_path() + "' --set " + kCoarse + " --steps 2 --record '" +
                              file.path + "' --record-fields position,velocty");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("unknown field 'velocty'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("density"), std::string::npos) << "should list the fields: " << r.out;
  struct stat st;
  EXPECT_NE(stat(file.path.c_str(), &st), 0) << "nothing may be written before the run starts";
}

TEST(RecordCli, UnwritablePathFailsCleanly) {
  REQUIRE_BINARY();
  const Result r = run_ejecta("--headless '" + scene_path() + "' --set " + kCoarse +
                              " --steps 2 --record /nonexistent-ejecta-dir/x.h5");
  EXPECT_GT(r.code, 0) << "must exit with an error code, not crash: " << r.out;
  EXPECT_NE(r.out.find("recording failed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/nonexistent-ejecta-dir/x.h5"), std::string::npos) << r.out;
}

TEST(RecordCli, RecordOptionsAreRejectedWithBenchmark) {
  REQUIRE_BINARY();
  const Result r = run_ejecta("--benchmark --record x.h5");
  EXPECT_EQ(r.code, 2) << r.out;
  const Result both = run_ejecta("--headless --record x.h5 --record-every 0.01 --record-every-steps 5");
  EXPECT_EQ(both.code, 2) << both.out;
}

}  // namespace
}  // namespace ejecta
