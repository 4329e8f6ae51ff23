#define _GNU_SOURCE /* accept4 */
#include "ctls.h"
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
/* Types and constants only: every function is called through the pointers below. */
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

static struct {
    EVP_PKEY *(*pkey_q_keygen)(OSSL_LIB_CTX *, const char *, const char *, ...);
    void (*pkey_free)(EVP_PKEY *);
    X509 *(*x509_new)(void);
    void (*x509_free)(X509 *);
    int (*x509_set_version)(X509 *, long);
    ASN1_INTEGER *(*x509_get_serial)(X509 *);
    int (*asn1_integer_set)(ASN1_INTEGER *, long);
    ASN1_TIME *(*x509_getm_notbefore)(const X509 *);
    ASN1_TIME *(*x509_getm_notafter)(const X509 *);
    ASN1_TIME *(*x509_gmtime_adj)(ASN1_TIME *, long);
    int (*x509_set_pubkey)(X509 *, EVP_PKEY *);
    X509_NAME *(*x509_get_subject_name)(const X509 *);
    int (*x509_set_issuer_name)(X509 *, const X509_NAME *);
    int (*x509_name_add_entry_by_txt)(X509_NAME *, const char *, int, const unsigned char *, int, int, int);
    void (*x509v3_set_ctx)(X509V3_CTX *, X509 *, X509 *, X509_REQ *, X509_CRL *, int);
    X509_EXTENSION *(*x509v3_ext_nconf_nid)(CONF *, X509V3_CTX *, int, const char *);
    int (*x509_add_ext)(X509 *, X509_EXTENSION *, int);
    void (*x509_extension_free)(X509_EXTENSION *);
    int (*x509_sign)(X509 *, EVP_PKEY *, const EVP_MD *);
    const EVP_MD *(*evp_sha256)(void);
    int (*pem_write_x509)(FILE *, const X509 *);
    int (*pem_write_privatekey)(FILE *, const EVP_PKEY *, const EVP_CIPHER *, const unsigned char *, int, pem_password_cb *, void *);
    int (*rand_bytes)(unsigned char *, int);
    unsigned long (*err_get_error)(void);
    void (*err_error_string_n)(unsigned long, char *, size_t);
    void (*err_clear_error)(void);
    const SSL_METHOD *(*tls_server_method)(void);
    SSL_CTX *(*ctx_new)(const SSL_METHOD *);
    void (*ctx_free)(SSL_CTX *);
    int (*ctx_use_chain_file)(SSL_CTX *, const char *);
    int (*ctx_use_key_file)(SSL_CTX *, const char *, int);
    int (*ctx_check_key)(const SSL_CTX *);
    long (*ctx_ctrl)(SSL_CTX *, int, long, void *);
    SSL *(*ssl_new)(SSL_CTX *);
    void (*ssl_free)(SSL *);
    int (*ssl_set_fd)(SSL *, int);
    int (*ssl_accept)(SSL *);
    int (*ssl_read)(SSL *, void *, int);
    int (*ssl_write)(SSL *, const void *, int);
    int (*ssl_pending)(const SSL *);
    int (*ssl_shutdown)(SSL *);
} fn;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded = 0;

#define RESOLVE(lib, field, name)                                                          \
    do {                                                                                   \
        *(void **)(&fn.field) = dlsym(lib, name);                                          \
        if (!fn.field) {                                                                   \
            snprintf(load_error, sizeof load_error, "OpenSSL lacks %s (install libssl3)", name); \
            return;                                                                        \
        }                                                                                  \
    } while (0)

