#pragma once
// Playback: a recorded frame (H5Reader's FrameData, fields in their stored types) turned into the
// render data a live run gives through Simulation::fill_render_data: float4 positions (w = kind,
// 2D: z = 0), one colour value per particle (a scalar, a vector's magnitude or one component), the
// grains' radii and the colour range over the fluid. Host memory; the host-copy upload takes it from there.
#include "io/frame.h"
#include "render_data/render_request.h"

#include <vector>

namespace ejecta::render {

// Fills pos (4 per particle) and col (1 per particle), resizing them. A recording without `kind`
// (--record-fields) draws every particle as fluid. With `rad`: the particles' own radii
// (RenderBuffers::radii) when the frame has kRadiusField (grains), else rad is emptied (the uniform
// radius). Throws std::invalid_argument naming the recorded fields for an unknown field or
// component, or when the frame has no positions.
RenderRange fill_from_frame(const FrameData& f, const RenderRequest& req, std::vector<float>& pos,
                            std::vector<float>& col, std::vector<float>* rad = nullptr);
// The recorded fields, for the colour-by selector and --colour-by (the same as a live run offers).
std::vector<FieldInfo> frame_fields(const FrameData& f);

}  // namespace ejecta::render
