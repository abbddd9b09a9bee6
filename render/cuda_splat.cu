// The CUDA splat rasterizer (see cuda_splat.h). The per-pixel rules copy the sprite shaders
// (shaders/particles.vert, particles.frag), so the two paths draw the same picture:
//   - a particle's radius r is its own (the engine's RenderBuffers::radii, grains) times
//     radius_scale where it has one (> 0), else the uniform ViewSettings::radius (particles.vert);
//   - a particle at view position c with radius r covers the pixels whose centres lie within
//     r_px = r P11 H / (2 w) of its projected centre (w = -c.z in perspective, 1 in orthographic),
//     with the offset p = (pixel centre - centre) / r_px, |p| <= 1;
//   - sphere mode: n = (p, sqrt(1 - |p|^2)), depth of c + r n, colour base (0.3 + 0.7 n.l) + 0.25 spec;
//     disc mode: the depth of the sphere's front c + (0, 0, r), colour base;
//   - the nearest depth wins (GL_LESS; ties here go to the lower particle index);
//   - dimmed walls are translucent: the nearest wall in front of the nearest opaque particle (or the
//     background) is blended over it, grey kDimmedWallGrey lit as a sphere, opacity kDimmedWallAlpha
//     (the sprite path's second pass); they go to a depth buffer of their own;
//   - hidden walls: their outline is drawn by GL over the blitted frame (GlParticleRenderer::draw_outline);
//   - a particle in front of the near plane or beyond the far plane (by its front's depth), or whose
//     footprint lies wholly off the screen, is not drawn; one whose centre is off the screen but whose
//     footprint reaches into it is drawn in part, as NVIDIA's GL draws wide points (the GL spec clips
//     points by their centre, which makes large spheres at the frame's edge pop in and out).
#include "render/colormap.h"
#include "render/cuda_splat.h"
#include "render/particle_upload.h"

#include <GL/glew.h>
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>
#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta::render {

namespace {

std::string cuda_text(cudaError_t e) { return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e); }
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA splat: ") + what + " failed: " + cuda_text(e));
}

constexpr unsigned long long kEmpty = ~0ull;

struct Frame {
  float V[16], P[16];  // column-major, as glm
  float radius;        // the uniform radius
  float radius_scale;  // on the particles' own radii (ViewSettings::radius_scale)
  int width, height;
  int walls;  // WallMode: 0 hidden, 1 dimmed, 2 shown
  int clip_on;
  float clip[4];
  int discs;
  float light[3], half[3];
  float range_min, range_max;
  float background[3];
  int colormap_n;
  float wide_px;  // particles with a larger radius in pixels are splatted by whole blocks
  float wall_grey, wall_alpha;
};

struct Projected {
  float cx, cy;  // window coordinates of the centre (pixels, GL convention: y up)
  float rpx;     // radius in pixels
  float r;       // radius in world units
  float vc[3];   // view-space centre
  bool visible;
};

__device__ inline void mul(const float* M, const float* v, float* out) {
  for (int r = 0; r < 4; ++r) out[r] = M[r] * v[0] + M[4 + r] * v[1] + M[8 + r] * v[2] + M[12 + r] * v[3];
}

// The radius particle i is drawn at: its own (rad: nullptr when the engine has none) or the uniform.
__device__ inline float radius_of(const Frame& f, const float* rad, std::size_t i) {
  if (!rad) return f.radius;
  const float r = rad[i];
  return r > 0.f ? r * f.radius_scale : f.radius;
}

__device__ inline Projected project(const Frame& f, const float4 x, const float r) {
  Projected q;
  q.visible = false;
  q.r = r;
  const bool wall = x.w > 0.5f;
  if (wall && f.walls == 0) return q;
  if (f.clip_on && f.clip[0] * x.x + f.clip[1] * x.y + f.clip[2] * x.z > f.clip[3]) return q;
  const float xw[4] = {x.x, x.y, x.z, 1.f};
  float v[4], c[4], fr[4];
  mul(f.V, xw, v);
  mul(f.P, v, c);
  const float front[4] = {v[0], v[1], v[2] + r, 1.f};
  mul(f.P, front, fr);
  const float zf = fr[2] / fr[3] * c[3];
  if (!(c[3] > 0.f) || fabsf(zf) > c[3]) return q;
  q.cx = (c[0] / c[3] * 0.5f + 0.5f) * float(f.width);
  q.cy = (c[1] / c[3] * 0.5f + 0.5f) * float(f.height);
  const float w = f.P[15] > 0.5f ? 1.f : -v[2];
  q.rpx = fmaxf(0.5f, r * f.P[5] * 0.5f * float(f.height) / w);
  if (q.cx + q.rpx < 0.f || q.cx - q.rpx > float(f.width) || q.cy + q.rpx < 0.f || q.cy - q.rpx > float(f.height))
    return q;
  q.vc[0] = v[0], q.vc[1] = v[1], q.vc[2] = v[2];
  q.visible = true;
  return q;
}

