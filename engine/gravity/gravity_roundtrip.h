#pragma once
// gravity_host.h's round trip, written once for any Exec (instantiated in gravity_host.cpp for the CPU
// and in gravity_cuda.cu for CUDA).
#include "exec/device_array.h"
#include "gravity/gravity_host.h"

#include <cstddef>
#include <vector>

namespace ejecta {

template <class T, int D, class Exec>
GravityHostResult self_gravity_roundtrip(const std::vector<double>& x, const std::vector<double>& m,
                                         const std::vector<double>& h, const GravitySettings& s) {
  const std::size_t n = m.size();
  Exec exec;
  std::vector<Vec<T, D>> xv(n), av(n, Vec<T, D>::zero());
  std::vector<T> mv(n), hv(n), phi(n, T(0));
  for (std::size_t i = 0; i < n; ++i) {
    for (int d = 0; d < D; ++d) xv[i][d] = T(x[i * D + d]);
    mv[i] = T(m[i]);
    hv[i] = T(h[i]);
  }
  DeviceArray<Vec<T, D>, Exec> dx(exec, n), da(exec, n);
  DeviceArray<T, Exec> dm(exec, n), dh(exec, n), dphi(exec, n);
  exec.upload(dx.data(), xv.data(), sizeof(Vec<T, D>) * n);
  exec.upload(da.data(), av.data(), sizeof(Vec<T, D>) * n);
  exec.upload(dm.data(), mv.data(), sizeof(T) * n);
  exec.upload(dh.data(), hv.data(), sizeof(T) * n);
  SelfGravity<T, D, Exec> grav(exec, n, nullptr);
  grav.set(s);
  grav.accumulate(dx.data(), dm.data(), dh.data(), da.data(), dphi.data());
  exec.download(av.data(), da.data(), sizeof(Vec<T, D>) * n);
  exec.download(phi.data(), dphi.data(), sizeof(T) * n);
  GravityHostResult r;
  r.acc.resize(n * D);
  r.phi.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int d = 0; d < D; ++d) r.acc[i * D + d] = double(av[i][d]);
    r.phi[i] = double(phi[i]);
  }
  r.stats = grav.stats();
  return r;
}

template <class Exec>
GravityHostResult self_gravity_dispatch(Precision p, int dim, const std::vector<double>& x, const std::vector<double>& m,
                                        const std::vector<double>& h, const GravitySettings& s) {
  if (p == Precision::Float) {
    if (dim == 1) return self_gravity_roundtrip<float, 1, Exec>(x, m, h, s);
    if (dim == 2) return self_gravity_roundtrip<float, 2, Exec>(x, m, h, s);
    return self_gravity_roundtrip<float, 3, Exec>(x, m, h, s);
  }
  if (dim == 1) return self_gravity_roundtrip<double, 1, Exec>(x, m, h, s);
  if (dim == 2) return self_gravity_roundtrip<double, 2, Exec>(x, m, h, s);
  return self_gravity_roundtrip<double, 3, Exec>(x, m, h, s);
}

}  // namespace ejecta
