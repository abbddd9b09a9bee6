#pragma once
// RAII array on an execution backend, for work buffers that are not particle fields (sort keys,
// bucket offsets). Counts its bytes into the owner's tally.
#include "exec/device_ptr.h"

#include <cstddef>
#include <utility>

namespace ejecta {

template <class E, class Exec>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(Exec& exec, std::size_t n, std::size_t* tally = nullptr) { resize(exec, n, tally); }
  ~DeviceArray() { release(); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  void resize(Exec& exec, std::size_t n, std::size_t* tally = nullptr) {
    release();
    exec_ = &exec;
    tally_ = tally;
    n_ = n;
    data_ = static_cast<E*>(exec.allocate(sizeof(E) * (n ? n : 1)));
    if (tally_) *tally_ += sizeof(E) * n_;
  }
  // The buffer as a typed device pointer (exec/device_ptr.h), for views and the typed transfers.
  DevicePtr<E> device() { return DevicePtr<E>::adopt(data_); }
  DevicePtr<const E> device() const { return DevicePtr<const E>::adopt(data_); }
  E* data() { return data_; }
  const E* data() const { return data_; }
  E*& ptr() { return data_; }  // for pointer swaps with a twin array (double buffering)
  std::size_t size() const { return n_; }

 private:
  void release() {
    if (data_ && exec_) exec_->deallocate(data_);
    if (tally_) *tally_ -= sizeof(E) * n_;
    data_ = nullptr;
    n_ = 0;
  }
  Exec* exec_ = nullptr;
  std::size_t* tally_ = nullptr;
  E* data_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace ejecta
