#pragma once
// Material library for solid (and fluid) bodies: named materials read from an INI file
// (assets/materials.ini), one [section] per material. Host-side only; a solver copies the parts it
// needs (TillotsonEos<T>, MurnaghanEos<T>, LundborgStrength<T>, ...) into its model struct.
//
// Keys of a section (SI units; the one table of them, with ranges and help, is material_keys.cpp,
// from which the reader's unknown-key suggestions, the viewer's material panels and
// docs/materials.md are generated):
//   eos = tillotson | murnaghan                           (required)
//   rho0                                                  (required, kg/m^3)
//   tillotson.A, .B, .E0, .E_iv, .E_cv, .a, .b, .alpha, .beta   (required with eos = tillotson)
//   tillotson.cs_min_frac                                 (optional, default 0.1; see eos_tillotson.h)
//   murnaghan.K0, murnaghan.n                             (required with eos = murnaghan)
//   bulk_modulus                                          (optional; default tillotson.A or murnaghan.K0)
//   shear_modulus                                         (optional; default 0 = fluid, no deviatoric stress)
//   yield = none | elastic | von_mises | lundborg         (optional; default elastic with a shear
//                                                          modulus, none without)
//   von_mises.Y0                                          (required with yield = von_mises)
//   lundborg.Y0, .mu_i, .Y_M, .Y_d0, .mu_d                (required with yield = lundborg)
//   weibull.k, weibull.m                                  (optional, both or neither: tensile damage)
//   melt.T_melt, melt.xi                                  (optional, both or neither: melt weakening)
//   specific_heat                                         (J/(kg K); required with melt.*: the
//                                                          temperature is T = solid.reference_temperature
//                                                          + u / specific_heat)
//   porosity = none | p_alpha | eps_alpha                 (optional; default none)
//   porosity.alpha0                                       (required with porosity: initial distention;
//                                                          rho0 is then the matrix density and a body
//                                                          starts at the bulk density rho0 / alpha0)
//   p_alpha.P_e, p_alpha.P_s, p_alpha.c_e (optional)      (porosity = p_alpha)
//   eps_alpha.kappa, .eps_X, .eps_e (optional, default 0), .thermal_correction (optional, default
//                                                          true; needs eos = tillotson) (eps_alpha)
// Errors are MaterialError with "file:line: [material] ..." and, for an unknown key, a suggestion.
#include "physics/eos_murnaghan.h"
#include "physics/eos_tillotson.h"
#include "physics/porous_model.h"
#include "physics/yield_strength.h"

#include <map>
#include <stdexcept>
#include <string>

namespace ejecta {

struct MaterialError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class EosKind { Tillotson, Murnaghan };
// None: no deviatoric stress (a fluid); Elastic: Hooke's law without a yield limit.
enum class YieldKind { None, Elastic, VonMises, Lundborg };

struct Material {
  std::string name;
  std::string file;  // where it was read, and the line of its [section] header
  int line = 0;

  EosKind eos = EosKind::Tillotson;
  double rho0 = 0;
  TillotsonEos<double> tillotson{};  // valid when eos == Tillotson
  MurnaghanEos<double> murnaghan{};  // valid when eos == Murnaghan

  double bulk_modulus = 0;   // K (Pa), for the elastic wave speeds
  double shear_modulus = 0;  // mu (Pa); 0 for a fluid

  YieldKind yield = YieldKind::None;
  VonMisesStrength<double> von_mises{};  // valid when yield == VonMises
  LundborgStrength<double> lundborg{};   // valid when yield == Lundborg

  bool damage = false;  // Grady-Kipp tensile damage with n(eps) = k eps^m
  double weibull_k = 0, weibull_m = 0;

  bool melt = false;  // melt weakening Y tanh(xi (T_m/T - 1))
  double t_melt = 0, melt_xi = 0;
  double specific_heat = 0;  // c_v (J/(kg K)); 0 = not given

  // Porosity (physics/porous_model.h): p-alpha or epsilon-alpha compaction, kind none without.
  PorousMaterial<double> porous{};
  bool eps_thermal = true;  // eps_alpha: Collins et al. 2011's thermal correction
};

using MaterialLibrary = std::map<std::string, Material>;

MaterialLibrary load_material_library(const std::string& path);
// The same from text; `name` stands for the file in messages.
MaterialLibrary parse_material_library(const std::string& text, const std::string& name);

const char* to_string(EosKind k);
const char* to_string(YieldKind k);

}  // namespace ejecta
