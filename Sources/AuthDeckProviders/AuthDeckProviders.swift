/// AuthDeckProviders: one adapter per provider kind, and the registry from config `kind`
/// to adapter. Adapters reach the network only through AuthDeckHTTP/AuthDeckOAuth and the
/// store only through Core's ports.
public enum AuthDeckProviders {}
