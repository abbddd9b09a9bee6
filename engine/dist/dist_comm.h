#pragma once
// The MPI world of a distributed run (issue 19; docs/architecture.md, "Distributed runs"). MPI is
// initialised only when `mpirun -n K` (K > 1) started the process, so a plain `ejecta ...` of an
// EJECTA_MPI build runs single-process exactly as before, without touching MPI.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace ejecta::dist {

// The file this rank writes for `path` in a distributed run: "run.h5" -> "run.rank1of4.h5"; `path`
// itself in a single-process run (MPI not initialised, or one rank).
std::string rank_path(const std::string& path);

// True when the process was started by mpirun/mpiexec with more than one rank (OpenMPI's
// OMPI_COMM_WORLD_SIZE, or PMI_SIZE of other launchers).
bool launched_with_ranks();
// MPI_Init_thread (funneled) once, MPI_Finalize at exit. No-op when already initialised.
void ensure_initialized();
int rank();
int size();
// This rank's index among the ranks of its node (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED), and their
// number: a rank's CUDA device is local_rank() % devices.
int local_rank();
int local_size();
// Whether MPI can take device pointers (CUDA-aware MPI), asked at run time (Open MPI's
// MPIX_Query_cuda_support of mpi-ext.h; false for other MPIs); `why` says how it was decided.
bool cuda_aware(std::string* why);

double min_all(double v);
double max_all(double v);
void sum_all(double* v, int n);
void max_all(double* v, int n);
// True on every rank when `local` holds on any rank.
bool any(bool local);
// The message of the lowest rank whose `failed` is true, on every rank ("" when none failed).
std::string first_failure(bool failed, const std::string& message);

// Byte vectors to every rank, from every rank (MPI_Alltoall of the sizes, then MPI_Alltoallv).
std::vector<std::vector<unsigned char>> all_to_all(const std::vector<std::vector<unsigned char>>& out);

// Non-blocking exchange with known sizes: sends out[p] to each p with out[p] non-empty and receives
// in[p] (pre-sized by the caller) from each p with in[p] non-empty (MPI_Irecv / MPI_Isend / Waitall).
void exchange(const std::vector<std::vector<unsigned char>>& out, std::vector<std::vector<unsigned char>>& in);
// The same between two packed buffers: to peer p the bytes [send_off[p], send_off[p + 1]) of `send`,
// from p into [recv_off[p], recv_off[p + 1]) of `recv` (size() + 1 offsets each). The buffers may be
// device memory when the MPI is CUDA-aware (cuda_aware()).
void exchange(const unsigned char* send, const std::vector<std::size_t>& send_off, unsigned char* recv,
              const std::vector<std::size_t>& recv_off);

// The same exchange split in two (dist.overlap): post() starts the receives and sends and returns at
// once, wait() completes them. Work between the two overlaps the transfer (MPI progresses during the
// MPI calls made meanwhile, e.g. the step size's MPI_Allreduce). The destructor waits for requests
// still pending (an exception between the two).
class PendingExchange {
 public:
  PendingExchange();
  ~PendingExchange();
  PendingExchange(const PendingExchange&) = delete;
  PendingExchange& operator=(const PendingExchange&) = delete;
  void post(const unsigned char* send, const std::vector<std::size_t>& send_off, unsigned char* recv,
            const std::vector<std::size_t>& recv_off);
  void wait();
  // Lets MPI move the messages on (MPI_Testall) between pieces of work: without it a large message
  // (rendezvous) waits for both sides to reach wait().
  void progress();

 private:
  struct Requests;
  std::unique_ptr<Requests> req_;
};

}  // namespace ejecta::dist
