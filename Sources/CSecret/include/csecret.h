/* The Secret Service (libsecret), loaded with dlopen() when a store uses it.
 *
 * Why dlopen and our own declarations: most authdeck users have no keyring (SSH boxes,
 * containers), so neither building nor running authdeck may need libsecret or the GLib
 * headers. The few GLib/libsecret types used here are ABI-stable since libsecret 0.18.
 * Every call is synchronous and blocks on D-Bus; each takes the store's id as the one
 * attribute that finds the item.
 */
#ifndef AUTHDECK_CSECRET_H
#define AUTHDECK_CSECRET_H
#include <stddef.h>

/* Loads libsecret-1.so.0 once (thread-safe). 0, or -1 with a message in err. */
int ad_secret_load(char *err, size_t errlen);

/* Stores `secret` (NUL-terminated text) under store_id in the default collection.
   0, or -1 with the Secret Service's message in err. */
int ad_secret_store(const char *store_id, const char *label, const char *secret, char *err, size_t errlen);

/* Looks the item up. 1 and *out set (free with ad_secret_free), 0 when there is none,
   -1 with a message in err. */
int ad_secret_lookup(const char *store_id, char **out, char *err, size_t errlen);

/* Removes the item. 1 removed, 0 there was none, -1 with a message. */
int ad_secret_clear(const char *store_id, char *err, size_t errlen);

/* Looks up a Chromium-family browser's "Safe Storage" password, the item Chromium stores with
   the attribute application = `application` ("chromium", "chrome"). Returns as ad_secret_lookup. */
int ad_secret_lookup_application(const char *application, char **out, char *err, size_t errlen);

/* Wipes and frees a secret returned by ad_secret_lookup. */
void ad_secret_free(char *secret);
#endif
