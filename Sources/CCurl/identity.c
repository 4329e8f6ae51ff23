#include "identity.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* libcrypto's types stay opaque: only pointers cross this file, so no OpenSSL headers are needed. */
typedef void BIO, PKCS12, X509, EVP_PKEY, ASN1_TIME, STACK;

static struct {
    BIO *(*bio_new_mem_buf)(const void *, int);
    int (*bio_free)(BIO *);
    PKCS12 *(*d2i_pkcs12_bio)(BIO *, PKCS12 **);
    int (*pkcs12_mac_present)(const PKCS12 *);
    int (*pkcs12_verify_mac)(PKCS12 *, const char *, int);
    int (*pkcs12_parse)(PKCS12 *, const char *, EVP_PKEY **, X509 **, STACK **);
    void (*pkcs12_free)(PKCS12 *);
    X509 *(*pem_read_bio_x509)(BIO *, X509 **, void *, void *);
    EVP_PKEY *(*pem_read_bio_privatekey)(BIO *, EVP_PKEY **, void *, void *);
    int (*x509_check_private_key)(const X509 *, const EVP_PKEY *);
    const ASN1_TIME *(*x509_get0_notbefore)(const X509 *);
    const ASN1_TIME *(*x509_get0_notafter)(const X509 *);
    int (*asn1_time_to_tm)(const ASN1_TIME *, struct tm *);
    void (*x509_free)(X509 *);
    void (*evp_pkey_free)(EVP_PKEY *);
    void (*sk_pop_free)(STACK *, void (*)(void *));
    unsigned long (*err_get_error)(void);
    void (*err_error_string_n)(unsigned long, char *, size_t);
    void (*err_clear_error)(void);
} fn;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[200];
static int loaded = 0;

#define RESOLVE(field, name)                                                          \
    do {                                                                              \
        *(void **)(&fn.field) = dlsym(lib, name);                                     \
        if (!fn.field) {                                                              \
            snprintf(load_error, sizeof load_error, "libcrypto lacks symbol %s", name); \
            return;                                                                   \
        }                                                                             \
    } while (0)

static void load_once(void) {
    const char *names[] = {"libcrypto.so.3", "libcrypto.so.1.1", "libcrypto.so", NULL};
    void *lib = NULL;
    for (int i = 0; names[i] && !lib; i++) lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error, "cannot load libcrypto (install libssl3) to check the certificate");
        return;
    }
    RESOLVE(bio_new_mem_buf, "BIO_new_mem_buf");
    RESOLVE(bio_free, "BIO_free");
    RESOLVE(d2i_pkcs12_bio, "d2i_PKCS12_bio");
    RESOLVE(pkcs12_mac_present, "PKCS12_mac_present");
    RESOLVE(pkcs12_verify_mac, "PKCS12_verify_mac");
    RESOLVE(pkcs12_parse, "PKCS12_parse");
    RESOLVE(pkcs12_free, "PKCS12_free");
    RESOLVE(pem_read_bio_x509, "PEM_read_bio_X509");
    RESOLVE(pem_read_bio_privatekey, "PEM_read_bio_PrivateKey");
    RESOLVE(x509_check_private_key, "X509_check_private_key");
    RESOLVE(x509_get0_notbefore, "X509_get0_notBefore");
    RESOLVE(x509_get0_notafter, "X509_get0_notAfter");
    RESOLVE(asn1_time_to_tm, "ASN1_TIME_to_tm");
    RESOLVE(x509_free, "X509_free");
    RESOLVE(evp_pkey_free, "EVP_PKEY_free");
    RESOLVE(sk_pop_free, "OPENSSL_sk_pop_free");
    RESOLVE(err_get_error, "ERR_get_error");
    RESOLVE(err_error_string_n, "ERR_error_string_n");
    RESOLVE(err_clear_error, "ERR_clear_error");
    loaded = 1;
}

static int ready(ad_identity_report *out) {
    memset(out, 0, sizeof *out);
    pthread_once(&once, load_once);
    if (!loaded) {
        snprintf(out->detail, sizeof out->detail, "%s", load_error);
        return 0;
    }
    fn.err_clear_error();
    return 1;
}

