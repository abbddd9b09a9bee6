#include "viewer/window_input.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

namespace ejecta::viewer {

namespace {

void key_callback(GLFWwindow* w, int key, int, int action, int) {
  if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
  auto* in = static_cast<WindowInput*>(glfwGetWindowUserPointer(w));
  in->touched = true;
  if (ImGui::GetCurrentContext() && ImGui::GetIO().WantCaptureKeyboard) return;
  if (const KeyBinding* b = binding_for_key(key)) in->actions.push_back(b->action);
}

void mouse_button_callback(GLFWwindow* w, int, int action, int) {
  if (action == GLFW_PRESS) static_cast<WindowInput*>(glfwGetWindowUserPointer(w))->touched = true;
}

void scroll_callback(GLFWwindow* w, double, double dy) {
  static_cast<WindowInput*>(glfwGetWindowUserPointer(w))->touched = true;
  if (ImGui::GetCurrentContext() && ImGui::GetIO().WantCaptureMouse) return;
  static_cast<WindowInput*>(glfwGetWindowUserPointer(w))->scroll += dy;
}

}  // namespace

void attach_window_input(GLFWwindow* win, WindowInput* input) {
  glfwSetWindowUserPointer(win, input);
  glfwSetKeyCallback(win, key_callback);
  glfwSetScrollCallback(win, scroll_callback);
  glfwSetMouseButtonCallback(win, mouse_button_callback);
}

}  // namespace ejecta::viewer
