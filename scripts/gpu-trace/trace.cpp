// A CUPTI activity tracer for the GPU host, where Nsight Systems is absent (issue 18, docs/benchmarks.md,
// "H100, 2026-12-06 (11:03-12:50 UTC)"): loaded into any CUDA program by CUDA_INJECTION64_PATH, it records
// every kernel, copy, memset, runtime call and synchronisation with its timestamps and writes them to
// $TRACE_OUT (default /tmp/trace.csv) at exit, one CSV line each: kind (K, C, M, R, S), start ns, end ns,
// correlation id, stream, what. Not part of the build; scripts/gpu-trace/build.sh builds it here and
// copies libcupti beside it, so the pair travels to the GPU host with the binaries.
#include <cupti.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
static FILE* out_ = nullptr;
static std::mutex mu_;
static void CUPTIAPI requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 16u << 20;
  *buffer = static_cast<uint8_t*>(aligned_alloc(8, *size));
  *max_records = 0;
}
static void CUPTIAPI completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  std::lock_guard<std::mutex> lock(mu_);
  CUpti_Activity* r = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
    switch (r->kind) {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      case CUPTI_ACTIVITY_KIND_KERNEL: {
        auto* k = reinterpret_cast<CUpti_ActivityKernel10*>(r);
        fprintf(out_, "K,%llu,%llu,%u,%u,%s\n", (unsigned long long)k->start, (unsigned long long)k->end, k->correlationId,
                k->streamId, k->name);
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        auto* m = reinterpret_cast<CUpti_ActivityMemcpy6*>(r);
        fprintf(out_, "C,%llu,%llu,%u,%u,kind%u bytes%llu\n", (unsigned long long)m->start, (unsigned long long)m->end,
                m->correlationId, m->streamId, m->copyKind, (unsigned long long)m->bytes);
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        auto* m = reinterpret_cast<CUpti_ActivityMemset4*>(r);
        fprintf(out_, "M,%llu,%llu,%u,%u,bytes%llu\n", (unsigned long long)m->start, (unsigned long long)m->end,
                m->correlationId, m->streamId, (unsigned long long)m->bytes);
        break;
      }
      case CUPTI_ACTIVITY_KIND_RUNTIME: {
        auto* a = reinterpret_cast<CUpti_ActivityAPI*>(r);
        const char* name = "?";
        cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, a->cbid, &name);
        fprintf(out_, "R,%llu,%llu,%u,0,%s\n", (unsigned long long)a->start, (unsigned long long)a->end, a->correlationId, name);
        break;
      }
      case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        auto* s = reinterpret_cast<CUpti_ActivitySynchronization2*>(r);
        fprintf(out_, "S,%llu,%llu,%u,%u,type%d\n", (unsigned long long)s->start, (unsigned long long)s->end, s->correlationId,
                s->streamId, int(s->type));
        break;
      }
      default: break;
    }
  }
  free(buffer);
}
static void finish() {
  cuptiActivityFlushAll(1);
  if (out_) fclose(out_);
}
extern "C" int InitializeInjection(void) {
  const char* path = getenv("TRACE_OUT");
  out_ = fopen(path ? path : "/tmp/trace.csv", "w");
  cuptiActivityRegisterCallbacks(requested, completed);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  atexit(finish);
  return 1;
}
