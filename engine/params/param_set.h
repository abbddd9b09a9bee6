#pragma once
// Values of scene parameters, validated against the registry, each remembering where it was set
// ("scenes/dambreak2d.ini:12", "--set", "default") so that errors found later (geometry checks)
// can still point at the line.
#include "params/param_registry.h"

#include <array>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta {

// Every user-facing input error. what() is the complete message, e.g.
//   scenes/x.ini:7: unknown key 'physics.rho' (did you mean 'physics.rho0'?)
//   --set: physics.gamma = 'abc' is not a number (real, range [1, 20])
struct ParamError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ParamSet {
 public:
  explicit ParamSet(const ParamRegistry& reg = ParamRegistry::builtin());

  // Typed getters: the set value, else the registry default. Throw std::logic_error for a key that is
  // not in the registry or asked with the wrong type (a programming error, not user input).
  double real(const std::string& key) const;
  long integer(const std::string& key) const;
  bool flag(const std::string& key) const;
  std::string text(const std::string& key) const;  // String and Choice
  std::array<double, 3> vec3(const std::string& key) const;

  // Validates and stores. Throws ParamError "<where>: <message>" for unknown keys (with suggestion),
  // unparsable values, values out of range, choices not in the list.
  void set(const std::string& key, const std::string& value, const std::string& where);
  // "section.key=value" from the command line.
  void apply_override(const std::string& assignment);

  bool is_set(const std::string& key) const;
  // Where a key was set ("file:line", "--set") or "default".
  std::string where(const std::string& key) const;
  // Indices of the numbered sections present: indices("fluid") -> {1, 2} for [fluid.1], [fluid.2].
  std::vector<int> indices(const std::string& section) const;

  // The complete scene as INI text (every set value, sections in order), for provenance and
  // "save scene as". Reading it back gives an equal ParamSet.
  std::string to_ini() const;
  const ParamRegistry& registry() const { return *reg_; }

 private:
  struct Entry {
    std::string value;
    std::string where;
  };
  const ParamRegistry* reg_;
  std::map<std::string, Entry> values_;
};

// Reads an INI scene with inih. Errors carry "path:line". A missing file is a ParamError too.
ParamSet read_scene_file(const std::string& path);
// Same from text; `name` stands for the path in messages.
ParamSet read_scene_string(const std::string& text, const std::string& name);

}  // namespace ejecta
