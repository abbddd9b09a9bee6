// The embedded default scene: the same text as scenes/dambreak2d.ini (Martin & Moyce 1952 column
// collapse, n^2 = 2), so that `ejecta` with no scene file and the GUI start on a validated case even
// when the scenes/ folder is not installed next to the binary. tests/test_scene.cpp checks that both
// parse to the same values and build the same particles; edit the two together.
#include "simulation.h"

namespace ejecta {

const char* default_scene_ini() {
  return R"ini(; Collapse of a water column on a dry floor: Martin & Moyce (1952), "An experimental study of the
; collapse of liquid columns on a rigid horizontal plane", Phil. Trans. R. Soc. A 244, 312-324,
; Part IV, the case n^2 = 2 (height / base = 2).
;
; The column, base a = 2.25 in = 0.05715 m and height n^2 a = 0.1143 m, stands against the back
; wall x = 0 of a tank whose floor is y = 0, and is released at t = 0 (no gate is modelled). The
; front position Z = x_front / a against T = t sqrt(2 g / a) is in
; tests/data/martin_moyce_1952_n2_2.csv; end_time = 0.2 s is T = 3.7, past the last measured point.
; The tank is long and high enough that the surge does not reach the far wall by then.
;
; dp = a / 40, so the column is exactly 40 x 80 particles; the tank's inner box is 280 x 210 lattice
; cells (0.4 and 0.3 m are 279.96 and 209.97 dp, rounded to the nearest cell).

[scene]
name = dambreak2d
dim = 2
end_time = 0.2

[particles]
dp = 0.00142875

[fluid]
; Water. c0 = 0 picks 10 sqrt(2 g H) with H = 2a, about 15 m/s (weakly compressible SPH,
; Monaghan 1994).
rho0 = 1000
c0 = 0

[physics]
gravity = 0, -9.81

[tank.1]
; Inner box; the wall particles are built outside it, the top is open.
min = 0, 0
max = 0.4, 0.3
open_top = true

[block.1]
; The water column: a wide, 2a high, against the back wall, at rest.
min = 0, 0
max = 0.05715, 0.1143
velocity = 0, 0
)ini";
}

}  // namespace ejecta
