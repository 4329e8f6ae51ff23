import AuthDeckCore

extension ProviderProfile {
    /// `options.redirect_port`: the loopback port a browser sign-in's redirect comes back to;
    /// 0 (the default) takes any free port.
    ///
    /// One reader for every kind with a browser flow (OIDC, Azure AD, Facebook, OAM): a value
    /// that is not a port is refused naming the provider, the key and the value, rather than
    /// quietly becoming "any port" — which a provider registered with a fixed redirect URI
    /// would then refuse at sign-in, far from the typo.
    func redirectPort() throws -> UInt16 {
        guard let text = options["redirect_port"] else { return 0 }
        guard let port = UInt16(text) else {
            throw AuthFailure(.misconfigured, code: "config",
                              remedy: "provider \"\(id)\": options.redirect_port must be a port number (found \"\(TerminalText.inert(text))\")")
        }
        return port
    }
}
