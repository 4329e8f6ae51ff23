#include "csecret.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The parts of GLib and libsecret this file uses, as their headers define them. */
typedef struct _GHashTable GHashTable;
typedef unsigned int (*GHashFunc)(const void *key);
typedef int (*GEqualFunc)(const void *a, const void *b);
typedef struct { unsigned int domain; int code; char *message; } GError;
typedef struct { const char *name; int type; } SecretSchemaAttribute;
typedef struct {
    const char *name;
    int flags;
    SecretSchemaAttribute attributes[32];
    int reserved;
    void *reserved1, *reserved2, *reserved3, *reserved4, *reserved5, *reserved6, *reserved7;
} SecretSchema;

static struct {
    GHashTable *(*hash_table_new)(GHashFunc, GEqualFunc);
    int (*hash_table_insert)(GHashTable *, void *, void *);
    void (*hash_table_unref)(GHashTable *);
    unsigned int (*str_hash)(const void *);
    int (*str_equal)(const void *, const void *);
    void (*error_free)(GError *);
    int (*storev)(const SecretSchema *, GHashTable *, const char *, const char *, const char *, void *, GError **);
    char *(*lookupv)(const SecretSchema *, GHashTable *, void *, GError **);
    int (*clearv)(const SecretSchema *, GHashTable *, void *, GError **);
    void (*password_free)(char *);
} fn;

/* SECRET_SCHEMA_NONE = 0, SECRET_SCHEMA_ATTRIBUTE_STRING = 0. */
static const SecretSchema schema = {
    "io.authdeck.DataKey", 0, {{"store", 0}, {NULL, 0}}, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded = 0;

#define RESOLVE(field, name)                                                           \
    do {                                                                               \
        *(void **)(&fn.field) = dlsym(lib, name);                                      \
        if (!fn.field) {                                                               \
            snprintf(load_error, sizeof load_error, "libsecret lacks symbol %s", name); \
            return;                                                                    \
        }                                                                              \
    } while (0)

static void load_once(void) {
    void *lib = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error,
                 "cannot load libsecret (install libsecret-1-0): %s", why ? why : "not found");
        return;
    }
    /* dlsym on the handle also searches its dependencies, GLib among them. */
    RESOLVE(hash_table_new, "g_hash_table_new");
    RESOLVE(hash_table_insert, "g_hash_table_insert");
    RESOLVE(hash_table_unref, "g_hash_table_unref");
    RESOLVE(str_hash, "g_str_hash");
    RESOLVE(str_equal, "g_str_equal");
    RESOLVE(error_free, "g_error_free");
    RESOLVE(storev, "secret_password_storev_sync");
    RESOLVE(lookupv, "secret_password_lookupv_sync");
    RESOLVE(clearv, "secret_password_clearv_sync");
    RESOLVE(password_free, "secret_password_free");
    loaded = 1;
}

int ad_secret_load(char *err, size_t errlen) {
    pthread_once(&once, load_once);
    if (loaded) return 0;
    if (err && errlen) snprintf(err, errlen, "%s", load_error);
    return -1;
}

static GHashTable *attributes(const char *store_id) {
    GHashTable *table = fn.hash_table_new((GHashFunc)fn.str_hash, (GEqualFunc)fn.str_equal);
    fn.hash_table_insert(table, (void *)"store", (void *)store_id);
    return table;
}

static int fail(GError *error, const char *what, char *err, size_t errlen) {
    if (err && errlen) snprintf(err, errlen, "%s: %s", what, error && error->message ? error->message : "unknown error");
    if (error) fn.error_free(error);
    return -1;
}

int ad_secret_store(const char *store_id, const char *label, const char *secret, char *err, size_t errlen) {
    if (ad_secret_load(err, errlen) != 0) return -1;
    GError *error = NULL;
    GHashTable *table = attributes(store_id);
    int ok = fn.storev(&schema, table, NULL, label, secret, NULL, &error);
    fn.hash_table_unref(table);
    return ok ? 0 : fail(error, "cannot store the key", err, errlen);
}

int ad_secret_lookup(const char *store_id, char **out, char *err, size_t errlen) {
    if (ad_secret_load(err, errlen) != 0) return -1;
    GError *error = NULL;
    GHashTable *table = attributes(store_id);
    char *value = fn.lookupv(&schema, table, NULL, &error);
    fn.hash_table_unref(table);
    if (error) return fail(error, "cannot read the key", err, errlen);
    if (!value) return 0;
    *out = value;
    return 1;
}

int ad_secret_clear(const char *store_id, char *err, size_t errlen) {
    if (ad_secret_load(err, errlen) != 0) return -1;
    GError *error = NULL;
    GHashTable *table = attributes(store_id);
    int removed = fn.clearv(&schema, table, NULL, &error);
    fn.hash_table_unref(table);
    if (error) return fail(error, "cannot remove the key", err, errlen);
    return removed ? 1 : 0;
}

int ad_secret_lookup_application(const char *application, char **out, char *err, size_t errlen) {
    if (ad_secret_load(err, errlen) != 0) return -1;
    /* Chromium's schema: SECRET_SCHEMA_DONT_MATCH_NAME (1 << 1), so the item is found by its
       "application" attribute whatever schema name wrote it (v1 or v2). */
    static const SecretSchema browser = {
        "chrome_libsecret_os_crypt_password_v2", 1 << 1, {{"application", 0}, {NULL, 0}}, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
    };
    GError *error = NULL;
    GHashTable *table = fn.hash_table_new((GHashFunc)fn.str_hash, (GEqualFunc)fn.str_equal);
    fn.hash_table_insert(table, (void *)"application", (void *)application);
    char *value = fn.lookupv(&browser, table, NULL, &error);
    fn.hash_table_unref(table);
    if (error) return fail(error, "cannot read the browser's key", err, errlen);
    if (!value) return 0;
    *out = value;
    return 1;
}

void ad_secret_free(char *secret) {
    if (!secret) return;
    /* secret_password_free wipes the memory before freeing it. */
    fn.password_free(secret);
}