static void load_once(void) {
    /* 3.x only: EVP_PKEY_Q_keygen and the certificate calls below are OpenSSL 3's. */
    void *ssl = dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL);
    void *crypto = ssl ? dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!ssl || !crypto) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "cannot load OpenSSL 3 (install libssl3): %s", why ? why : "not found");
        return;
    }
    RESOLVE(crypto, pkey_q_keygen, "EVP_PKEY_Q_keygen");
    RESOLVE(crypto, pkey_free, "EVP_PKEY_free");
    RESOLVE(crypto, x509_new, "X509_new");
    RESOLVE(crypto, x509_free, "X509_free");
    RESOLVE(crypto, x509_set_version, "X509_set_version");
    RESOLVE(crypto, x509_get_serial, "X509_get_serialNumber");
    RESOLVE(crypto, asn1_integer_set, "ASN1_INTEGER_set");
    RESOLVE(crypto, x509_getm_notbefore, "X509_getm_notBefore");
    RESOLVE(crypto, x509_getm_notafter, "X509_getm_notAfter");
    RESOLVE(crypto, x509_gmtime_adj, "X509_gmtime_adj");
    RESOLVE(crypto, x509_set_pubkey, "X509_set_pubkey");
    RESOLVE(crypto, x509_get_subject_name, "X509_get_subject_name");
    RESOLVE(crypto, x509_set_issuer_name, "X509_set_issuer_name");
    RESOLVE(crypto, x509_name_add_entry_by_txt, "X509_NAME_add_entry_by_txt");
    RESOLVE(crypto, x509v3_set_ctx, "X509V3_set_ctx");
    RESOLVE(crypto, x509v3_ext_nconf_nid, "X509V3_EXT_nconf_nid");
    RESOLVE(crypto, x509_add_ext, "X509_add_ext");
    RESOLVE(crypto, x509_extension_free, "X509_EXTENSION_free");
    RESOLVE(crypto, x509_sign, "X509_sign");
    RESOLVE(crypto, evp_sha256, "EVP_sha256");
    RESOLVE(crypto, pem_write_x509, "PEM_write_X509");
    RESOLVE(crypto, pem_write_privatekey, "PEM_write_PrivateKey");
    RESOLVE(crypto, rand_bytes, "RAND_bytes");
    RESOLVE(crypto, err_get_error, "ERR_get_error");
    RESOLVE(crypto, err_error_string_n, "ERR_error_string_n");
    RESOLVE(crypto, err_clear_error, "ERR_clear_error");
    RESOLVE(ssl, tls_server_method, "TLS_server_method");
    RESOLVE(ssl, ctx_new, "SSL_CTX_new");
    RESOLVE(ssl, ctx_free, "SSL_CTX_free");
    RESOLVE(ssl, ctx_use_chain_file, "SSL_CTX_use_certificate_chain_file");
    RESOLVE(ssl, ctx_use_key_file, "SSL_CTX_use_PrivateKey_file");
    RESOLVE(ssl, ctx_check_key, "SSL_CTX_check_private_key");
    RESOLVE(ssl, ctx_ctrl, "SSL_CTX_ctrl");
    RESOLVE(ssl, ssl_new, "SSL_new");
    RESOLVE(ssl, ssl_free, "SSL_free");
    RESOLVE(ssl, ssl_set_fd, "SSL_set_fd");
    RESOLVE(ssl, ssl_accept, "SSL_accept");
    RESOLVE(ssl, ssl_read, "SSL_read");
    RESOLVE(ssl, ssl_write, "SSL_write");
    RESOLVE(ssl, ssl_pending, "SSL_pending");
    RESOLVE(ssl, ssl_shutdown, "SSL_shutdown");
    loaded = 1;
}

static int ready(char *err, size_t errlen) {
    pthread_once(&once, load_once);
    if (!loaded) {
        snprintf(err, errlen, "%s", load_error);
        return 0;
    }
    fn.err_clear_error();
    return 1;
}

/* `what`, then OpenSSL's first queued reason, so a message says what the library saw. */
static int fail(char *err, size_t errlen, const char *what) {
    char reason[200] = "";
    unsigned long e = fn.err_get_error();
    if (e) fn.err_error_string_n(e, reason, sizeof reason);
    fn.err_clear_error();
    snprintf(err, errlen, "%s%s%s", what, e ? ": " : "", reason);
    return -1;
}

