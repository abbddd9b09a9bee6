#include "viewer/material_panel_model.h"

#include <stdexcept>

namespace ejecta::viewer {

std::string material_widget_tooltip(const MaterialKeyDesc& d) {
  std::string t = d.key + " (" + (d.word ? "choice" : d.units.empty() ? "dimensionless" : d.units);
  const std::string r = material_range_text(d);
  if (!r.empty()) t += ", " + r;
  t += "; " + d.applies + ", " + d.need + ")\n" + d.help;
  return t;
}

MaterialPanelModel::MaterialPanelModel(const Simulation& sim) : MaterialPanelModel(sim.materials()) {}

MaterialPanelModel::MaterialPanelModel(std::vector<Material> materials) : materials_(std::move(materials)) {
  sections_.resize(materials_.size());
  for (std::size_t i = 0; i < materials_.size(); ++i) build_section(i);
}

void MaterialPanelModel::build_section(std::size_t index) {
  const Material& m = materials_[index];
  MaterialSection s{index, m.name, {}, {}};
  for (const MaterialKeyDesc& d : material_keys()) {
    if (!d.uses(m)) continue;
    if (s.groups.empty() || s.groups.back().group != d.group) s.groups.push_back(MaterialWidgetGroup{d.group, {}});
    s.groups.back().widgets.push_back(MaterialWidget{&d, material_widget_tooltip(d)});
  }
  if (!m.damage) s.addable.push_back(MaterialGroup::Damage);
  if (!m.melt) s.addable.push_back(MaterialGroup::Melt);
  sections_[index] = std::move(s);
}

const MaterialWidget* MaterialPanelModel::find(std::size_t index, const std::string& key) const {
  if (index >= sections_.size()) return nullptr;
  for (const MaterialWidgetGroup& g : sections_[index].groups)
    for (const MaterialWidget& w : g.widgets)
      if (w.desc->key == key) return &w;
  return nullptr;
}

std::size_t MaterialPanelModel::widget_count() const {
  std::size_t n = 0;
  for (const MaterialSection& s : sections_)
    for (const MaterialWidgetGroup& g : s.groups) n += g.widgets.size();
  return n;
}

std::string MaterialPanelModel::value(std::size_t index, const std::string& key) const {
  const MaterialKeyDesc* d = find_material_key(key);
  if (index >= materials_.size() || !d) throw std::invalid_argument("no material key " + key);
  return d->value(materials_.at(index));
}

void MaterialPanelModel::set(std::size_t index, const std::string& key, const std::string& value, Simulation* sim) {
  if (index >= materials_.size())
    throw std::invalid_argument("material index " + std::to_string(index) + " is out of range");
  Material m = edit_material(materials_[index], key, value);  // throws MaterialError, nothing changed
  if (sim) sim->set_material(index, m);
  materials_[index] = std::move(m);
  edited_.insert(index);
  build_section(index);
}

namespace {
const MaterialKeyDesc& first_key_of(MaterialGroup g) {
  if (g != MaterialGroup::Damage && g != MaterialGroup::Melt)
    throw std::invalid_argument(std::string("only damage and melt can be added or removed, not ") + to_string(g));
  for (const MaterialKeyDesc& d : material_keys())
    if (d.group == g) return d;
  throw std::logic_error("no key in the group");
}
}  // namespace

void MaterialPanelModel::add_group(std::size_t index, MaterialGroup g, Simulation* sim) {
  const MaterialKeyDesc& d = first_key_of(g);
  set(index, d.key, d.example, sim);
}

void MaterialPanelModel::remove_group(std::size_t index, MaterialGroup g, Simulation* sim) {
  set(index, first_key_of(g).key, "", sim);
}

bool MaterialPanelModel::reapply(Simulation& sim) const {
  const std::vector<Material> now = sim.materials();
  if (now.size() != materials_.size()) return false;
  for (std::size_t i = 0; i < now.size(); ++i)
    if (now[i].name != materials_[i].name) return false;
  for (std::size_t i : edited_) sim.set_material(i, materials_[i]);
  return true;
}

std::string MaterialPanelModel::to_ini() const {
  std::string out = "; Materials as edited in the Ejecta viewer (keys: docs/materials.md)\n";
  for (const Material& m : materials_) out += "\n" + material_to_ini(m);
  return out;
}

}  // namespace ejecta::viewer
