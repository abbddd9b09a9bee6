// Typed device pointers (exec/device_ptr.h, issue 14): a host pointer cannot stand where device memory
// is meant, nor the reverse, and the typed transfers refuse a swapped source and destination. The
// misuses are checked at compile time (a misuse compiled into the test would not build): each
// static_assert below states that an expression is ill-formed, through detection traits.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "exec/device_array.h"
#include "exec/device_ptr.h"
#include "exec/exec_cpu.h"
#include "physics/coupling_adami2012.h"
#include "physics/dem_grains_hertz_mindlin.h"
#include "physics/gas_model.h"
#include "physics/wcsph_model.h"

using namespace ejecta;

namespace {

template <class...>
using void_t = void;

// upload(exec, Dst, Src, n) is well-formed.
template <class Dst, class Src, class = void>
struct can_upload : std::false_type {};
template <class Dst, class Src>
struct can_upload<Dst, Src,
                  void_t<decltype(upload(std::declval<CpuExec&>(), std::declval<Dst>(), std::declval<Src>(), std::size_t(1)))>>
    : std::true_type {};

// download(exec, Dst, Src, n) is well-formed.
template <class Dst, class Src, class = void>
struct can_download : std::false_type {};
template <class Dst, class Src>
struct can_download<Dst, Src,
                    void_t<decltype(download(std::declval<const CpuExec&>(), std::declval<Dst>(), std::declval<Src>(),
                                             std::size_t(1)))>> : std::true_type {};

// A view field assigned a value of type From.
template <class Field, class From, class = void>
struct can_assign : std::false_type {};
template <class Field, class From>
struct can_assign<Field, From, void_t<decltype(std::declval<Field&>() = std::declval<From>())>> : std::true_type {};

using V = Vec<float, 3>;
using GasView3 = GasView<float, 3>;

// No way in from a host pointer but adopt (the allocators'), no way out but get().
static_assert(!std::is_convertible<float*, DevicePtr<float>>::value, "a host pointer is not device memory");
static_assert(!std::is_constructible<DevicePtr<float>, float*>::value, "nor explicitly");
static_assert(!std::is_convertible<DevicePtr<float>, float*>::value, "device memory is not a host pointer");
static_assert(!std::is_convertible<DevicePtr<float>, const void*>::value, "nor a void* (memcpy)");
static_assert(std::is_convertible<DevicePtr<float>, DevicePtr<const float>>::value, "read-only views are fine");
static_assert(!std::is_convertible<DevicePtr<const float>, DevicePtr<float>>::value, "but never the reverse");
static_assert(!std::is_convertible<DevicePtr<float>, DevicePtr<double>>::value, "no element-type change");
static_assert(std::is_convertible<std::nullptr_t, DevicePtr<float>>::value, "an absent optional field");

// Zero cost: one pointer, passed to kernels by value.
static_assert(sizeof(DevicePtr<V>) == sizeof(V*), "one pointer");
static_assert(std::is_trivially_copyable<DevicePtr<V>>::value, "a kernel parameter");
static_assert(std::is_trivially_copyable<GasView3>::value, "views stay kernel parameters");
static_assert(sizeof(GasView3) == 17 * sizeof(void*), "the gas view did not grow");

// The view of the gas model holds device memory only.
static_assert(!can_assign<decltype(GasView3::x), V*>::value, "a std::vector's data() in a view");
static_assert(!can_assign<decltype(GasView3::m), const float*>::value, "a host array as the mass field");
static_assert(can_assign<decltype(GasView3::m), DevicePtr<float>>::value, "a device field as the mass field");

// The liquid's, the solid's and the mixed scene's views too (issue 14): device memory only, and no
// bigger than the raw pointers they replaced (13, 21 + 8 porous + phase, and 3 more for the mixed
// boundary state).
using Liquid3 = ParticleView<float, 3>;
using Solid3 = SolidView<float, 3>;
using Mixed3 = MixedView<float, 3>;
static_assert(std::is_trivially_copyable<Liquid3>::value && std::is_trivially_copyable<Solid3>::value &&
                  std::is_trivially_copyable<Mixed3>::value && std::is_trivially_copyable<GrainHistoryView<float, 3>>::value,
              "views stay kernel parameters");
static_assert(sizeof(Liquid3) == 13 * sizeof(void*), "the liquid view did not grow");
static_assert(sizeof(Solid3) == 30 * sizeof(void*), "the solid view did not grow");
static_assert(sizeof(Mixed3) == 33 * sizeof(void*), "the mixed view did not grow");
static_assert(!can_assign<decltype(Liquid3::x), V*>::value, "a host array as the liquid's positions");
static_assert(!can_assign<decltype(Liquid3::kind), const uint8_t*>::value, "a host array as the liquid's kinds");
static_assert(can_assign<decltype(Liquid3::m), DevicePtr<float>>::value, "a device field as the liquid's mass");
static_assert(!can_assign<decltype(Solid3::S), SymTensor<float, 3>*>::value, "a host array as the stress");
static_assert(!can_assign<decltype(Solid3::h), const float*>::value, "a host array as the smoothing lengths");
static_assert(!can_assign<decltype(Solid3::por.alpha), float*>::value, "a host array as the distention");
static_assert(!can_assign<decltype(Mixed3::pb), float*>::value, "a host array as the boundary pressure");
static_assert(!can_assign<decltype(GrainHistoryView<float, 3>::count), uint32_t*>::value, "a host contact count");
static_assert(can_assign<decltype(Solid3::phase), DevicePtr<uint8_t>>::value, "a device field as the phase");
static_assert(!can_assign<float*, decltype(Solid3::rho)>::value, "a view's field into a host pointer");

// Transfers: upload(device <- host), download(host <- device); everything else refused.
static_assert(can_upload<DevicePtr<float>, const float*>::value, "upload");
static_assert(can_upload<DevicePtr<float>, float*>::value, "upload from a non-const host array");
static_assert(!can_upload<float*, const float*>::value, "upload into a host pointer");
static_assert(!can_upload<DevicePtr<float>, DevicePtr<float>>::value, "upload from device memory");
static_assert(!can_upload<DevicePtr<const float>, const float*>::value, "upload into a read-only view");
static_assert(!can_upload<DevicePtr<float>, const double*>::value, "upload of another element type");
static_assert(can_download<float*, DevicePtr<float>>::value, "download");
static_assert(can_download<float*, DevicePtr<const float>>::value, "download from a read-only view");
static_assert(!can_download<DevicePtr<float>, DevicePtr<float>>::value, "download into device memory");
static_assert(!can_download<float*, float*>::value, "download from a host pointer");
static_assert(!can_download<const float*, DevicePtr<float>>::value, "download into a const array");

}  // namespace

// The typed transfers move the bytes the untyped ones did (CPU backend: device memory is host memory).
TEST(DevicePtr, TypedTransfersRoundTrip) {
  CpuExec exec;
  DeviceArray<double, CpuExec> a(exec, 5);
  const std::vector<double> in = {1.5, -2, 3e300, 0, 7};
  upload(exec, a.device(), in.data(), in.size());
  std::vector<double> out(5, 0.0);
  download(exec, out.data(), a.device(), out.size());
  EXPECT_EQ(out, in);
  const DeviceArray<double, CpuExec>& ca = a;
  DevicePtr<const double> ro = ca.device();
  EXPECT_EQ(ro[2], 3e300);
  EXPECT_EQ(ro.get(), a.data());
  EXPECT_FALSE(DevicePtr<float>(nullptr));
  EXPECT_TRUE(ro);
}
