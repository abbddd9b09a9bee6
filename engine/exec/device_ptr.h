#pragma once
// Typed device pointers (issue 14). Memory of the execution backend (the particle store's fields,
// DeviceArray's buffers) is handed out as DevicePtr<T>, not T*: a host address (a std::vector's data())
// cannot be put where device memory is meant, and device memory cannot reach a host function (memcpy,
// a std::vector, a printf loop) without an explicit .get(), each a compile error otherwise. The same
// source compiles for both backends: on the CPU device memory is host memory, but the type still keeps
// the two roles apart, so a mix-up is caught by g++ before it reaches a GPU. Zero cost: one pointer,
// trivially copyable (kernel parameters), every member inline.
//
// Only the allocators mint one (DevicePtr::adopt); transfers between host and device go through the
// typed upload/download below (a swapped source and destination does not compile).
#include "core/hd.h"

#include <cstddef>
#include <type_traits>

namespace ejecta {

template <class T>
class DevicePtr {
 public:
  using element_type = T;

  constexpr DevicePtr() = default;
  EJ_HD constexpr DevicePtr(std::nullptr_t) {}
  // A device array of T read as const T (a functor's input); never the reverse.
  template <class U, std::enable_if_t<std::is_same<const U, T>::value && !std::is_same<U, T>::value, int> = 0>
  EJ_HD constexpr DevicePtr(DevicePtr<U> other) : p_(other.get()) {}

  // For an allocator of the backend only (ParticleStore, DeviceArray): `p` is device memory.
  static constexpr DevicePtr adopt(T* p) {
    DevicePtr d;
    d.p_ = p;
    return d;
  }

  EJ_HD T& operator[](std::size_t i) const { return p_[i]; }
  // The raw address, for code that takes one (the neighbour grids, the gravity walk, the backends'
  // own transfers): the one way out, easy to find.
  EJ_HD T* get() const { return p_; }
  EJ_HD explicit operator bool() const { return p_ != nullptr; }
  EJ_HD friend bool operator==(DevicePtr a, DevicePtr b) { return a.p_ == b.p_; }
  EJ_HD friend bool operator!=(DevicePtr a, DevicePtr b) { return a.p_ != b.p_; }

 private:
  T* p_ = nullptr;
};

static_assert(sizeof(DevicePtr<double>) == sizeof(double*), "DevicePtr is one pointer");
static_assert(std::is_trivially_copyable<DevicePtr<float>>::value, "DevicePtr is a kernel parameter");

// Host memory read by a functor that runs on the host outside an execution layer (the tests' hand-made
// particles, the distributed run's measures over a downloaded frame): the CPU backend's device memory
// is host memory, so this is the one other place a DevicePtr is minted, by name.
template <class T>
DevicePtr<T> host_as_device(T* p) {
  return DevicePtr<T>::adopt(p);
}

// For signatures whose second DevicePtr<const E> must take the E of the first (C++20's type_identity).
template <class T>
struct NonDeduced {
  using type = T;
};

// n elements from host memory to the device: dst must be a DevicePtr, src a host pointer.
template <class Exec, class T, class H,
          std::enable_if_t<std::is_same<std::remove_const_t<H>, T>::value && !std::is_const<T>::value, int> = 0>
void upload(Exec& exec, DevicePtr<T> dst, H* src, std::size_t n) {
  exec.upload(dst.get(), src, n * sizeof(T));
}

// n elements from the device to host memory: dst a (non-const) host pointer, src a DevicePtr.
template <class Exec, class T, class U,
          std::enable_if_t<std::is_same<std::remove_const_t<U>, T>::value && !std::is_const<T>::value, int> = 0>
void download(const Exec& exec, T* dst, DevicePtr<U> src, std::size_t n) {
  exec.download(dst, src.get(), n * sizeof(T));
}

}  // namespace ejecta