// Window depth in [0, 1] of the pixel at offset p (|p| <= 1) of particle q.
__device__ inline float pixel_depth(const Frame& f, const Projected& q, float px, float py) {
  float s[4];
  if (f.discs) {
    s[0] = q.vc[0], s[1] = q.vc[1], s[2] = q.vc[2] + q.r, s[3] = 1.f;
  } else {
    const float nz = sqrtf(fmaxf(0.f, 1.f - px * px - py * py));
    s[0] = q.vc[0] + px * q.r, s[1] = q.vc[1] + py * q.r, s[2] = q.vc[2] + nz * q.r, s[3] = 1.f;
  }
  float c[4];
  mul(f.P, s, c);
  return 0.5f * (c[2] / c[3]) + 0.5f;
}

__device__ inline void splat_pixel(const Frame& f, const Projected& q, uint32_t i, int x, int y,
                                   unsigned long long* buf) {
  if (x < 0 || y < 0 || x >= f.width || y >= f.height) return;
  const float px = (float(x) + 0.5f - q.cx) / q.rpx, py = (float(y) + 0.5f - q.cy) / q.rpx;
  if (px * px + py * py > 1.f) return;
  const float d = pixel_depth(f, q, px, py);
  if (!(d >= 0.f && d < 1.f)) return;
  const unsigned long long key = (static_cast<unsigned long long>(__float_as_uint(d)) << 32) | i;
  unsigned long long* slot = buf + std::size_t(y) * f.width + x;
  if (key < *slot) atomicMin(slot, key);  // the plain read skips most atomics on covered pixels
}

// Dimmed walls go to their own buffer (`walls`); everything drawn opaque to `buf`.
__device__ inline unsigned long long* target_buffer(const Frame& f, float4 x, unsigned long long* buf,
                                                   unsigned long long* walls) {
  return x.w > 0.5f && f.walls == 1 ? walls : buf;
}

__global__ void splat_small(Frame f, const float4* pos, const float* rad, std::size_t n, unsigned long long* buf,
                            unsigned long long* walls, uint32_t* big, uint32_t* big_count, uint32_t big_capacity) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const float4 xp = pos[i];
  const Projected q = project(f, xp, radius_of(f, rad, i));
  if (!q.visible) return;
  unsigned long long* out = target_buffer(f, xp, buf, walls);
  if (q.rpx > f.wide_px) {
    const uint32_t k = atomicAdd(big_count, 1u);
    if (k < big_capacity) big[k] = uint32_t(i);
    return;
  }
  const int x0 = int(floorf(q.cx - q.rpx)), x1 = int(ceilf(q.cx + q.rpx));
  const int y0 = int(floorf(q.cy - q.rpx)), y1 = int(ceilf(q.cy + q.rpx));
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) splat_pixel(f, q, uint32_t(i), x, y, out);
}

// One block per wide particle, its threads over the footprint's bounding square.
__global__ void splat_big(Frame f, const float4* pos, const float* rad, const uint32_t* big, const uint32_t* big_count,
                          uint32_t big_capacity, unsigned long long* buf, unsigned long long* walls) {
  const uint32_t count = min(*big_count, big_capacity);
  for (uint32_t b = blockIdx.x; b < count; b += gridDim.x) {
    const uint32_t i = big[b];
    const float4 xp = pos[i];
    const Projected q = project(f, xp, radius_of(f, rad, i));
    unsigned long long* out = target_buffer(f, xp, buf, walls);
    const int x0 = max(0, int(floorf(q.cx - q.rpx))), x1 = min(f.width - 1, int(ceilf(q.cx + q.rpx)));
    const int y0 = max(0, int(floorf(q.cy - q.rpx))), y1 = min(f.height - 1, int(ceilf(q.cy + q.rpx)));
    const int w = x1 - x0 + 1, h = y1 - y0 + 1;
    if (w <= 0 || h <= 0) continue;
    for (int k = threadIdx.x; k < w * h; k += blockDim.x) splat_pixel(f, q, i, x0 + k % w, y0 + k / w, out);
  }
}

__device__ inline unsigned char unorm8(float v) {
  return static_cast<unsigned char>(__float2int_rn(fminf(fmaxf(v, 0.f), 1.f) * 255.f));
}

