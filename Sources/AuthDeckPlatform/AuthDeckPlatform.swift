/// AuthDeckPlatform: what both binaries need from Linux itself — paths (`StoreLocation`,
/// `XDG`), the config file's identity (`ConfigFileIdentity`), signal and crash hygiene, the store's
/// side files, malloc tuning.
///
/// Must not import: Foundation (the front links this and must start in milliseconds), GRDB.
public enum AuthDeckPlatform {}
