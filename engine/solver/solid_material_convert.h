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
  s.damage = m.damage;
  s.K = T(m.bulk_modulus);
  s.E = m.bulk_modulus > 0 && m.shear_modulus > 0 ? T(youngs_modulus(m.bulk_modulus, m.shear_modulus)) : T(0);
  s.melt = m.melt && m.specific_heat > 0;
  s.t_melt = T(m.t_melt);
  s.melt_xi = T(m.melt_xi);
  s.cv = T(m.specific_heat > 0 ? m.specific_heat : 1);
  s.porous = m.porous.template cast<T>();
  return s;
}

}  // namespace ejecta
