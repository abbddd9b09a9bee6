#version 330 core
// The collider sphere: one translucent-looking grey disc, drawn with the particle vertex shader.
out vec4 frag_colour;
void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(p, p);
  if (r2 > 1.0 || r2 < 0.85) discard;  // a ring: the fluid under it stays visible
  frag_colour = vec4(0.9, 0.9, 0.9, 1.0);
}