static int add_ext(X509 *cert, X509 *issuer, int nid, const char *value) {
    X509V3_CTX ctx;
    fn.x509v3_set_ctx(&ctx, issuer, cert, NULL, NULL, 0);
    X509_EXTENSION *ext = fn.x509v3_ext_nconf_nid(NULL, &ctx, nid, value);
    if (!ext) return 0;
    int ok = fn.x509_add_ext(cert, ext, -1) == 1;
    fn.x509_extension_free(ext);
    return ok;
}

/* A certificate for `key` named `cn`, signed by `issuer_key` (issuer NULL: self-signed). */
static X509 *certificate(EVP_PKEY *key, const char *cn, X509 *issuer, EVP_PKEY *issuer_key, int days, int ca) {
    X509 *cert = fn.x509_new();
    if (!cert) return NULL;
    unsigned char r[7];
    long serial = 0;
    if (fn.rand_bytes(r, sizeof r) != 1) goto bad;
    for (size_t i = 0; i < sizeof r; i++) serial = (serial << 8) | r[i];
    X509_NAME *name = fn.x509_get_subject_name(cert);
    int ok = fn.x509_set_version(cert, 2) == 1 && fn.asn1_integer_set(fn.x509_get_serial(cert), serial + 1) == 1 &&
             fn.x509_gmtime_adj(fn.x509_getm_notbefore(cert), -3600) && fn.x509_gmtime_adj(fn.x509_getm_notafter(cert), (long)days * 86400) &&
             fn.x509_set_pubkey(cert, key) == 1 &&
             fn.x509_name_add_entry_by_txt(name, "O", MBSTRING_ASC, (const unsigned char *)"authdeck demo", -1, -1, 0) == 1 &&
             fn.x509_name_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0) == 1 &&
             fn.x509_set_issuer_name(cert, fn.x509_get_subject_name(issuer ? issuer : cert)) == 1;
    if (!ok) goto bad;
    X509 *signer = issuer ? issuer : cert;
    if (ca) {
        ok = add_ext(cert, signer, NID_basic_constraints, "critical,CA:TRUE,pathlen:0") &&
             add_ext(cert, signer, NID_key_usage, "critical,keyCertSign,cRLSign") &&
             add_ext(cert, signer, NID_subject_key_identifier, "hash");
    } else {
        ok = add_ext(cert, signer, NID_basic_constraints, "critical,CA:FALSE") &&
             add_ext(cert, signer, NID_key_usage, "critical,digitalSignature") &&
             add_ext(cert, signer, NID_ext_key_usage, "serverAuth") &&
             add_ext(cert, signer, NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost") &&
             add_ext(cert, signer, NID_subject_key_identifier, "hash") &&
             add_ext(cert, signer, NID_authority_key_identifier, "keyid:always");
    }
    if (ok && fn.x509_sign(cert, issuer_key, fn.evp_sha256()) > 0) return cert;
bad:
    fn.x509_free(cert);
    return NULL;
}

/* Writes a new file (never over an existing one or through a symlink) with `mode`. */
static int write_pem(const char *path, int mode, X509 *cert, EVP_PKEY *key, char *err, size_t errlen) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot create it (%s)", path, strerror(errno));
        return -1;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    int ok = cert ? fn.pem_write_x509(f, cert) == 1 : fn.pem_write_privatekey(f, key, NULL, NULL, 0, NULL, NULL) == 1;
    if (fclose(f) != 0) ok = 0;
    if (!ok) {
        char what[300];
        snprintf(what, sizeof what, "%s: cannot write it", path);
        return fail(err, errlen, what);
    }
    return 0;
}

