// close-check.c: preloaded into the Swift tests' process by swift-tests.sh, it reports every close() of a descriptor
// that was not open there (the kernel answers EBADF): a double close whose number nobody held again, which is how
// most show. A second close is harmless only while nobody holds the number again; in a process of many threads
// (SwiftNIO's servers, URLSession, GLib) it closes another's descriptor, and SwiftNIO traps when that number comes
// back ("NIOPosix/SelectorGeneric.swift:320: Assertion failed", seen in CI from a test helper's failed connect). The
// close that lands on a reused number goes unseen here, but the same bug's other closes do not: this sees it most
// runs, not once in many.
//
// Only the test process itself is checked (its executable ends in ".xctest", and a child it forks is not it); the
// programs the tests start do not inherit the preload (it takes itself out of the test process's environment). Each
// report, the descriptor and the stack, is appended to the file B2C_TASKS_CLOSE_CHECK_LOG names; swift-tests.sh fails
// the run when that file is not empty, and names each frame.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int (*real_close)(int);
static pid_t checked_process;
static char log_path[4096];

static int pass_through(int descriptor) {
  if (real_close == NULL) real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
  return real_close(descriptor);
}

// Armed in the test process only; there it writes LOG.armed, which swift-tests.sh asks for (a run the check never
// watched does not pass for one it watched).
__attribute__((constructor)) static void start(void) {
  const char *log = getenv("B2C_TASKS_CLOSE_CHECK_LOG");
  char executable[4096];
  ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
  if (log == NULL || length < 7) return;
  executable[length] = 0;
  if (strcmp(executable + length - 7, ".xctest") != 0) return;
  snprintf(log_path, sizeof log_path, "%s", log);
  checked_process = getpid();
  unsetenv("LD_PRELOAD");  // the programs the tests start run as they would anywhere
  char armed[4200];
  snprintf(armed, sizeof armed, "%s.armed", log_path);
  int marker = open(armed, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (marker >= 0) pass_through(marker);
}

// Libraries' constructors that run before this one's may close descriptors already: the real close is looked up
// on first use.
int close(int descriptor) {
  int result = pass_through(descriptor);
  if (result == -1 && errno == EBADF && descriptor >= 0 && checked_process != 0 && getpid() == checked_process) {
    int saved = errno;
    int log = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (log >= 0) {
      char head[96];
      int count = snprintf(head, sizeof head, "== close(%d): not open (thread %ld)\n", descriptor,
                           (long)syscall(SYS_gettid));
      if (write(log, head, (size_t)count) < 0) { /* nothing more to do */ }
      void *frames[48];
      backtrace_symbols_fd(frames, backtrace(frames, 48), log);
      pass_through(log);
    }
    errno = saved;
  }
  return result;
}
