/*
 * A slower disk for the bench (`npm run bench -- --sync-ms=N`): LD_PRELOAD'ed into the hub and the
 * floor, every fsync()/fdatasync() takes N ms longer than this machine's disk takes, in whichever
 * thread calls it — what a mini-PC's eMMC or SD card costs per flush (1 to 10 ms and more), where
 * this machine's virtual disk answers in 0.1 ms. The data is really synced (the real call runs
 * first); only the wait is added.
 *
 * Build (scripts/bench.ts does it): cc -shared -fPIC -O2 -o slow-sync.so slow-sync.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static int (*real_fsync)(int);
static int (*real_fdatasync)(int);

static void wait_more(void) {
  const char *us = getenv("SLOW_SYNC_US");
  long n = us ? atol(us) : 0;
  if (n <= 0) return;
  struct timespec t = { n / 1000000, (n % 1000000) * 1000 };
  while (nanosleep(&t, &t) != 0) {
  }
}

int fsync(int fd) {
  if (!real_fsync) real_fsync = dlsym(RTLD_NEXT, "fsync");
  int rc = real_fsync(fd);
  wait_more();
  return rc;
}

int fdatasync(int fd) {
  if (!real_fdatasync) real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
  int rc = real_fdatasync(fd);
  wait_more();
  return rc;
}
