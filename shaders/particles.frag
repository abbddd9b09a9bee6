#version 330 core
#extension GL_ARB_conservative_depth : enable
// Lit sphere impostor (u_mode 0) with the depth of the sphere's surface written to gl_FragDepth, so
// that neighbouring spheres intersect correctly; flat disc (u_mode 1) with the point's depth (the
// sphere's front), faster and with exact colormap colours (no shading).
in vec3 v_view_center;
in float v_colour;
in float v_wall;
flat in float v_radius;  // the sphere's radius (particles.vert)

uniform mat4 u_proj;
uniform sampler1D u_colormap;
uniform vec2 u_range;  // colour values mapped to the colormap's ends
uniform int u_mode;
uniform int u_walls;
uniform int u_pass;    // 1: the dimmed walls, translucent grey
uniform vec2 u_wall;   // their grey and opacity (renderer.h kDimmedWallGrey, kDimmedWallAlpha)
uniform vec3 u_light;  // view-space direction towards the light, normalised

out vec4 frag_colour;
#ifdef GL_ARB_conservative_depth
// Written depth >= the point's (the sphere's front): early depth tests stay valid.
layout(depth_greater) out float gl_FragDepth;
#endif

void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  p.y = -p.y;
  float r2 = dot(p, p);
  if (r2 > 1.0) discard;
  float span = u_range.y - u_range.x;
  float t = span > 0.0 ? clamp((v_colour - u_range.x) / span, 0.0, 1.0) : 0.5;
  vec3 base = texture(u_colormap, t).rgb;
  float alpha = 1.0;
  if (u_pass == 1) {
    base = vec3(u_wall.x);
    alpha = u_wall.y;
  }
  if (u_mode == 1) {
    frag_colour = vec4(base, alpha);
    gl_FragDepth = gl_FragCoord.z;
    return;
  }
  vec3 n = vec3(p, sqrt(1.0 - r2));
  vec3 surface = v_view_center + n * v_radius;
  vec4 clip = u_proj * vec4(surface, 1.0);
  gl_FragDepth = 0.5 * (clip.z / clip.w) + 0.5;
  float diffuse = max(dot(n, u_light), 0.0);
  vec3 h = normalize(u_light + vec3(0.0, 0.0, 1.0));
  float spec = pow(max(dot(n, h), 0.0), 40.0);
  frag_colour = vec4(base * (0.3 + 0.7 * diffuse) + vec3(0.25 * spec), alpha);
}
