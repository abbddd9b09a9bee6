// StepLoop against a fake Simulation whose time advances by a fixed dt per step, so the stop rules
// can be checked exactly without building a solver.
#include "run/step_loop.h"

#include <gtest/gtest.h>

namespace {

using namespace ejecta;

class FakeSimulation : public Simulation {
 public:
  explicit FakeSimulation(double dt) : dt_(dt) {}
  void step() override {
    if (blow_up_at_ >= 0 && steps_ == blow_up_at_) throw BlowUpError("fake blow-up");
    time_ += dt_;
    ++steps_;
  }
  double time() const override { return time_; }
  double dt() const override { return dt_; }
  long steps() const override { return steps_; }
  std::size_t particle_count() const override { return 10; }
  std::size_t fluid_count() const override { return 8; }
  int dim() const override { return 2; }
  Backend backend() const override { return Backend::Cpu; }
  Precision precision() const override { return Precision::Double; }
  HostParticles download() const override { return {}; }
  Diagnostics diagnostics() const override { return {}; }
  const PhaseTimes& phase_times() const override { return phases_; }
  void reset_phase_times() override { phases_ = {}; }
  void set_count_pairs(bool) override {}
  void set_phase_timing(bool) override {}
  PairCounts pair_counts() const override { return {}; }
  std::size_t device_bytes() const override { return 0; }
  std::string device_name() const override { return "fake"; }
  void synchronize() override {}
  std::vector<FieldInfo> fields() const override { return {}; }
  void capture_frame_into(FrameData&, const std::vector<std::string>&) const override {}
  void restore_frame(const FrameData&) override {}

  long blow_up_at_ = -1;

