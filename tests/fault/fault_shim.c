// Fault injection for the recording tests (LD_PRELOAD; never linked into Ejecta). It watches the
// files whose path contains $EJECTA_FAULT_MATCH (default ".h5") and, on their writes (a "write" is
// a pwrite, a write or an ftruncate: a kill between a truncate and the next write is a state the
// disk can be left in, too):
//   EJECTA_FAULT_KILL_AFTER_WRITES=N  raises SIGKILL right after the N-th write (pwrite, write) to
//                                     such a file: a kill -9 at an exact point of the write sequence;
//   EJECTA_FAULT_DISK_BYTES=B         behaves like a disk with room for B bytes of such files: a
//                                     write or fallocate reaching past offset B fails with ENOSPC
//                                     (a write that crosses B is cut short there, like a real disk);
//   EJECTA_FAULT_TEAR=1               with KILL_AFTER_WRITES: when the N-th write spans pages, it stores
//                                     only the bytes up to its first page boundary before the kill, as
//                                     Linux may when SIGKILL lands inside it (a torn write; a write
//                                     within one page is copied whole);
//   EJECTA_FAULT_NO_FALLOCATE=1       fallocate fails with EOPNOTSUPP (file systems without it);
//   EJECTA_FAULT_REPORT=PATH          writes the number of watched writes to PATH at exit.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_FD 4096
static char watched[MAX_FD];
static long writes;
static long kill_after = -1;
static long long disk_bytes = -1;
static int no_fallocate;
static int tear;
static const char* match = ".h5";
static const char* report;

__attribute__((constructor)) static void init(void) {
  const char* s;
  if ((s = getenv("EJECTA_FAULT_KILL_AFTER_WRITES")) && *s) kill_after = atol(s);
  if ((s = getenv("EJECTA_FAULT_DISK_BYTES")) && *s) disk_bytes = atoll(s);
  if ((s = getenv("EJECTA_FAULT_NO_FALLOCATE")) && *s) no_fallocate = atoi(s);
  if ((s = getenv("EJECTA_FAULT_TEAR")) && *s) tear = atoi(s);
  if ((s = getenv("EJECTA_FAULT_MATCH")) && *s) match = s;
  report = getenv("EJECTA_FAULT_REPORT");
}

__attribute__((destructor)) static void fini(void) {
  if (!report || !*report) return;
  FILE* f = fopen(report, "w");
  if (f) {
    fprintf(f, "%ld\n", writes);
    fclose(f);
  }
}

static void* real(const char* name) { return dlsym(RTLD_NEXT, name); }

static int watch(int fd, const char* path) {
  if (fd >= 0 && fd < MAX_FD) watched[fd] = path && strstr(path, match) != NULL;
  return fd;
}

static int is_watched(int fd) { return fd >= 0 && fd < MAX_FD && watched[fd]; }

static mode_t mode_of(int flags, va_list ap) { return (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0; }

int open(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t m = mode_of(flags, ap);
  va_end(ap);
  static int (*f)(const char*, int, ...);
  if (!f) f = real("open");
  return watch(f(path, flags, m), path);
}

int open64(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t m = mode_of(flags, ap);
  va_end(ap);
  static int (*f)(const char*, int, ...);
  if (!f) f = real("open64");
  return watch(f(path, flags, m), path);
}

int close(int fd) {
  static int (*f)(int);
  if (!f) f = real("close");
  if (fd >= 0 && fd < MAX_FD) watched[fd] = 0;
  return f(fd);
}

// How many of `len` bytes at `off` fit on the simulated disk; -1 with ENOSPC when none.
static long long room(long long off, long long len) {
  if (disk_bytes < 0 || off + len <= disk_bytes) return len;
  if (off >= disk_bytes) {
    errno = ENOSPC;
    return -1;
  }
  return disk_bytes - off;
}

// The byte count a watched write of n bytes at off stores: all of them, or up to the first page
// boundary when it is the torn one.
static long long stored(long long n, long long off) {
  const long long page = 4096, boundary = (off / page + 1) * page;
  if (tear && kill_after > 0 && writes + 1 >= kill_after && off + n > boundary) return boundary - off;
  return n;
}

static void after_write(void) {
  ++writes;
  if (kill_after > 0 && writes >= kill_after) {
    fini();
    kill(getpid(), SIGKILL);
  }
}

static ssize_t do_pwrite(const char* name, int fd, const void* buf, size_t len, off_t off) {
  static ssize_t (*f)(int, const void*, size_t, off_t);
  if (!f) f = real(name);
  if (!is_watched(fd)) return f(fd, buf, len, off);
  const long long n = room(off, (long long)len);
  if (n < 0) return -1;
  const ssize_t r = f(fd, buf, (size_t)stored(n, off), off);
  after_write();
  return r;
}

ssize_t pwrite(int fd, const void* buf, size_t len, off_t off) { return do_pwrite("pwrite", fd, buf, len, off); }
ssize_t pwrite64(int fd, const void* buf, size_t len, off_t off) { return do_pwrite("pwrite64", fd, buf, len, off); }

ssize_t write(int fd, const void* buf, size_t len) {
  static ssize_t (*f)(int, const void*, size_t);
  if (!f) f = real("write");
  if (!is_watched(fd)) return f(fd, buf, len);
  const long long pos = lseek(fd, 0, SEEK_CUR);
  const long long n = room(pos, (long long)len);
  if (n < 0) return -1;
  const ssize_t r = f(fd, buf, (size_t)stored(n, pos));
  after_write();
  return r;
}

static int do_fallocate(const char* name, int fd, int mode, off_t off, off_t len) {
  static int (*f)(int, int, off_t, off_t);
  if (!f) f = real(name);
  if (is_watched(fd)) {
    if (no_fallocate) {
      errno = EOPNOTSUPP;
      return -1;
    }
    if (disk_bytes >= 0 && off + len > disk_bytes) {
      errno = ENOSPC;
      return -1;
    }
  }
  return f(fd, mode, off, len);
}

static int do_ftruncate(const char* name, int fd, off_t len) {
  static int (*f)(int, off_t);
  if (!f) f = real(name);
  if (!is_watched(fd)) return f(fd, len);
  // A full disk does not fail an extension (it makes a hole; the writes into it fail later).
  const int r = f(fd, len);
  after_write();
  return r;
}

int ftruncate(int fd, off_t len) { return do_ftruncate("ftruncate", fd, len); }
int ftruncate64(int fd, off_t len) { return do_ftruncate("ftruncate64", fd, len); }

int fallocate(int fd, int mode, off_t off, off_t len) { return do_fallocate("fallocate", fd, mode, off, len); }
int fallocate64(int fd, int mode, off_t off, off_t len) { return do_fallocate("fallocate64", fd, mode, off, len); }
