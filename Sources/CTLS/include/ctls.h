/* TLS for the provider emulator (`authdeck-idp --tls-cert --tls-key`) and the demo's private CA.
 *
 * Why: docker, curl and authdeck's own helpers must meet the emulator's registry over https
 * (a registry's token realm is https), and the demo must not need Python or the `openssl` CLI
 * for it. libssl and libcrypto are dlopen()ed, as CCurl loads libcurl: they are libcurl's own
 * TLS libraries, so nothing new is installed or linked, and a process that never serves TLS
 * never loads them. OpenSSL's headers give only types and constants here.
 */
#ifndef AUTHDECK_CTLS_H
#define AUTHDECK_CTLS_H
#include <stddef.h>

/* Makes a private certificate authority and, signed by it, a server certificate for 127.0.0.1
   and localhost (P-256, valid `days` days from an hour ago). Writes the CA certificate to
   ca_path and the server's certificate and key to cert_path and key_path, each created anew
   (O_EXCL; the key 0600, the certificates 0644). The CA's key is never written: nothing else
   can be signed by it. Returns 0, or -1 with the reason in err. */
int ad_tls_issue(const char *ca_path, const char *cert_path, const char *key_path, int days, char *err, size_t errlen);

/* Serves TLS on 127.0.0.1:port (0: a free port, written to *bound_port) with the PEM certificate
   chain and key, relaying each connection's bytes, once its handshake is done, to the plain
   listener at 127.0.0.1:backend_port. A client that speaks plain http gets a 400 saying the
   port speaks https, then the connection is closed. Returns 0 once listening (a thread of its
   own accepts; one thread per connection), or -1 with the reason in err. */
int ad_tls_serve(int port, const char *cert_path, const char *key_path, int backend_port, int *bound_port,
                 char *err, size_t errlen);
#endif