// The lit colour of particle q at pixel (x, y) for the base colour `base` (the sprite shader's).
__device__ inline void shade(const Frame& f, const Projected& q, int x, int y, const float* base, float* rgb) {
  if (f.discs) {
    rgb[0] = base[0], rgb[1] = base[1], rgb[2] = base[2];
    return;
  }
  const float px = (float(x) + 0.5f - q.cx) / q.rpx, py = (float(y) + 0.5f - q.cy) / q.rpx;
  const float nz = sqrtf(fmaxf(0.f, 1.f - px * px - py * py));
  const float diffuse = fmaxf(px * f.light[0] + py * f.light[1] + nz * f.light[2], 0.f);
  const float spec = powf(fmaxf(px * f.half[0] + py * f.half[1] + nz * f.half[2], 0.f), 40.f);
  for (int k = 0; k < 3; ++k) rgb[k] = base[k] * (0.3f + 0.7f * diffuse) + 0.25f * spec;
}

__global__ void resolve_kernel(Frame f, const float4* pos, const float* col, const float* rad, const float3* cmap,
                               const unsigned long long* buf, const unsigned long long* walls,
                               cudaSurfaceObject_t out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= f.width || y >= f.height) return;
  const std::size_t pixel = std::size_t(y) * f.width + x;
  const unsigned long long key = buf[pixel];
  float rgb[3] = {f.background[0], f.background[1], f.background[2]};
  if (key != kEmpty) {
    const uint32_t i = uint32_t(key & 0xffffffffu);
    const Projected q = project(f, pos[i], radius_of(f, rad, i));
    float base[3];
    const float span = f.range_max - f.range_min;
    const float t = span > 0.f ? fminf(fmaxf((col[i] - f.range_min) / span, 0.f), 1.f) : 0.5f;
    // GL_LINEAR on a 1D texture with clamp-to-edge: texel centres at (k + 1/2) / N.
    const float u = fminf(fmaxf(t * f.colormap_n - 0.5f, 0.f), float(f.colormap_n - 1));
    const int k0 = int(floorf(u)), k1 = min(k0 + 1, f.colormap_n - 1);
    const float a = u - float(k0);
    const float3 c0 = cmap[k0], c1 = cmap[k1];
    base[0] = c0.x + a * (c1.x - c0.x), base[1] = c0.y + a * (c1.y - c0.y), base[2] = c0.z + a * (c1.z - c0.z);
    shade(f, q, x, y, base, rgb);
  }
  // A dimmed wall in front of it: blended over, as GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA does (the
  // sprite path blends over the framebuffer's 8-bit value: quantised the same way first).
  if (f.walls == 1) {
    const unsigned long long wkey = walls[pixel];
    if (wkey != kEmpty && (wkey >> 32) < (key >> 32)) {
      const uint32_t i = uint32_t(wkey & 0xffffffffu);
      const Projected q = project(f, pos[i], radius_of(f, rad, i));
      const float base[3] = {f.wall_grey, f.wall_grey, f.wall_grey};
      float w[3];
      shade(f, q, x, y, base, w);
      for (int k = 0; k < 3; ++k) {
        const float dst = float(unorm8(rgb[k])) / 255.f, src = fminf(fmaxf(w[k], 0.f), 1.f);
        rgb[k] = src * f.wall_alpha + dst * (1.f - f.wall_alpha);
      }
    }
  }
  surf2Dwrite(make_uchar4(unorm8(rgb[0]), unorm8(rgb[1]), unorm8(rgb[2]), 255), out, x * 4, y);
}

template <class P>
void free_device(P*& p) {
  if (p) cudaFree(p);
  p = nullptr;
}

class CudaSplatRenderer final : public SplatRenderer {
 public:
  ~CudaSplatRenderer() override {
    unregister();
    if (tex_) glDeleteTextures(1, &tex_);
    if (read_fbo_) glDeleteFramebuffers(1, &read_fbo_);
    free_device(pos_);
    free_device(col_);
    free_device(rad_);
    free_device(buf_);
    free_device(wbuf_);
    free_device(big_);
    free_device(big_count_);
    free_device(cmap_);
  }

  // Creates and registers a small texture up front, so that a refusal falls back at start-up.
  bool init(std::string* why) {
    try {
      ensure_target(16, 16);
    } catch (const std::exception& e) {
      if (why) *why = e.what();
      cudaGetLastError();
      return false;
    }
    return true;
  }