/* libcrypto's first queued reason, so a message can say what the library saw. */
static void reason(ad_identity_report *out) {
    unsigned long e = fn.err_get_error();
    if (e) fn.err_error_string_n(e, out->detail, sizeof out->detail);
    fn.err_clear_error();
}

static int to_epoch(const ASN1_TIME *t, long long *out) {
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    if (!t || fn.asn1_time_to_tm(t, &tm) != 1) return 0;
    *out = (long long)timegm(&tm);
    return 1;
}

/* The checks both forms share: a certificate, a key, the key being the certificate's, dates. */
static int check_pair(X509 *cert, EVP_PKEY *key, ad_identity_report *out) {
    if (!cert) return AD_IDENTITY_NO_CERTIFICATE;
    if (!key) return AD_IDENTITY_NO_KEY;
    if (fn.x509_check_private_key(cert, key) != 1) {
        reason(out);
        return AD_IDENTITY_KEY_MISMATCH;
    }
    if (!to_epoch(fn.x509_get0_notbefore(cert), &out->not_before) || !to_epoch(fn.x509_get0_notafter(cert), &out->not_after))
        return AD_IDENTITY_NO_EXPIRY;
    return AD_IDENTITY_OK;
}

int ad_identity_check_pkcs12(const void *der, size_t length, const char *password, ad_identity_report *out) {
    if (!ready(out)) return AD_IDENTITY_UNAVAILABLE;
    BIO *bio = fn.bio_new_mem_buf(der, (int)length);
    PKCS12 *p12 = bio ? fn.d2i_pkcs12_bio(bio, NULL) : NULL;
    if (bio) fn.bio_free(bio);
    if (!p12) {
        reason(out);
        return AD_IDENTITY_NOT_PKCS12;
    }
    /* No password: libcurl passes none; OpenSSL then tries the empty one too. */
    int opened = !fn.pkcs12_mac_present(p12) || fn.pkcs12_verify_mac(p12, password, password ? -1 : 0) == 1 ||
                 (!password && fn.pkcs12_verify_mac(p12, "", 0) == 1);
    if (!opened) {
        fn.err_clear_error();
        fn.pkcs12_free(p12);
        return AD_IDENTITY_BAD_PASSWORD;
    }
    EVP_PKEY *key = NULL;
    X509 *cert = NULL;
    STACK *chain = NULL;
    int status;
    if (fn.pkcs12_parse(p12, password, &key, &cert, &chain) != 1) {
        reason(out);
        status = AD_IDENTITY_UNREADABLE;
    } else {
        status = check_pair(cert, key, out);
    }
    if (chain) fn.sk_pop_free(chain, (void (*)(void *))fn.x509_free);
    if (cert) fn.x509_free(cert);
    if (key) fn.evp_pkey_free(key);
    fn.pkcs12_free(p12);
    return status;
}

int ad_identity_check_pem(const char *certificate, size_t certificate_length, const char *key, size_t key_length,
                          ad_identity_report *out) {
    if (!ready(out)) return AD_IDENTITY_UNAVAILABLE;
    BIO *cbio = fn.bio_new_mem_buf(certificate, (int)certificate_length);
    X509 *cert = cbio ? fn.pem_read_bio_x509(cbio, NULL, NULL, NULL) : NULL;
    if (cbio) fn.bio_free(cbio);
    if (!cert) {
        reason(out);
        return AD_IDENTITY_NO_CERTIFICATE;
    }
    /* An empty passphrase callback result: an encrypted key fails instead of prompting. */
    BIO *kbio = fn.bio_new_mem_buf(key, (int)key_length);
    EVP_PKEY *pkey = kbio ? fn.pem_read_bio_privatekey(kbio, NULL, NULL, (void *)"") : NULL;
    if (kbio) fn.bio_free(kbio);
    if (!pkey) reason(out);
    int status = check_pair(cert, pkey, out);
    fn.x509_free(cert);
    if (pkey) fn.evp_pkey_free(pkey);
    return status;
}
