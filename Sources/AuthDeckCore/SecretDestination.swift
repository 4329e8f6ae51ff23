/// The one decision of where a secret may go: every sender asks it before anything leaves.
///
/// Each secret is held to the transport rule — https, or plain http only to this machine
/// (`TransportSecurity`) — and a secret bound to a grant (a refresh token; the client secret
/// or assertion sent with it; a registration access token) to its home as well: the same
/// origin and issuer it was issued by (`GrantHome`). Before this was one function, each path
/// guarded itself and the paths that did not (a refresh token to a plain-http token endpoint,
/// a grant sent to an issuer that config.toml moved, a registration token sent to another
/// host) delivered secrets elsewhere.
public enum SecretDestination {
    /// The kinds a grant's home binds. Access tokens and cookies go where the person pointed
    /// them (a `request` URL, a route), held to the transport rule.
    public static let homeBound: Set<SecretKind> = [.refreshToken, .clientSecret, .clientAssertion, .registrationAccessToken]

    /// Why `passage` may not go to `url`, or nil when it may.
    public static func refusal(_ passage: SecretPassage, to url: String) -> SecretRefusal? {
        guard let kind = passage.kinds.sorted().first else { return nil }
        guard let (scheme, host) = TransportSecurity.schemeAndHost(url), scheme == "https" || scheme == "http" else {
            return SecretRefusal(kind: kind, reason: .notAURL, destination: TerminalText.inert(String(url.prefix(200))))
        }
        let shown = "\(scheme)://\(TerminalText.inert(host))"
        guard TransportSecurity.keepsPrivate(url) else {
            return SecretRefusal(kind: kind, reason: .plainHTTP, destination: shown)
        }
        if let home = passage.home, let bound = passage.kinds.intersection(homeBound).sorted().first,
           !home.admits(url, issuer: passage.issuer) {
            let now = (passage.issuer.map { "issuer \(TerminalText.inert($0)) at " } ?? "") + (GrantHome.origin(of: url) ?? shown)
            return SecretRefusal(kind: bound, reason: .notHome(home, now: now), destination: shown)
        }
        return nil
    }

    /// `refusal` for one kind of secret.
    public static func refusal(_ kind: SecretKind, to url: String, home: GrantHome? = nil, issuer: String? = nil) -> SecretRefusal? {
        refusal(SecretPassage([kind], home: home, issuer: issuer), to: url)
    }
}
