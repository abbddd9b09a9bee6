#pragma once
// The material panels as data, generated from the material key table (engine/materials/material_keys.h):
// one section per material of the running scene (Simulation::materials(), in material-index order)
// with one widget per key the material uses, grouped EOS / elasticity / yield / damage / melt. An edit
// is validated by the library reader (edit_material) and reaches the solver at once through
// Simulation::set_material (between steps: the viewer edits only between its advance() calls). No
// ImGui here: imgui_material_panel.cpp draws it, the tests drive it directly.
#include "materials/material_keys.h"
#include "simulation.h"

#include <set>
#include <string>
#include <vector>

namespace ejecta::viewer {

struct MaterialWidget {
  const MaterialKeyDesc* desc;
  std::string tooltip;  // key, units, range, which models use it, help
};

struct MaterialWidgetGroup {
  MaterialGroup group;
  std::vector<MaterialWidget> widgets;
};

struct MaterialSection {
  std::size_t index;  // the solver's material index
  std::string name;
  std::vector<MaterialWidgetGroup> groups;
  // The optional models (damage, melt) the material has not got: the panel offers to add them.
  std::vector<MaterialGroup> addable;
};

class MaterialPanelModel {
 public:
  // The materials of `sim` (none for solvers without materials).
  explicit MaterialPanelModel(const Simulation& sim);
  explicit MaterialPanelModel(std::vector<Material> materials);

  const std::vector<MaterialSection>& sections() const { return sections_; }
  const std::vector<Material>& materials() const { return materials_; }
  const MaterialWidget* find(std::size_t index, const std::string& key) const;
  std::size_t widget_count() const;
  // The current value of a key as library text ("2.67e10", "von_mises").
  std::string value(std::size_t index, const std::string& key) const;

  // Validates (MaterialError with the reader's message, nothing changed) and stores the edit, and
  // hands the new material to `sim` (when not null). A switched eos or yield model rebuilds the
  // section's widgets.
  void set(std::size_t index, const std::string& key, const std::string& value, Simulation* sim);
  // Turns an optional model (MaterialGroup::Damage or Melt) on, its keys at the table's example
  // values, or off; live like set().
  void add_group(std::size_t index, MaterialGroup g, Simulation* sim);
  void remove_group(std::size_t index, MaterialGroup g, Simulation* sim);
  // Indices edited since construction, and the edited materials onto a rebuilt simulation of the
  // same scene (a reset keeps the edits); false, applying nothing, when its materials differ by name.
  const std::set<std::size_t>& edited() const { return edited_; }
  bool reapply(Simulation& sim) const;
  // Every material as library text (the viewer's "save materials as").
  std::string to_ini() const;

 private:
  void build_section(std::size_t index);
  std::vector<Material> materials_;
  std::vector<MaterialSection> sections_;
  std::set<std::size_t> edited_;
};

std::string material_widget_tooltip(const MaterialKeyDesc& d);

}  // namespace ejecta::viewer
