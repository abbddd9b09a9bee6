#pragma once
// A material library text that uses every group of material keys (engine/materials/material_keys.cpp),
// shared by the material-key and material-panel tests.
namespace ejecta::test {

// Every group at once: Tillotson, Lundborg, damage, melt and p-alpha porosity; and Murnaghan with von
// Mises and epsilon-alpha porosity.
inline const char* const kEveryGroup = R"([rock]
eos = tillotson
rho0 = 2700
tillotson.A = 26.7e9
tillotson.B = 26.7e9
tillotson.E0 = 487e6
tillotson.E_iv = 4.72e6
tillotson.E_cv = 18.2e6
tillotson.a = 0.5
tillotson.b = 1.5
tillotson.alpha = 5
tillotson.beta = 5
tillotson.cs_min_frac = 0.2
shear_modulus = 22.7e9
yield = lundborg
lundborg.Y0 = 1e7
lundborg.mu_i = 1.2
lundborg.Y_M = 2.5e9
lundborg.Y_d0 = 1e4
lundborg.mu_d = 0.6
weibull.k = 4e35
weibull.m = 9
melt.T_melt = 1500
melt.xi = 1.2
specific_heat = 840
porosity = p_alpha
porosity.alpha0 = 1.5
p_alpha.P_e = 1e6
p_alpha.P_s = 2e8
p_alpha.c_e = 1500

[metal]
eos = murnaghan
rho0 = 7800
murnaghan.K0 = 1.6e11
murnaghan.n = 4
shear_modulus = 8e10
yield = von_mises
von_mises.Y0 = 3e8
porosity = eps_alpha
porosity.alpha0 = 1.2
eps_alpha.kappa = 0.9
eps_alpha.eps_e = -1e-4
eps_alpha.eps_X = -0.1
eps_alpha.thermal_correction = false
)";

}  // namespace ejecta::test
