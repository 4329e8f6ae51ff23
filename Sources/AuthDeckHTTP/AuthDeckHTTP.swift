/// AuthDeckHTTP: authdeck's only way onto the network — libcurl, loaded on first use.
///
/// Invariants: TLS verification is always on (there is no switch to turn it off); the
/// proxy environment variables are honoured; every request has connect and total
/// timeouts and a response-size cap; no secret is ever written to a log line.
public enum AuthDeckHTTP {}
