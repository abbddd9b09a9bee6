#include "io/h5_probes.h"

#include "io/h5_common.h"

#include <algorithm>

namespace ejecta {

namespace {

using h5::Handle;

constexpr const char* kGroup = "probes";

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  const std::string detail = h5::error_stack_text();
  throw RecordError("'" + path + "': " + what + (detail.empty() ? "" : " (detail: " + detail + ")"));
}

// A fixed-length string type wide enough for every entry (at least 1 byte), null-padded.
Handle fixed_string_type(std::size_t width) {
  Handle t = h5::type(H5Tcopy(H5T_C_S1));
  H5Tset_size(t.get(), std::max<std::size_t>(width, 1));
  H5Tset_strpad(t.get(), H5T_STR_NULLPAD);
  return t;
}

bool write_strings(hid_t group, const char* name, const std::vector<std::string>& items) {
  std::size_t width = 1;
  for (const std::string& s : items) width = std::max(width, s.size());
  std::vector<char> buf(items.size() * width, '\0');
  for (std::size_t k = 0; k < items.size(); ++k) std::copy(items[k].begin(), items[k].end(), buf.begin() + k * width);
  Handle type = fixed_string_type(width);
  const hsize_t n = items.size();
  Handle space = h5::space(H5Screate_simple(1, &n, nullptr));
  Handle ds = h5::dataset(H5Dcreate2(group, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  return ds && (items.empty() || H5Dwrite(ds.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()) >= 0);
}

bool read_strings(hid_t group, const char* name, std::vector<std::string>* out) {
  Handle ds = h5::dataset(H5Dopen2(group, name, H5P_DEFAULT));
  if (!ds) return false;
  Handle ftype = h5::type(H5Dget_type(ds.get()));
  // Fixed-length strings only: a variable-length entry is refused, never read.
  if (H5Tget_class(ftype.get()) != H5T_STRING || H5Tis_variable_str(ftype.get()) != 0) return false;
  const std::size_t width = H5Tget_size(ftype.get());
  Handle space = h5::space(H5Dget_space(ds.get()));
  if (H5Sget_simple_extent_ndims(space.get()) != 1) return false;
  hsize_t n = 0;
  H5Sget_simple_extent_dims(space.get(), &n, nullptr);
  std::vector<char> buf(std::size_t(n) * width + 1, '\0');
  Handle mtype = fixed_string_type(width);
  if (n > 0 && H5Dread(ds.get(), mtype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()) < 0) return false;
  out->clear();
  for (std::size_t k = 0; k < n; ++k) {
    const char* s = buf.data() + k * width;
    out->emplace_back(s, std::find(s, s + width, '\0') - s);
  }
  return true;
}

bool write_doubles(hid_t group, const char* name, const std::vector<double>& v, int rank, const hsize_t* dims) {
  Handle space = h5::space(H5Screate_simple(rank, dims, nullptr));
  Handle ds = h5::dataset(
      H5Dcreate2(group, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  return ds && (v.empty() || H5Dwrite(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) >= 0);
}

// The dataset's doubles when it has `count` of them; false otherwise.
bool read_doubles(hid_t group, const char* name, std::size_t count, std::vector<double>* out) {
  Handle ds = h5::dataset(H5Dopen2(group, name, H5P_DEFAULT));
  if (!ds) return false;
  Handle space = h5::space(H5Dget_space(ds.get()));
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (n < 0 || std::size_t(n) != count) return false;
  out->resize(count);
  return count == 0 || H5Dread(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out->data()) >= 0;
}

}  // namespace

void write_probe_series_h5(const std::string& path, const ProbeSeries& s) {
  h5::library_init();
  h5::Silence quiet;
  Handle file = h5::file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  if (!file) fail(path, "cannot open the recording to add the probe series");
  if (H5Lexists(file.get(), kGroup, H5P_DEFAULT) > 0 && H5Ldelete(file.get(), kGroup, H5P_DEFAULT) < 0)
    fail(path, "cannot replace /probes");
  Handle g = h5::group(H5Gcreate2(file.get(), kGroup, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (!g) fail(path, "cannot create /probes");
  std::vector<std::string> names, units;
  for (const ProbeColumn& c : s.columns) names.push_back(c.name), units.push_back(c.units);
  const hsize_t rows = s.rows(), dims[2] = {rows, hsize_t(s.columns.size())};
  if (!write_doubles(g.get(), "time", s.time, 1, &rows) || !write_doubles(g.get(), "values", s.values, 2, dims) ||
      !write_strings(g.get(), "columns", names) || !write_strings(g.get(), "units", units))
    fail(path, "cannot write the probe series to /probes");
  g.reset();
  if (!file.reset()) fail(path, "cannot close the recording after adding /probes");
}

bool read_probe_series_h5(const std::string& path, ProbeSeries* out) {
  h5::library_init();
  h5::Silence quiet;
  Handle file = h5::file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (!file) fail(path, "cannot open as an HDF5 file");
  if (H5Lexists(file.get(), kGroup, H5P_DEFAULT) <= 0) return false;
  Handle g = h5::group(H5Gopen2(file.get(), kGroup, H5P_DEFAULT));
  std::vector<std::string> names, units;
  if (!g || !read_strings(g.get(), "columns", &names) || !read_strings(g.get(), "units", &units) ||
      units.size() != names.size())
    fail(path, "/probes is damaged: its columns and units must be fixed-length string lists of one length");
  ProbeSeries s;
  for (std::size_t c = 0; c < names.size(); ++c) s.columns.push_back(ProbeColumn{names[c], units[c], c});
  Handle t = h5::dataset(H5Dopen2(g.get(), "time", H5P_DEFAULT));
  if (!t) fail(path, "/probes is damaged: no time dataset");
  Handle tspace = h5::space(H5Dget_space(t.get()));
  const hssize_t rows = H5Sget_simple_extent_npoints(tspace.get());
  if (rows < 0 || !read_doubles(g.get(), "time", std::size_t(rows), &s.time) ||
      !read_doubles(g.get(), "values", std::size_t(rows) * names.size(), &s.values))
    fail(path, "/probes is damaged: values must hold " + std::to_string(rows) + " rows of " +
                   std::to_string(names.size()) + " columns");
  *out = std::move(s);
  return true;
}

}  // namespace ejecta
