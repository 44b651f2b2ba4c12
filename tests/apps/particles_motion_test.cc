// A particle's move: the drift accelerates it, it never moves a whole cell in a step, and the
// walls reflect it back into the box.
#include <gtest/gtest.h>

#include <cmath>

#include "apps/particles/motion.h"

namespace drift::particles {
namespace {

const Motion kBox{16.0, 0.0};

TEST(ParticlesMotion, MovesByItsVelocity) {
  Particle p{1, 4.25, 0.5, 0.1, -0.1};
  move(p, kBox);
  EXPECT_EQ(p.x, 4.75);
  EXPECT_EQ(p.vx, 0.5);
  EXPECT_EQ(p.vy, 0.1);  // the box is 1-D: vy and vz only matter in collisions
}

TEST(ParticlesMotion, DriftAcceleratesTowardsTheRightWall) {
  Particle p{1, 4.0, 0.0, 0, 0};
  const Motion drifting{16.0, 0.125};
  move(p, drifting);
  move(p, drifting);
  EXPECT_EQ(p.vx, 0.25);
  EXPECT_EQ(p.x, 4.375);
}

TEST(ParticlesMotion, NeverMovesAWholeCell) {
  Particle fast{1, 4.5, 3.0, 0, 0};
  move(fast, kBox);
  EXPECT_EQ(fast.x, 4.5 + kMaxShift);
  EXPECT_EQ(fast.vx, 3.0);  // the velocity (and energy) is kept
  Particle back{2, 4.5, -3.0, 0, 0};
  move(back, kBox);
  EXPECT_EQ(back.x, 4.5 - kMaxShift);
}

TEST(ParticlesMotion, WallsReflect) {
  Particle left{1, 0.25, -0.5, 0, 0};
  move(left, kBox);
  EXPECT_EQ(left.x, 0.25);
  EXPECT_EQ(left.vx, 0.5);
  Particle right{2, 15.75, 0.5, 0, 0};
  move(right, kBox);
  EXPECT_EQ(right.x, 15.75);
  EXPECT_EQ(right.vx, -0.5);
}

TEST(ParticlesMotion, StaysInTheBox) {
  const Motion drifting{3.0, 0.01};
  for (double v = -2.0; v <= 2.0; v += 0.0625) {
    for (double x = 0.0; x <= 3.0; x += 0.125) {
      Particle p{0, x, v, 0, 0};
      for (int step = 0; step < 50; ++step) {
        const double before = p.x;
        move(p, drifting);
        ASSERT_GE(p.x, 0.0);
        ASSERT_LE(p.x, 3.0);
        ASSERT_LT(std::abs(p.x - before), 1.0);
      }
    }
  }
}

}  // namespace
}  // namespace drift::particles
