#pragma once
// CUDA-GL interop for the renderer's two vertex buffers (see particle_upload.h). The declarations
// live in particle_upload.h; this header only documents the file pair: cuda_gl_interop.cu in CUDA
// builds, cuda_gl_interop_stub.cpp otherwise.
#include "render/particle_upload.h"
