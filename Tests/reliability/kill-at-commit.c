/* kill-at-commit.c: preloaded into authdeck by two reliability checks (Tests/reliability/run).
 *
 * Kills the process with SIGKILL after a refresh-token request went out, when a strict one-use
 * provider has spent the old refresh token and answered:
 *   KILL_AT=commit (the default): at its first write to the store's write-ahead log — the
 *     commit, after the whole result was written ahead into the rescue file;
 *   KILL_AT=answer: right after its first write into the rescue file — the new refresh token
 *     kept as the answer was read, before the answer is checked and the result written ahead.
 * The code under test is authdeck's own; only the moment of the kill is chosen, by watching
 * system calls. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static volatile int armed;

static void watch_request(const void *buf, size_t n) {
    if (buf && memmem(buf, n, "grant_type=refresh_token", 24)) armed = 1;
}

/* Whether fd's path ends with `suffix` or holds `part` (either may be NULL). */
static int path_is(int fd, const char *suffix, const char *part) {
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t k = readlink(link, path, sizeof path - 1);
    if (k < 1) return 0;
    path[k] = 0;
    if (suffix) return (size_t)k >= strlen(suffix) && strcmp(path + k - strlen(suffix), suffix) == 0;
    return strstr(path, part) != NULL;
}

static int at_answer(void) {
    const char *at = getenv("KILL_AT");
    return at && strcmp(at, "answer") == 0;
}

/* Before a write: the commit's first log write ends the process (KILL_AT=commit). */
static void maybe_die(int fd) {
    if (armed && !at_answer() && path_is(fd, "-wal", NULL)) kill(getpid(), SIGKILL);
}

/* After a write: the first write into a rescue file ends the process (KILL_AT=answer). */
static void maybe_die_after(int fd) {
    if (armed && at_answer() && path_is(fd, NULL, ".rescue-")) kill(getpid(), SIGKILL);
}

typedef ssize_t (*send_f)(int, const void *, size_t, int);
typedef ssize_t (*sendto_f)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
typedef ssize_t (*sendmsg_f)(int, const struct msghdr *, int);
typedef ssize_t (*write_f)(int, const void *, size_t);
typedef ssize_t (*pwrite_f)(int, const void *, size_t, off_t);
#define REAL(name, type) static type real_##name; if (!real_##name) real_##name = (type)dlsym(RTLD_NEXT, #name)

ssize_t send(int fd, const void *buf, size_t n, int flags) {
    REAL(send, send_f);
    watch_request(buf, n);
    return real_send(fd, buf, n, flags);
}

ssize_t sendto(int fd, const void *buf, size_t n, int flags, const struct sockaddr *to, socklen_t len) {
    REAL(sendto, sendto_f);
    watch_request(buf, n);
    return real_sendto(fd, buf, n, flags, to, len);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags) {
    REAL(sendmsg, sendmsg_f);
    for (size_t i = 0; msg && i < msg->msg_iovlen; i++) watch_request(msg->msg_iov[i].iov_base, msg->msg_iov[i].iov_len);
    return real_sendmsg(fd, msg, flags);
}

ssize_t write(int fd, const void *buf, size_t n) {
    REAL(write, write_f);
    watch_request(buf, n);
    maybe_die(fd);
    return real_write(fd, buf, n);
}

/* A positioned write through `real`, with the kill before or after it. */
static ssize_t watched_pwrite(pwrite_f real, int fd, const void *buf, size_t n, off_t off) {
    maybe_die(fd);
    ssize_t written = real(fd, buf, n, off);
    maybe_die_after(fd);
    return written;
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) {
    REAL(pwrite, pwrite_f);
    return watched_pwrite(real_pwrite, fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) {
    REAL(pwrite64, pwrite_f);
    return watched_pwrite(real_pwrite64, fd, buf, n, off);
}
