/* Checks a client certificate for mutual TLS the way libcurl's OpenSSL will read it.
 *
 * Why: a bundle that cannot be opened (wrong password, key of another certificate) would
 * otherwise be stored silently and fail only at request time, worded as a server refusal. libcrypto
 * is dlopen()ed like libcurl (it is the library libcurl itself uses), so nothing new is linked.
 */
#ifndef AUTHDECK_IDENTITY_H
#define AUTHDECK_IDENTITY_H
#include <stddef.h>

enum {
    AD_IDENTITY_OK = 0,
    AD_IDENTITY_UNAVAILABLE,      /* libcrypto could not be loaded */
    AD_IDENTITY_NOT_PKCS12,       /* the bytes are not a PKCS#12 (PFX) structure */
    AD_IDENTITY_BAD_PASSWORD,     /* the password does not open the bundle (MAC check) */
    AD_IDENTITY_UNREADABLE,       /* PKCS#12 opened by the MAC but its contents did not parse */
    AD_IDENTITY_NO_CERTIFICATE,
    AD_IDENTITY_NO_KEY,
    AD_IDENTITY_KEY_MISMATCH,     /* the private key is not the certificate's */
    AD_IDENTITY_NO_EXPIRY         /* the certificate's notAfter could not be read */
};

typedef struct {
    long long not_before;   /* seconds since the epoch, UTC */
    long long not_after;
    char detail[256];       /* libcrypto's own reason, or the loader's message */
} ad_identity_report;

/* A DER PKCS#12 bundle; password NULL when it has none. Returns an AD_IDENTITY_ code. */
int ad_identity_check_pkcs12(const void *der, size_t length, const char *password, ad_identity_report *out);
/* A PEM certificate and a PEM private key (unencrypted). Returns an AD_IDENTITY_ code. */
int ad_identity_check_pem(const char *certificate, size_t certificate_length, const char *key, size_t key_length,
                          ad_identity_report *out);
#endif
