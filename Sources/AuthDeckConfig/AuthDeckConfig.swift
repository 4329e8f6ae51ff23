/// AuthDeckConfig: config.toml and theme files, read and validated into plain values
/// (`DeckConfig`, `ProviderProfile`s, `CredentialRoute`s, `Theme`s); `ConfigWriter` adds to the
/// file without losing a person's comments.
///
/// Invariant: every problem is a `ConfigError` naming the file, where in it, and what is wrong.
/// Must not import: AuthDeckStore, AuthDeckHTTP — reading settings never opens a store or a
/// connection — nor AuthDeckUI: the themes and key names it validates are AuthDeckLook's.
public enum AuthDeckConfig {}
