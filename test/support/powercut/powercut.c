/*
 * A power cut for tests: LD_PRELOAD'ed into the hub, this keeps, for every file under
 * $POWERCUT_DIR, a copy of its content as of its last fsync()/fdatasync() in $POWERCUT_SHADOW.
 * After the hub is killed, the test rebuilds the data directory from those copies alone: what a
 * machine whose page cache is lost holds after the power goes (every write not followed by a sync
 * of its file is gone; a file never synced does not exist). LazyFS does the same as a FUSE file
 * system; this needs no FUSE mount.
 *
 * Build: cc -shared -fPIC -O2 -o libpowercut.so powercut.c -ldl -lpthread
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_unlink)(const char *);
static int (*real_unlinkat)(int, const char *, int);

/* The shadow copy of `path`, if it is a file of the data directory: its name in `out`. */
static int shadow_of(const char *path, char *out, size_t size) {
  const char *dir = getenv("POWERCUT_DIR");
  const char *shadow = getenv("POWERCUT_SHADOW");
  if (!dir || !shadow) return 0;
  size_t dl = strlen(dir);
  if (strncmp(path, dir, dl) != 0 || path[dl] != '/' || strchr(path + dl + 1, '/')) return 0;
  snprintf(out, size, "%s/%s", shadow, path + dl + 1);
  return 1;
}

/*
 * A deleted file leaves the shadow at once (optimistic: a real disk may keep it until its directory
 * is synced). SQLite deletes the rollback journal that made the database a WAL database: a stale
 * copy of it left behind would be "hot" and roll the database back.
 */
static void forget(const char *path) {
  char target[PATH_MAX];
  if (!path || path[0] != '/' || !shadow_of(path, target, sizeof target)) return;
  pthread_mutex_lock(&lock);
  remove(target);
  pthread_mutex_unlock(&lock);
}

int unlink(const char *path) {
  if (!real_unlink) real_unlink = dlsym(RTLD_NEXT, "unlink");
  int rc = real_unlink(path);
  if (rc == 0) forget(path);
  return rc;
}

int unlinkat(int dirfd, const char *path, int flags) {
  if (!real_unlinkat) real_unlinkat = dlsym(RTLD_NEXT, "unlinkat");
  int rc = real_unlinkat(dirfd, path, flags);
  if (rc == 0 && dirfd == AT_FDCWD) forget(path);
  return rc;
}

/* Copies the file open as `fd` (whole, as it is now) to the shadow tree, by write + rename. */
static void keep(int fd) {
  const char *dir = getenv("POWERCUT_DIR");
  const char *shadow = getenv("POWERCUT_SHADOW");
  if (!dir || !shadow) return;
  char link[64], path[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0) return;
  path[n] = 0;
  size_t dl = strlen(dir);
  if (strncmp(path, dir, dl) != 0 || path[dl] != '/') return;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return;
  const char *rel = path + dl + 1;
  if (strchr(rel, '/')) return; /* the data directory's own files only (not backups/) */
  char target[PATH_MAX], tmp[PATH_MAX];
  snprintf(target, sizeof target, "%s/%s", shadow, rel);
  snprintf(tmp, sizeof tmp, "%s/.%s.tmp", shadow, rel);
  int src = open(path, O_RDONLY);
  if (src < 0) return;
  int dst = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (dst < 0) {
    close(src);
    return;
  }
  char buf[1 << 16];
  ssize_t r;
  while ((r = read(src, buf, sizeof buf)) > 0) {
    ssize_t off = 0;
    while (off < r) {
      ssize_t w = write(dst, buf + off, r - off);
      if (w <= 0) break;
      off += w;
    }
  }
  close(src);
  close(dst);
  rename(tmp, target);
}

int fsync(int fd) {
  if (!real_fsync) real_fsync = dlsym(RTLD_NEXT, "fsync");
  /* The copy is taken before the sync: it holds only bytes written before the sync began, all of
     which the sync makes durable (a lower bound of what the disk keeps). */
  pthread_mutex_lock(&lock);
  keep(fd);
  pthread_mutex_unlock(&lock);
  return real_fsync(fd);
}

int fdatasync(int fd) {
  if (!real_fdatasync) real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
  /* The copy is taken before the sync: it holds only bytes written before the sync began, all of
     which the sync makes durable (a lower bound of what the disk keeps). */
  pthread_mutex_lock(&lock);
  keep(fd);
  pthread_mutex_unlock(&lock);
  return real_fdatasync(fd);
}