  RenderRange fill(Simulation& sim, const RenderRequest& req) override {
    const std::size_t n = sim.particle_count();
    // Radii only while the engine has them (grains; checked every frame: a grain drop can bring
    // them into a liquid scene): 4 bytes a particle more, none for SPH scenes.
    const bool radii = want_particle_radii(sim);
    if (n != n_ || radii != (rad_ != nullptr)) {
      free_device(pos_);
      free_device(col_);
      free_device(rad_);
      free_device(big_);
      check(cudaMalloc(&pos_, sizeof(float4) * std::max<std::size_t>(n, 1)), "cudaMalloc (positions)");
      check(cudaMalloc(&col_, sizeof(float) * std::max<std::size_t>(n, 1)), "cudaMalloc (colours)");
      if (radii) check(cudaMalloc(&rad_, sizeof(float) * std::max<std::size_t>(n, 1)), "cudaMalloc (radii)");
      check(cudaMalloc(&big_, sizeof(uint32_t) * std::max<std::size_t>(n, 1)), "cudaMalloc (wide list)");
      n_ = n;
    }
    // fill_render_data ends with its range reduction's download: the buffers are complete on return.
    return sim.fill_render_data(req, RenderBuffers{reinterpret_cast<float*>(pos_), col_, n, true, rad_});
  }

  void set_wide_radius_px(float r) override { wide_px_ = r; }