int ad_tls_issue(const char *ca_path, const char *cert_path, const char *key_path, int days, char *err, size_t errlen) {
    if (!ready(err, errlen)) return -1;
    EVP_PKEY *ca_key = fn.pkey_q_keygen(NULL, NULL, "EC", "P-256");
    EVP_PKEY *key = fn.pkey_q_keygen(NULL, NULL, "EC", "P-256");
    X509 *ca = NULL, *cert = NULL;
    int rc = -1;
    if (!ca_key || !key) {
        fail(err, errlen, "cannot make a P-256 key");
        goto done;
    }
    unsigned char r[4];
    char cn[64];
    fn.rand_bytes(r, sizeof r);
    /* A name of its own per CA: two demos' CAs are never mistaken for each other. */
    snprintf(cn, sizeof cn, "authdeck demo CA %02x%02x%02x%02x", r[0], r[1], r[2], r[3]);
    ca = certificate(ca_key, cn, NULL, ca_key, days, 1);
    cert = ca ? certificate(key, "localhost", ca, ca_key, days, 0) : NULL;
    if (!cert) {
        fail(err, errlen, "cannot make the demo's certificates");
        goto done;
    }
    if (write_pem(key_path, 0600, NULL, key, err, errlen) != 0) goto done;
    if (write_pem(cert_path, 0644, cert, NULL, err, errlen) != 0 || write_pem(ca_path, 0644, ca, NULL, err, errlen) != 0) {
        unlink(key_path);
        unlink(cert_path);
        goto done;
    }
    rc = 0;
done:
    if (ca) fn.x509_free(ca);
    if (cert) fn.x509_free(cert);
    if (ca_key) fn.pkey_free(ca_key);
    if (key) fn.pkey_free(key);
    return rc;
}

/* ---- serving ---- */

struct connection {
    SSL_CTX *ctx;
    int fd;
    int backend_port;
    int port;
};

static int send_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return 0;
        p += w;
        n -= (size_t)w;
    }
    return 1;
}

static int ssl_write_all(SSL *ssl, const char *p, int n) {
    while (n > 0) {
        int w = fn.ssl_write(ssl, p, n);
        if (w <= 0) return 0;
        p += w;
        n -= w;
    }
    return 1;
}

/* Reads what the client already sent before closing, so the kernel does not answer unread
   bytes with a reset that can overtake our last words (a 400, a TLS alert). */
