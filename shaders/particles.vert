#version 330 core
// Particles as point sprites. Each particle is one point whose screen size covers a sphere of radius
// r (world units): its own radius a_radius times u_radius_scale where it has one (grains), else
// u_radius; the fragment shader turns it into a lit sphere or a flat disc.
layout(location = 0) in vec4 a_position;  // xyz, w = kind (0 fluid, 1 wall)
layout(location = 1) in float a_colour;   // the colour field's value
layout(location = 2) in float a_radius;   // the particle's own radius (m); 0 (or no array): u_radius

uniform mat4 u_view;
uniform mat4 u_proj;
uniform float u_radius;
uniform float u_radius_scale;
uniform float u_viewport_height;  // pixels
uniform int u_walls;              // 0 hidden, 1 dimmed (translucent), 2 shown like the fluid
uniform int u_pass;               // 0: the opaque particles; 1: only the dimmed walls (translucent pass)
uniform vec4 u_clip;              // world plane: a particle with dot(u_clip.xyz, x) > u_clip.w is cut
uniform int u_clip_on;

out vec3 v_view_center;
out float v_colour;
out float v_wall;
flat out float v_radius;

void main() {
  v_wall = a_position.w;
  v_colour = a_colour;
  float radius = a_radius > 0.0 ? a_radius * u_radius_scale : u_radius;
  v_radius = radius;
  vec4 view = u_view * vec4(a_position.xyz, 1.0);
  v_view_center = view.xyz;
  gl_Position = u_proj * view;
  // The point's depth is the sphere's front (nearest to the camera), its place on screen the centre's:
  // the fragment shader then only ever pushes depth away (layout depth_greater), which allows the GPU
  // to reject hidden fragments before shading them although it writes gl_FragDepth. (On the H200 the
  // draw rate did not change, 500 frames/s at 10^6 particles either way: it is not bound by fragments.)
  vec4 front = u_proj * vec4(view.xyz + vec3(0.0, 0.0, radius), 1.0);
  gl_Position.z = front.z / front.w * gl_Position.w;
  bool cut = u_clip_on != 0 && dot(u_clip.xyz, a_position.xyz) > u_clip.w;
  // Opaque pass: fluid, and walls when shown. Translucent pass: the walls when dimmed.
  bool wall = v_wall > 0.5;
  bool drawn = u_pass == 0 ? (!wall || u_walls == 2) : (wall && u_walls == 1);
  if (!drawn || cut) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // outside the clip volume: not drawn
    gl_PointSize = 0.0;
    return;
  }
  // Projected diameter: perspective divides by the depth, orthographic (u_proj[3][3] == 1) does not.
  float w = u_proj[3][3] > 0.5 ? 1.0 : -view.z;
  gl_PointSize = max(1.0, 2.0 * radius * u_proj[1][1] * 0.5 * u_viewport_height / w);
}
