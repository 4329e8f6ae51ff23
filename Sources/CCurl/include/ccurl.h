/* Typed, dlopen-backed access to libcurl for Swift.
 *
 * Why: curl_easy_setopt/getinfo are variadic (Swift cannot call them), and linking
 * libcurl pulls ~30 shared libraries into every process start (~10 ms). authdeck loads
 * libcurl only in commands that use the network, through ad_curl_load().
 * The constants come from the real <curl/curl.h>, so the ABI is the system's.
 */
#ifndef AUTHDECK_CCURL_H
#define AUTHDECK_CCURL_H
#include <stddef.h>
#include <curl/curl.h>

typedef size_t (*ad_curl_data_fn)(char *ptr, size_t size, size_t nmemb, void *userdata);
typedef int (*ad_curl_xferinfo_fn)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                   curl_off_t ultotal, curl_off_t ulnow);

/* Loads libcurl.so.4 once (thread-safe). Returns 0, or -1 with a message in err. */
int ad_curl_load(char *err, size_t errlen);
/* Begins that load on a thread of its own and returns at once (idempotent); ad_curl_load then
   waits for it. For a process that will almost surely use the network (see CurlLibrary). */
void ad_curl_preload(void);

void *ad_curl_easy_init(void);
void ad_curl_easy_cleanup(void *handle);
int ad_curl_easy_perform(void *handle);
const char *ad_curl_easy_strerror(int code);

int ad_curl_setopt_long(void *handle, int option, long value);
int ad_curl_setopt_offt(void *handle, int option, curl_off_t value);
int ad_curl_setopt_string(void *handle, int option, const char *value);
int ad_curl_setopt_pointer(void *handle, int option, void *value);
int ad_curl_setopt_data_fn(void *handle, int option, ad_curl_data_fn fn);
int ad_curl_setopt_xferinfo_fn(void *handle, ad_curl_xferinfo_fn fn);
/* A blob option (CURLOPT_SSLCERT_BLOB, CURLOPT_SSLKEY_BLOB): libcurl copies the bytes, so
   certificates and keys are passed from memory, never through a temporary file. */
int ad_curl_setopt_blob(void *handle, int option, const void *data, size_t len);

/* The detailed message of the last failure (CURLOPT_ERRORBUFFER, set by ad_curl_easy_init). */
int ad_curl_errorbuffer(void *handle, const char **out);

int ad_curl_getinfo_long(void *handle, int info, long *out);
int ad_curl_getinfo_string(void *handle, int info, const char **out);
int ad_curl_getinfo_slist(void *handle, int info, struct curl_slist **out);

struct curl_slist *ad_curl_slist_append(struct curl_slist *list, const char *value);
void ad_curl_slist_free_all(struct curl_slist *list);

/* Version string of the loaded library (for `authdeck status`). */
const char *ad_curl_version(void);
#endif