  void draw(const Camera& cam, const ViewSettings& s, int width, int height, unsigned fbo) override {
    ensure_target(width, height);
    Frame f = frame(cam, s, width, height);
    const std::size_t pixels = std::size_t(width) * height;
    check(cudaMemsetAsync(buf_, 0xff, sizeof(unsigned long long) * pixels), "cudaMemsetAsync (depth buffer)");  // kEmpty
    if (f.walls == 1)
      check(cudaMemsetAsync(wbuf_, 0xff, sizeof(unsigned long long) * pixels), "cudaMemsetAsync (wall depth buffer)");
    if (n_ > 0) {
      check(cudaMemsetAsync(big_count_, 0, sizeof(uint32_t)), "cudaMemsetAsync");
      splat_small<<<unsigned((n_ + 255) / 256), 256>>>(f, pos_, rad_, n_, buf_, wbuf_, big_, big_count_, uint32_t(n_));
      splat_big<<<1024, 256>>>(f, pos_, rad_, big_, big_count_, uint32_t(n_), buf_, wbuf_);
    }
    check(cudaGetLastError(), "splat kernels");
    if (!mapped_) map();
    try {
      cudaArray_t arr = nullptr;
      check(cudaGraphicsSubResourceGetMappedArray(&arr, res_, 0, 0), "cudaGraphicsSubResourceGetMappedArray");
      cudaResourceDesc rd{};
      rd.resType = cudaResourceTypeArray;
      rd.res.array.array = arr;
      cudaSurfaceObject_t surf = 0;
      check(cudaCreateSurfaceObject(&surf, &rd), "cudaCreateSurfaceObject");
      const dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
      resolve_kernel<<<grid, block>>>(f, pos_, col_, rad_, cmap_, buf_, wbuf_, surf);
      const cudaError_t e = cudaGetLastError();
      cudaDestroySurfaceObject(surf);
      check(e, "resolve kernel");
    } catch (...) {
      (void)unmap();
      throw;
    }
    // Unmapping orders the CUDA writes before GL's next use of the texture.
    check(unmap(), "cudaGraphicsUnmapResources");
    glBindFramebuffer(GL_READ_FRAMEBUFFER, read_fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
    glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    // Mapped again at once, so that GL's blit and the release of the texture to CUDA are one visit of
    // the GPU to GL's context, not two (the next frame's map would be another): on the H100 each visit
    // costs a few hundred microseconds of idle GPU, and this took the viewer's share of 8 steps a frame
    // at 1M particles from 10.1% to 7.0% (docs/benchmarks.md, 2026-12-06 afternoon).
    map();
  }

 private:
  Frame frame(const Camera& cam, const ViewSettings& s, int width, int height) {
    Frame f{};
    const glm::mat4 view = cam.view(), proj = cam.proj(float(width) / float(std::max(height, 1)));
    std::copy_n(glm::value_ptr(view), 16, f.V);
    std::copy_n(glm::value_ptr(proj), 16, f.P);
    f.radius = s.radius;
    f.radius_scale = s.radius_scale;
    f.width = width, f.height = height;
    f.walls = int(s.walls);
    f.clip_on = s.clip && !cam.two_d() ? 1 : 0;
    f.clip[0] = s.clip_normal.x, f.clip[1] = s.clip_normal.y, f.clip[2] = s.clip_normal.z, f.clip[3] = s.clip_offset;
    f.discs = s.mode == SpriteMode::Discs ? 1 : 0;
    // The sprite shader's light (GlParticleRenderer::draw) and its half vector.
    const glm::vec3 light = glm::normalize(glm::vec3(-0.4f, 0.6f, 0.7f));
    const glm::vec3 half = glm::normalize(light + glm::vec3(0.f, 0.f, 1.f));
    f.light[0] = light.x, f.light[1] = light.y, f.light[2] = light.z;
    f.half[0] = half.x, f.half[1] = half.y, f.half[2] = half.z;
    f.range_min = s.range_min, f.range_max = s.range_max;
    f.background[0] = s.background.r, f.background[1] = s.background.g, f.background[2] = s.background.b;
    upload_colormap(s.colormap);
    f.colormap_n = cmap_n_;
    f.wide_px = wide_px_;
    f.wall_grey = kDimmedWallGrey, f.wall_alpha = kDimmedWallAlpha;
    return f;
  }

  void upload_colormap(const std::string& name) {
    if (name == cmap_name_) return;
    const Colormap& m = colormap(name);
    std::vector<float3> rgb;
    for (const auto& c : m.rgb) rgb.push_back(make_float3(c[0], c[1], c[2]));
    free_device(cmap_);
    check(cudaMalloc(&cmap_, sizeof(float3) * rgb.size()), "cudaMalloc (colormap)");
    check(cudaMemcpy(cmap_, rgb.data(), sizeof(float3) * rgb.size(), cudaMemcpyHostToDevice), "cudaMemcpy (colormap)");
    cmap_n_ = int(rgb.size());
    cmap_name_ = name;
  }

  void ensure_target(int width, int height) {
    if (width == w_ && height == h_ && res_) return;
    unregister();
    if (!tex_) glGenTextures(1, &tex_);
    if (!read_fbo_) glGenFramebuffers(1, &read_fbo_);
    glBindTexture(GL_TEXTURE_2D, tex_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
    GLint prev = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &prev);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, read_fbo_);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex_, 0);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(prev));
    const cudaError_t e = cudaGraphicsGLRegisterImage(&res_, tex_, GL_TEXTURE_2D,
                                                      cudaGraphicsRegisterFlagsSurfaceLoadStore |
                                                          cudaGraphicsRegisterFlagsWriteDiscard);
    if (e != cudaSuccess) {
      res_ = nullptr;
      cudaGetLastError();
      throw std::runtime_error("cudaGraphicsGLRegisterImage refused: " + cuda_text(e));
    }
    free_device(buf_);
    free_device(wbuf_);
    check(cudaMalloc(&buf_, sizeof(unsigned long long) * std::size_t(width) * height), "cudaMalloc (depth buffer)");
    check(cudaMalloc(&wbuf_, sizeof(unsigned long long) * std::size_t(width) * height), "cudaMalloc (wall depth buffer)");
    if (!big_count_) check(cudaMalloc(&big_count_, sizeof(uint32_t)), "cudaMalloc (wide count)");
    w_ = width, h_ = height;
  }

  void map() {
    check(cudaGraphicsMapResources(1, &res_, 0), "cudaGraphicsMapResources");
    mapped_ = true;
  }
  cudaError_t unmap() {
    const cudaError_t e = mapped_ ? cudaGraphicsUnmapResources(1, &res_, 0) : cudaSuccess;
    mapped_ = false;
    return e;
  }
  void unregister() {
    (void)unmap();
    if (res_) cudaGraphicsUnregisterResource(res_);
    res_ = nullptr;
  }

  std::size_t n_ = 0;
  float4* pos_ = nullptr;
  float* col_ = nullptr;
  float* rad_ = nullptr;  // per-particle radii, only while the engine has them
  unsigned long long* buf_ = nullptr;
  unsigned long long* wbuf_ = nullptr;  // the dimmed walls' depth | index
  uint32_t* big_ = nullptr;
  uint32_t* big_count_ = nullptr;
  float3* cmap_ = nullptr;
  int cmap_n_ = 0;
  std::string cmap_name_;
  unsigned tex_ = 0, read_fbo_ = 0;
  cudaGraphicsResource_t res_ = nullptr;
  int w_ = 0, h_ = 0;
  float wide_px_ = 6.f;
  bool mapped_ = false;  // the texture is CUDA's between draws (GL only blits it, unmapped, in draw)
};

}  // namespace

std::unique_ptr<SplatRenderer> make_splat_renderer(Simulation& sim, std::string* why) {
  if (sim.backend() != Backend::Cuda) {
    if (why) *why = "not used (CPU backend)";
    return nullptr;
  }
  auto r = std::make_unique<CudaSplatRenderer>();
  if (!r->init(why)) return nullptr;
  return r;
}

}  // namespace ejecta::render
