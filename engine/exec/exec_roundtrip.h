#pragma once
// exec_host.h's round trips, written once for any Exec (instantiated in exec_host.cpp for the CPU and
// in exec_cuda.cu for CUDA).
#include "exec/device_array.h"

#include <cstdint>
#include <vector>

namespace ejecta {

template <class Exec, class T>
std::vector<T> exclusive_scan_roundtrip(const std::vector<T>& in) {
  Exec exec;
  DeviceArray<T, Exec> d_in(exec, in.size()), d_out(exec, in.size() + 1);
  exec.upload(d_in.data(), in.data(), sizeof(T) * in.size());
  exec.exclusive_scan(d_in.data(), d_out.data(), in.size());
  std::vector<T> out(in.size() + 1);
  exec.download(out.data(), d_out.data(), sizeof(T) * out.size());
  return out;
}

template <class Exec>
void sort_pairs64_roundtrip(std::vector<uint64_t>& keys, std::vector<uint32_t>& values) {
  const std::size_t n = keys.size();
  Exec exec;
  DeviceArray<uint64_t, Exec> k(exec, n), k_alt(exec, n);
  DeviceArray<uint32_t, Exec> v(exec, n), v_alt(exec, n);
  exec.upload(k.data(), keys.data(), sizeof(uint64_t) * n);
  exec.upload(v.data(), values.data(), sizeof(uint32_t) * n);
  exec.sort_pairs64(k.ptr(), v.ptr(), k_alt.ptr(), v_alt.ptr(), n);
  exec.download(keys.data(), k.data(), sizeof(uint64_t) * n);
  exec.download(values.data(), v.data(), sizeof(uint32_t) * n);
}

}  // namespace ejecta
