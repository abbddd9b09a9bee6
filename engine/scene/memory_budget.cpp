// Memory checks before allocation (scene/memory_budget.h) and the 2^31 particle limit (scene/scene_size.h).
#include "scene/memory_budget.h"

#include <sys/sysinfo.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace ejecta {

namespace {

// "1.67 TB", "250 GB", "56.4 MB": three significant digits, whole numbers from 100 up.
std::string bytes_text(double b) {
  const double unit = b >= 1e12 ? 1e12 : b >= 1e9 ? 1e9 : 1e6;
  char buf[64];
  std::snprintf(buf, sizeof buf, b / unit >= 100 ? "%.0f %s" : "%.3g %s", b / unit,
                unit == 1e12 ? "TB" : unit == 1e9 ? "GB" : "MB");
  return buf;
}

// x rounded up to two significant digits (a spacing to write into a scene).
double round_up_2(double x) {
  const double scale = std::pow(10.0, std::floor(std::log10(x)) - 1);
  return std::ceil(x / scale) * scale;
}

// The spacing for about `fit` particles from the dp^-dim scaling of the count (the fluid's; a tank's
// wall shell grows slower), 5% more to be sure.
double scaled_spacing(const SceneSize& s, double fit) { return s.dp * 1.05 * std::pow(s.particles / fit, 1.0 / s.dim); }

std::string raise_text(const SceneSize& s, double dp) {
  std::string t = "raise " + s.dp_key + " to " + format_number(round_up_2(dp)) + " (now " + format_number(s.dp) +
                  "; the count scales as dp^-" + std::to_string(s.dim) + ")";
  if (s.several_spacings) t += ", and every other block's dp by the same factor";
  return t;
}

}  // namespace

double host_memory_available() {
  double avail = 0;
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  double kb = 0;
  while (meminfo >> key >> kb >> unit)
    if (key == "MemAvailable:") {
      avail = kb * 1024.0;
      break;
    }
  if (avail == 0) {
    struct sysinfo si {};
    if (sysinfo(&si) == 0) avail = double(si.freeram + si.bufferram) * si.mem_unit;
  }
  if (const char* cap = std::getenv("EJECTA_HOST_MEMORY_LIMIT"))
    avail = std::min(avail > 0 ? avail : 1e300, std::strtod(cap, nullptr));
  return avail;
}

void check_memory_fits(const ParamSet& ps, const SceneSize& s, double host_pp, double device_pp, double device_free,
                       const std::function<double(double)>& spacing_for) {
  const double host_avail = host_memory_available();
  struct Budget {
    const char* what;
    double need, avail;
  };
  const Budget budgets[] = {{"of host memory", s.particles * host_pp, host_avail},
                            {"of GPU memory", s.particles * device_pp, device_free}};
  for (const Budget& b : budgets) {
    if (b.need == 0 || b.avail <= 0 || b.need <= b.avail) continue;
    const double fit = std::min(0.9 * b.avail / (b.need / s.particles), 2147483648.0);
    throw ParamError(ps.where(s.dp_key) + ": " + format_number(std::round(s.particles)) + " particles need " +
                     bytes_text(b.need) + " " + b.what + ", " + bytes_text(b.avail) + " available; " +
                     raise_text(s, spacing_for ? spacing_for(fit) : scaled_spacing(s, fit)));
  }
}

void check_scene_size(const ParamSet& ps, const SceneSize& s, const SizeCheck& check) {
  if (check) check(s);
  if (s.particles > 2147483648.0)
    throw ParamError(ps.where(s.dp_key) + ": the scene needs about " + format_number(std::round(s.particles)) +
                     " particles, more than 2^31; " + raise_text(s, scaled_spacing(s, 2147483648.0)));
}

}  // namespace ejecta
