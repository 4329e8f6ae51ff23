#include "ccurl.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    char *(*version)(void);
} fn;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded = 0;

#define RESOLVE(field, name)                                                        \
    do {                                                                            \
        *(void **)(&fn.field) = dlsym(lib, name);                                   \
        if (!fn.field) {                                                            \
            snprintf(load_error, sizeof load_error, "libcurl lacks symbol %s", name); \
            return;                                                                 \
        }                                                                           \
    } while (0)

static void load_once(void) {
    const char *names[] = {"libcurl.so.4", "libcurl.so", "libcurl-gnutls.so.4", NULL};
    void *lib = NULL;
    for (int i = 0; names[i] && !lib; i++) lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error,
                 "cannot load libcurl (install libcurl4): %s", why ? why : "not found");
        return;
    }
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_perform, "curl_easy_perform");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    RESOLVE(version, "curl_version");
    if (fn.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "curl_global_init failed");
        return;
    }
    loaded = 1;
}

int ad_curl_load(char *err, size_t errlen) {
    pthread_once(&once, load_once);
    if (loaded) return 0;
    if (err && errlen) snprintf(err, errlen, "%s", load_error);
    return -1;
}

/* The load, begun on a thread of its own while the caller does other work (the front hands over
   a renewal: authdeck-full's start-up, store and lease overlap libcurl's ~10 ms of loading).
   State under preload_lock: 0 not begun, 1 the thread loads, 2 the process is exiting first. */
static pthread_mutex_t preload_lock = PTHREAD_MUTEX_INITIALIZER;
static int preload_state = 0;

static void *preload_main(void *unused) {
    (void)unused;
    pthread_mutex_lock(&preload_lock);
    int go = preload_state == 0;
    if (go) preload_state = 1;
    pthread_mutex_unlock(&preload_lock);
    if (go) pthread_once(&once, load_once);
    return NULL;
}

/* At exit: waits for a load under way (exit's own unloading must not meet a dlopen and
   curl_global_init half done) and stops one not yet begun. */
static void preload_settle(void) {
    pthread_mutex_lock(&preload_lock);
    int running = preload_state == 1;
    if (!running) preload_state = 2;
    pthread_mutex_unlock(&preload_lock);
    if (running) pthread_once(&once, load_once);
}

static void ad_curl_preload_begin(void) {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    /* Registered first: a thread that exists is always waited for. A thread that cannot be
       made costs nothing; the first request loads the library itself. */
    if (atexit(preload_settle) == 0) (void)pthread_create(&thread, &attr, preload_main, NULL);
    pthread_attr_destroy(&attr);
}

void ad_curl_preload(void) {
    static pthread_once_t started = PTHREAD_ONCE_INIT;
    pthread_once(&started, ad_curl_preload_begin);
}

/* The error buffer of the thread's current handle: authdeck performs one transfer per
   handle on one worker thread at a time, so a thread-local buffer is enough. */
struct handle_buffer { void *handle; char text[CURL_ERROR_SIZE]; };
static __thread struct handle_buffer errbuf;

void *ad_curl_easy_init(void) {
    if (!loaded) return NULL;
    CURL *h = fn.easy_init();
    if (h) {
        errbuf.handle = h;
        errbuf.text[0] = 0;
        fn.easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf.text);
    }
    return h;
}

int ad_curl_errorbuffer(void *h, const char **out) {
    if (errbuf.handle != h) return -1;
    *out = errbuf.text;
    return 0;
}

void ad_curl_easy_cleanup(void *h) {
    if (loaded && h) fn.easy_cleanup(h);
    if (errbuf.handle == h) errbuf.handle = NULL;
}
int ad_curl_easy_perform(void *h) { return (int)fn.easy_perform(h); }
const char *ad_curl_easy_strerror(int code) {
    return loaded ? fn.easy_strerror((CURLcode)code) : "libcurl not loaded";
}

int ad_curl_setopt_long(void *h, int o, long v) { return (int)fn.easy_setopt(h, (CURLoption)o, v); }
int ad_curl_setopt_offt(void *h, int o, curl_off_t v) { return (int)fn.easy_setopt(h, (CURLoption)o, v); }
int ad_curl_setopt_string(void *h, int o, const char *v) { return (int)fn.easy_setopt(h, (CURLoption)o, v); }
int ad_curl_setopt_pointer(void *h, int o, void *v) { return (int)fn.easy_setopt(h, (CURLoption)o, v); }
int ad_curl_setopt_data_fn(void *h, int o, ad_curl_data_fn f) { return (int)fn.easy_setopt(h, (CURLoption)o, f); }
int ad_curl_setopt_xferinfo_fn(void *h, ad_curl_xferinfo_fn f) {
    return (int)fn.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f);
}

int ad_curl_setopt_blob(void *h, int o, const void *data, size_t len) {
    struct curl_blob blob = {(void *)data, len, CURL_BLOB_COPY};
    return (int)fn.easy_setopt(h, (CURLoption)o, &blob);
}

int ad_curl_getinfo_long(void *h, int i, long *out) { return (int)fn.easy_getinfo(h, (CURLINFO)i, out); }
int ad_curl_getinfo_string(void *h, int i, const char **out) {
    char *p = NULL;
    int rc = (int)fn.easy_getinfo(h, (CURLINFO)i, &p);
    *out = p;
    return rc;
}
int ad_curl_getinfo_slist(void *h, int i, struct curl_slist **out) {
    return (int)fn.easy_getinfo(h, (CURLINFO)i, out);
}

struct curl_slist *ad_curl_slist_append(struct curl_slist *l, const char *v) { return fn.slist_append(l, v); }
void ad_curl_slist_free_all(struct curl_slist *l) { if (l) fn.slist_free_all(l); }
const char *ad_curl_version(void) { return loaded ? fn.version() : "not loaded"; }
