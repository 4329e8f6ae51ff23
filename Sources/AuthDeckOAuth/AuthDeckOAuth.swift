/// AuthDeckOAuth: OAuth 2.0 / OIDC grants, PKCE, JWT and error classification.
///
/// Invariants: PKCE is always S256; `state` (and `iss` when present) is checked on every
/// redirect; `alg: none` is never accepted; every failure maps to an `ErrorClass`.
public enum AuthDeckOAuth {}
