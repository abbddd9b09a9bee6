#include "dist/dist_comm.h"

#define OMPI_SKIP_MPICXX 1  // the C API only (the deprecated C++ bindings warn under -Wextra)
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's extensions: MPIX_Query_cuda_support
#endif

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace ejecta::dist {

namespace {
int env_int(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : 0;
}
void finalize_at_exit() {
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}
void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}
}  // namespace

std::string rank_path(const std::string& path) {
  int init = 0;
  MPI_Initialized(&init);
  if (!init || size() < 2) return path;
  const std::string tag = ".rank" + std::to_string(rank()) + "of" + std::to_string(size());
  const bool h5 = path.size() > 3 && path.compare(path.size() - 3, 3, ".h5") == 0;
  return h5 ? path.substr(0, path.size() - 3) + tag + ".h5" : path + tag;
}

bool launched_with_ranks() { return std::max(env_int("OMPI_COMM_WORLD_SIZE"), env_int("PMI_SIZE")) > 1; }

void ensure_initialized() {
  int init = 0;
  MPI_Initialized(&init);
  if (init) return;
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  std::atexit(finalize_at_exit);
}

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

namespace {
MPI_Comm node_comm() {
  static MPI_Comm node = MPI_COMM_NULL;
  if (node == MPI_COMM_NULL)
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  return node;
}
}  // namespace

int local_rank() {
  int r = 0;
  MPI_Comm_rank(node_comm(), &r);
  return r;
}
int local_size() {
  int s = 1;
  MPI_Comm_size(node_comm(), &s);
  return s;
}

bool cuda_aware(std::string* why) {
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
  // The library at run time may differ from the headers at build time: ask it.
  const bool yes = MPIX_Query_cuda_support() == 1;
  if (why) *why = yes ? "Open MPI reports CUDA support (MPIX_Query_cuda_support)"
                      : "Open MPI was built without CUDA support (MPIX_Query_cuda_support = 0)";
  return yes;
#else
  if (why) *why = "this MPI has no CUDA-awareness query (not Open MPI's mpi-ext.h)";
  return false;
#endif
}

double min_all(double v) {
  double r = v;
  check(MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  return r;
}
double max_all(double v) {
  double r = v;
  check(MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return r;
}
void sum_all(double* v, int n) { check(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce"); }
void max_all(double* v, int n) { check(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce"); }

bool any(bool local) {
  int v = local ? 1 : 0, r = 0;
  check(MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return r != 0;
}

std::string first_failure(bool failed, const std::string& message) {
  int mine = failed ? rank() : size(), first = 0;
  check(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  if (first == size()) return "";
  int len = first == rank() ? int(message.size()) : 0;
  MPI_Bcast(&len, 1, MPI_INT, first, MPI_COMM_WORLD);
  std::string text = first == rank() ? message : std::string(std::size_t(len), ' ');
  MPI_Bcast(text.data(), len, MPI_CHAR, first, MPI_COMM_WORLD);
  return "rank " + std::to_string(first) + ": " + text;
}

std::vector<std::vector<unsigned char>> all_to_all(const std::vector<std::vector<unsigned char>>& out) {
  const int k = size();
  std::vector<long long> send_n(k), recv_n(k);
  for (int p = 0; p < k; ++p) send_n[p] = (long long)out[p].size();
  check(MPI_Alltoall(send_n.data(), 1, MPI_LONG_LONG, recv_n.data(), 1, MPI_LONG_LONG, MPI_COMM_WORLD),
        "MPI_Alltoall");
  std::vector<std::vector<unsigned char>> in(k);
  for (int p = 0; p < k; ++p) in[p].resize(std::size_t(recv_n[p]));
  exchange(out, in);
  return in;
}

void exchange(const std::vector<std::vector<unsigned char>>& out, std::vector<std::vector<unsigned char>>& in) {
  const int k = size();
  std::vector<MPI_Request> req;
  req.reserve(2 * k);
  // Messages above 2 GiB would need a derived type; a rank's halo is far below that.
  for (int p = 0; p < k; ++p)
    if (!in[p].empty()) {
      req.emplace_back();
      check(MPI_Irecv(in[p].data(), int(in[p].size()), MPI_BYTE, p, 19, MPI_COMM_WORLD, &req.back()), "MPI_Irecv");
    }
  for (int p = 0; p < k; ++p)
    if (!out[p].empty()) {
      req.emplace_back();
      check(MPI_Isend(out[p].data(), int(out[p].size()), MPI_BYTE, p, 19, MPI_COMM_WORLD, &req.back()), "MPI_Isend");
    }
  check(MPI_Waitall(int(req.size()), req.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

struct PendingExchange::Requests {
  std::vector<MPI_Request> req;
};
PendingExchange::PendingExchange() : req_(std::make_unique<Requests>()) {}
PendingExchange::~PendingExchange() {
  if (!req_->req.empty()) MPI_Waitall(int(req_->req.size()), req_->req.data(), MPI_STATUSES_IGNORE);
}
void PendingExchange::wait() {
  std::vector<MPI_Request> req;
  req.swap(req_->req);
  if (!req.empty()) check(MPI_Waitall(int(req.size()), req.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

void PendingExchange::progress() {
  if (req_->req.empty()) return;
  int done = 0;  // MPI_Testall completes nothing partially: the requests stay for wait()
  check(MPI_Testall(int(req_->req.size()), req_->req.data(), &done, MPI_STATUSES_IGNORE), "MPI_Testall");
  if (done) req_->req.clear();
}

void exchange(const unsigned char* send, const std::vector<std::size_t>& send_off, unsigned char* recv,
              const std::vector<std::size_t>& recv_off) {
  PendingExchange x;
  x.post(send, send_off, recv, recv_off);
  x.wait();
}

void PendingExchange::post(const unsigned char* send, const std::vector<std::size_t>& send_off, unsigned char* recv,
                           const std::vector<std::size_t>& recv_off) {
  const int k = size();
  if (int(send_off.size()) != k + 1 || int(recv_off.size()) != k + 1)
    throw std::logic_error("MPI exchange: offsets for " + std::to_string(send_off.size() - 1) + " peers, " +
                           std::to_string(k) + " ranks");
  if (!req_->req.empty()) throw std::logic_error("MPI exchange: posted twice without a wait");
  std::vector<MPI_Request>& req = req_->req;
  req.reserve(2 * std::size_t(k));
  for (int p = 0; p < k; ++p)
    if (recv_off[p + 1] > recv_off[p]) {
      req.emplace_back();
      check(MPI_Irecv(recv + recv_off[p], int(recv_off[p + 1] - recv_off[p]), MPI_BYTE, p, 20, MPI_COMM_WORLD,
                      &req.back()),
            "MPI_Irecv");
    }
  for (int p = 0; p < k; ++p)
    if (send_off[p + 1] > send_off[p]) {
      req.emplace_back();
      check(MPI_Isend(send + send_off[p], int(send_off[p + 1] - send_off[p]), MPI_BYTE, p, 20, MPI_COMM_WORLD,
                      &req.back()),
            "MPI_Isend");
    }
}

}  // namespace ejecta::dist
