#pragma once
// The library's Material (host, double, names and sources) -> the solver's SolidMaterial<T> (plain
// data, copied into kernels). One place, used at set-up and when the viewer edits a material live.
#include "materials/material_library.h"
#include "physics/solid_model.h"

namespace ejecta {

template <class T>
SolidMaterial<T> to_solid_material(const Material& m) {
  SolidMaterial<T> s{};
  s.eos = m.eos == EosKind::Murnaghan ? kSolidMurnaghan : kSolidTillotson;
  s.murnaghan = MurnaghanEos<T>{T(m.murnaghan.rho0), T(m.murnaghan.K0), T(m.murnaghan.n)};
  const TillotsonEos<double>& t = m.tillotson;
  s.tillotson = TillotsonEos<T>{T(t.rho0), T(t.A),     T(t.B),     T(t.E0),   T(t.E_iv), T(t.E_cv),
                                T(t.a),    T(t.b),     T(t.alpha), T(t.beta), T(t.cs_min)};
  s.mu = T(m.shear_modulus);
  s.yield = m.yield == YieldKind::VonMises ? kSolidVonMises
            : m.yield == YieldKind::Lundborg ? kSolidLundborg
                                             : kSolidNoLimit;
  s.Y0 = T(m.von_mises.Y0);
  const LundborgStrength<double>& l = m.lundborg;
  s.lundborg = LundborgStrength<T>{T(l.Y0), T(l.mu_i), T(l.Y_M), T(l.Y_d0), T(l.mu_d)};
  return s;
}

}  // namespace ejecta
