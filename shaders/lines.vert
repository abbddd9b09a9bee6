#version 330 core
// Lines in world space: the outline of the tanks and obstacles when the walls are hidden.
layout(location = 0) in vec3 a_position;
uniform mat4 u_view;
uniform mat4 u_proj;
void main() { gl_Position = u_proj * u_view * vec4(a_position, 1.0); }
