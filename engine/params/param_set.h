#pragma once
// Values of scene parameters, validated against the registry, each remembering where it was set
// ("scenes/dambreak2d.ini:12", "--set") so that errors found later (geometry checks) can still point
// at the line; a key left at its default points at the scene's file (source()).
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
  // Where a key was set ("file:line", "--set"); for a key left at its default, the scene it is missing
  // from: "scenes/x.ini (particles.dp not set: built-in default)".
  std::string where(const std::string& key) const;
  // The scene's file (or "built-in default scene"), set by the readers; "" for a ParamSet built in code.
  const std::string& source() const { return source_; }
  void set_source(const std::string& name) { source_ = name; }
  // Refuses (ParamError at the key's file:line) a vector with a non-zero component that scene.dim drops,
  // such as a block's y extent in a scene with dim = 1. The view.* keys are exempt (camera settings).
  void check_dimension() const;
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
  std::string source_;
};

// Reads an INI scene with inih. Errors carry "path:line". A missing file, a directory or a file over
// 1 MiB (kMaxIniFileBytes; /dev/zero) is a ParamError too, raised before the text is read into memory.
// Besides the registry's checks of keys and values it refuses control characters, a header with text
// after it, an unknown or badly numbered section name (the sections are those of the registry's keys),
// a section or key given twice, and a section without keys.
ParamSet read_scene_file(const std::string& path);
// Same from text; `name` stands for the path in messages and becomes the ParamSet's source().
ParamSet read_scene_string(const std::string& text, const std::string& name);

}  // namespace ejecta