 private:
  double dt_;
  double time_ = 0;
  long steps_ = 0;
  PhaseTimes phases_;
};

struct CountingObserver : StepObserver {
  void on_step(const Simulation& sim) override {
    ++calls;
    last_step = sim.steps();
  }
  bool wants_stop() override { return stop_after >= 0 && calls >= stop_after; }
  long calls = 0, last_step = -1, stop_after = -1;
};

TEST(StepLoop, StopsAtMaxSteps) {
  FakeSimulation sim(0.01);
  StepLoop loop(sim, StopRule{std::numeric_limits<double>::infinity(), 7});
  EXPECT_FALSE(loop.done());
  EXPECT_EQ(loop.run(), 7);
  EXPECT_TRUE(loop.done());
  EXPECT_FALSE(loop.stopped());
  EXPECT_EQ(sim.steps(), 7);
  EXPECT_EQ(loop.advance(5), 0);  // nothing more once done
  EXPECT_EQ(sim.steps(), 7);
}

TEST(StepLoop, MaxStepsCountFromConstruction) {
  FakeSimulation sim(0.01);
  StepLoop warmup(sim, StopRule{std::numeric_limits<double>::infinity(), 3});
  warmup.run();
  StepLoop loop(sim, StopRule{std::numeric_limits<double>::infinity(), 4});
  EXPECT_EQ(loop.run(), 4);
  EXPECT_EQ(sim.steps(), 7);
}

TEST(StepLoop, ZeroMaxStepsIsDoneImmediately) {
  FakeSimulation sim(0.01);
  StepLoop loop(sim, StopRule{std::numeric_limits<double>::infinity(), 0});
  EXPECT_TRUE(loop.done());
  EXPECT_EQ(loop.run(), 0);
  EXPECT_EQ(sim.steps(), 0);
}

TEST(StepLoop, StopsAtUntilTimeWithoutExtraStepFromRoundOff) {
  // Ten additions of 0.1 give 0.9999999999999999 < 1: still exactly ten steps.
  FakeSimulation sim(0.1);
  StepLoop loop(sim, StopRule{1.0, -1});
  EXPECT_EQ(loop.run(), 10);
  EXPECT_TRUE(loop.done());
}

TEST(StepLoop, UntilTimeStopsAfterTheStepThatPassesIt) {
  FakeSimulation sim(0.3);
  StepLoop loop(sim, StopRule{1.0, -1});
  EXPECT_EQ(loop.run(), 4);  // 0.9 < 1, 1.2 >= 1: the last step is not shortened
  EXPECT_DOUBLE_EQ(sim.time(), 1.2);
}

TEST(StepLoop, WhicheverLimitComesFirst) {
  FakeSimulation a(0.1);
  EXPECT_EQ(StepLoop(a, StopRule{0.5, 100}).run(), 5);
  FakeSimulation b(0.1);
  EXPECT_EQ(StepLoop(b, StopRule{100.0, 3}).run(), 3);
}

TEST(StepLoop, AdvanceReturnsFewerAtTheEnd) {
  FakeSimulation sim(0.01);
  StepLoop loop(sim, StopRule{std::numeric_limits<double>::infinity(), 10});
  EXPECT_EQ(loop.advance(4), 4);
  EXPECT_EQ(loop.advance(4), 4);
  EXPECT_FALSE(loop.done());
  EXPECT_EQ(loop.advance(4), 2);
  EXPECT_TRUE(loop.done());
  EXPECT_EQ(loop.advance(4), 0);
  EXPECT_EQ(loop.steps_done(), 10);
}

TEST(StepLoop, UnlimitedRuleAdvancesAsAsked) {
  FakeSimulation sim(0.01);
  StepLoop loop(sim, StopRule{});
  EXPECT_EQ(loop.advance(3), 3);
  EXPECT_EQ(loop.advance(0), 0);
  EXPECT_FALSE(loop.done());
  EXPECT_LT(loop.progress(), 0);
}

TEST(StepLoop, ObserverCalledOncePerStep) {
  FakeSimulation sim(0.01);
  StepLoop loop(sim, StopRule{std::numeric_limits<double>::infinity(), 6});
  CountingObserver obs;
  EXPECT_EQ(loop.advance(4, &obs), 4);
  EXPECT_EQ(obs.calls, 4);
  EXPECT_EQ(obs.last_step, 4);  // called after the step
  EXPECT_EQ(loop.run(&obs), 2);
  EXPECT_EQ(obs.calls, 6);
  EXPECT_EQ(obs.last_step, 6);
}

TEST(StepLoop, WantsStopIsHonouredAndSticky) {
  FakeSimulation sim(0.01);
  StepLoop loop(sim, StopRule{});
  CountingObserver obs;
  obs.stop_after = 3;
  EXPECT_EQ(loop.run(&obs), 3);
  EXPECT_TRUE(loop.done());
  EXPECT_TRUE(loop.stopped());
  EXPECT_EQ(sim.steps(), 3);
  EXPECT_EQ(loop.advance(10, &obs), 0);
  EXPECT_EQ(loop.advance(10), 0);  // stays done without the observer too
}

TEST(StepLoop, WantsStopBeforeFirstStep) {
  FakeSimulation sim(0.01);
  StepLoop loop(sim, StopRule{1.0, -1});
  CountingObserver obs;
  obs.stop_after = 0;
  EXPECT_EQ(loop.advance(5, &obs), 0);
  EXPECT_EQ(obs.calls, 0);
  EXPECT_TRUE(loop.done());
}

TEST(StepLoop, StopMethodEndsTheLoop) {
  FakeSimulation sim(0.01);
  StepLoop loop(sim, StopRule{});
  loop.advance(2);
  loop.stop();
  EXPECT_TRUE(loop.done());
  EXPECT_EQ(loop.advance(2), 0);
}

TEST(StepLoop, BlowUpPropagates) {
  FakeSimulation sim(0.01);
  sim.blow_up_at_ = 2;
  StepLoop loop(sim, StopRule{std::numeric_limits<double>::infinity(), 10});
  CountingObserver obs;
  EXPECT_THROW(loop.run(&obs), BlowUpError);
  EXPECT_EQ(obs.calls, 2);
  EXPECT_EQ(loop.steps_done(), 2);
}

TEST(StepLoop, Progress) {
  FakeSimulation sim(0.1);
  StepLoop by_time(sim, StopRule{1.0, -1});
  EXPECT_DOUBLE_EQ(by_time.progress(), 0.0);
  by_time.advance(5);
  EXPECT_NEAR(by_time.progress(), 0.5, 1e-12);
  by_time.run();
  EXPECT_DOUBLE_EQ(by_time.progress(), 1.0);

  FakeSimulation sim2(0.1);
  StepLoop by_steps(sim2, StopRule{std::numeric_limits<double>::infinity(), 8});
  by_steps.advance(2);
  EXPECT_DOUBLE_EQ(by_steps.progress(), 0.25);
}

}  // namespace
