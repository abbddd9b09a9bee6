#include "viewer/imgui_material_panel.h"

#include "viewer/crush_plot.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>

namespace ejecta::viewer {

namespace {

void set_material_key(ViewerState& s, std::size_t index, const std::string& key, const std::string& value) {
  try {
    s.materials->set(index, key, value, s.sim.get());
    s.message = "[" + s.materials->materials()[index].name + "] " + key + " = " + value + " (applied)";
  } catch (const std::exception& e) {
    s.message = e.what();
  }
}

void group_edit(ViewerState& s, std::size_t index, MaterialGroup g, bool add) {
  try {
    if (add) s.materials->add_group(index, g, s.sim.get());
    else s.materials->remove_group(index, g, s.sim.get());
    s.message = "[" + s.materials->materials()[index].name + "] " + to_string(g) + (add ? " added" : " removed");
  } catch (const std::exception& e) {
    s.message = e.what();
  }
}

void material_widget(ViewerState& s, std::size_t index, const MaterialWidget& w) {
  const MaterialKeyDesc& d = *w.desc;
  const std::string label = d.label + "##mat" + std::to_string(index) + d.key;
  const std::string cur = s.materials->value(index, d.key);
  ImGui::PushItemWidth(160);
  if (d.word) {
    if (ImGui::BeginCombo(label.c_str(), cur.c_str())) {
      for (const std::string& c : d.choices)
        if (ImGui::Selectable(c.c_str(), c == cur) && c != cur) set_material_key(s, index, d.key, c);
      ImGui::EndCombo();
    }
  } else {
    double v = std::strtod(cur.c_str(), nullptr);
    if (ImGui::InputDouble(label.c_str(), &v, 0, 0, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue))
      set_material_key(s, index, d.key, format_number(v));
  }
  ImGui::PopItemWidth();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", w.tooltip.c_str());
}

}  // namespace

void draw_material_panel(ViewerState& s) {
  if (!s.materials || s.materials->sections().empty()) return;
  if (!ImGui::CollapsingHeader("Materials (live)")) return;
  // Porous scenes: the crush curve with the particles on it (crush_plot.h).
  if (!porous_materials(s.materials->materials()).empty()) {
    if (ImGui::Checkbox("crush curve plot", &s.crush_on) && s.crush_on) s.crush_at = -1e30;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("alpha against P (p-alpha) or against eps_c (epsilon-alpha), the selected particles on it");
  }
  // The section of a switched model is rebuilt by the edit: walk a copy.
  const std::vector<MaterialSection> sections = s.materials->sections();
  for (const MaterialSection& sec : sections) {
    const std::string head = sec.name + " (material " + std::to_string(sec.index) + ")";
    ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    if (!ImGui::TreeNode(head.c_str())) continue;
    for (const MaterialWidgetGroup& g : sec.groups) {
      ImGui::Separator();
      ImGui::TextDisabled("%s", to_string(g.group));
      for (const MaterialWidget& w : g.widgets) material_widget(s, sec.index, w);
      if (g.group == MaterialGroup::Damage || g.group == MaterialGroup::Melt) {
        const std::string label = std::string("Remove ") + to_string(g.group) + "##rm" + std::to_string(sec.index);
        if (ImGui::SmallButton(label.c_str())) group_edit(s, sec.index, g.group, false);
      }
    }
    for (MaterialGroup g : sec.addable) {
      const std::string label = std::string("Add ") + to_string(g) + "##add" + std::to_string(sec.index);
      if (ImGui::SmallButton(label.c_str())) group_edit(s, sec.index, g, true);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("With the table's example values (docs/materials.md); edit them after");
    }
    ImGui::TreePop();
  }
  ImGui::InputText("##matsave", s.materials_path, sizeof s.materials_path);
  ImGui::SameLine();
  if (ImGui::Button("Save materials as")) {
    std::ofstream out(s.materials_path);
    out << s.materials->to_ini();
    s.message = out ? std::string("saved the materials to ") + s.materials_path
                    : std::string("cannot write ") + s.materials_path;
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("A material library with the edited values (point solid.materials at it to keep them)");
}

void draw_crush_window(ViewerState& s) {
  if (!s.crush_on) return;
  const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  if (now - s.crush_at >= 0.5) {  // a host copy of four fields: not every frame
    s.crush_at = now;
    try {
      update_crush_plot(s);
    } catch (const std::exception& e) {
      s.crush_on = false;
      s.message = std::string("crush curve: ") + e.what();
    }
    if (!s.crush_on) return;
  }
  ImGui::SetNextWindowSize(ImVec2(420, 330), ImGuiCond_FirstUseEver);
  ImGui::Begin("Crush curve", &s.crush_on);
  const std::vector<Material> mats = s.sim->materials();
  const std::vector<std::size_t> porous = porous_materials(mats);
  if (porous.size() > 1) {
    std::string items;
    for (std::size_t k : porous) items += mats[k].name + '\0';
    if (ImGui::Combo("material", &s.crush_choice, items.c_str())) s.crush_at = -1e30;
  }
  ImGui::PushItemWidth(120);
  if (ImGui::InputFloat("selection radius [m]", &s.crush_radius, 0, 0, "%.3g")) s.crush_at = -1e30;
  ImGui::PopItemWidth();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The particles within this distance of the picked particle (Ctrl + click); 0 or none picked: "
                      "every particle of the material");
  draw_plot("crush", s.crush_plot, -1, std::max(120.f, ImGui::GetContentRegionAvail().y));
  ImGui::End();
}

}  // namespace ejecta::viewer