static void drain_and_close(int fd) {
    shutdown(fd, SHUT_WR);
    struct timeval tv = {1, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char buf[4096];
    while (recv(fd, buf, sizeof buf, 0) > 0) {
    }
    close(fd);
}

/* A request in plain http on the TLS port: say so, as a person reading curl's output needs. */
static void refuse_plain_http(int fd, int port) {
    char body[200], head[200];
    int blen = snprintf(body, sizeof body,
                        "authdeck-idp: this port speaks https (TLS) and the request came as plain http; use https://127.0.0.1:%d/\n", port);
    int hlen = snprintf(head, sizeof head,
                        "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n", blen);
    if (send_all(fd, head, (size_t)hlen)) send_all(fd, body, (size_t)blen);
}

static int connect_backend(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Both directions on this one thread: a TLS object is never used by two threads at once. */
static void relay(SSL *ssl, int client, int backend) {
    char buf[16384];
    for (;;) {
        struct pollfd p[2] = {{client, POLLIN, 0}, {backend, POLLIN, 0}};
        if (fn.ssl_pending(ssl) > 0) {
            p[0].revents = POLLIN;
        } else if (poll(p, 2, 300000) <= 0) {
            return;  /* idle for five minutes, or poll failed */
        }
        if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            int n = fn.ssl_read(ssl, buf, sizeof buf);
            if (n <= 0 || !send_all(backend, buf, (size_t)n)) return;
        }
        if (p[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t n = recv(backend, buf, sizeof buf, 0);
            if (n <= 0 || !ssl_write_all(ssl, buf, (int)n)) return;
        }
    }
}

static void *serve_connection(void *arg) {
    struct connection c = *(struct connection *)arg;
    free(arg);
    /* A client that stalls mid-handshake or mid-record is dropped, not waited on forever. */
    struct timeval tv = {30, 0};
    setsockopt(c.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(c.fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    unsigned char first = 0;
    ssize_t got;
    do got = recv(c.fd, &first, 1, MSG_PEEK); while (got < 0 && errno == EINTR);
    if (got != 1) {
        close(c.fd);
        return NULL;
    }
    if (first != 0x16) {  /* not a TLS handshake record */
        if (first >= 'A' && first <= 'Z') refuse_plain_http(c.fd, c.port);
        drain_and_close(c.fd);
        return NULL;
    }
    SSL *ssl = fn.ssl_new(c.ctx);
    if (!ssl || fn.ssl_set_fd(ssl, c.fd) != 1 || fn.ssl_accept(ssl) != 1) {
        fn.err_clear_error();
        if (ssl) fn.ssl_free(ssl);
        drain_and_close(c.fd);
        return NULL;
    }
    int backend = connect_backend(c.backend_port);
    if (backend >= 0) {
        relay(ssl, c.fd, backend);
        close(backend);
    }
    fn.ssl_shutdown(ssl);
    fn.err_clear_error();
    fn.ssl_free(ssl);
    close(c.fd);
    return NULL;
}

struct listener {
    SSL_CTX *ctx;
    int fd;
    int backend_port;
    int port;
};

static void *accept_loop(void *arg) {
    struct listener l = *(struct listener *)arg;
    free(arg);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (;;) {
        int fd = accept4(l.fd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) usleep(100000);
            continue;
        }
        struct connection *c = malloc(sizeof *c);
        pthread_t thread;
        if (!c) {
            close(fd);
            continue;
        }
        *c = (struct connection){l.ctx, fd, l.backend_port, l.port};
        if (pthread_create(&thread, &attr, serve_connection, c) != 0) {
            free(c);
            close(fd);
        }
    }
    return NULL;
}

int ad_tls_serve(int port, const char *cert_path, const char *key_path, int backend_port, int *bound_port,
                 char *err, size_t errlen) {
    if (!ready(err, errlen)) return -1;
    SSL_CTX *ctx = fn.ctx_new(fn.tls_server_method());
    if (!ctx) return fail(err, errlen, "cannot make a TLS context");
    char what[600];
    if (fn.ctx_use_chain_file(ctx, cert_path) != 1) {
        snprintf(what, sizeof what, "--tls-cert %s: not a readable PEM certificate", cert_path);
        fn.ctx_free(ctx);
        return fail(err, errlen, what);
    }
    if (fn.ctx_use_key_file(ctx, key_path, SSL_FILETYPE_PEM) != 1) {
        snprintf(what, sizeof what, "--tls-key %s: not a readable PEM private key", key_path);
        fn.ctx_free(ctx);
        return fail(err, errlen, what);
    }
    if (fn.ctx_check_key(ctx) != 1) {
        snprintf(what, sizeof what, "--tls-key %s is not the key of --tls-cert %s", key_path, cert_path);
        fn.ctx_free(ctx);
        return fail(err, errlen, what);
    }
    fn.ctx_ctrl(ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(fd, 64) != 0 ||
        getsockname(fd, (struct sockaddr *)&addr, &len) != 0) {
        snprintf(err, errlen, "cannot listen on 127.0.0.1:%d for TLS: %s", port, strerror(errno));
        if (fd >= 0) close(fd);
        fn.ctx_free(ctx);
        return -1;
    }
    *bound_port = ntohs(addr.sin_port);
    /* SSL_write writes with write(2): a client gone mid-answer must end its connection's
       thread, not the emulator (the emulator is a process of its own). */
    signal(SIGPIPE, SIG_IGN);
    struct listener *l = malloc(sizeof *l);
    pthread_t thread;
    if (!l) {
        close(fd);
        fn.ctx_free(ctx);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *l = (struct listener){ctx, fd, backend_port, *bound_port};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&thread, &attr, accept_loop, l);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        free(l);
        close(fd);
        fn.ctx_free(ctx);
        snprintf(err, errlen, "cannot start the TLS listener's thread: %s", strerror(rc));
        return -1;
    }
    return 0;
}
