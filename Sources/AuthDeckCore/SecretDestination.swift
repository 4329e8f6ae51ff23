/// The one decision of where a secret may go: every sender asks it before anything leaves.
///
/// Each secret is held to the transport rule — https, or plain http only to this machine
/// (`TransportSecurity`) — and every secret a sender declares with a home (a refresh token and
/// the client secret or assertion sent with it; a client-credentials grant's secret; a
/// registration access token; an access token for the provider's own API or a registry) to
/// that home as well: the same origin and issuer it was issued by (`GrantHome`).
///
/// Why one function rather than a check per path: a check guards only the path it is written
/// on, and a secret that travels another (a refresh token to a token endpoint discovery named,
/// a grant to an issuer config.toml moved, a registration token to the host its server named)
/// is sent unguarded. `HTTPClient.send` asks this for every request.
public enum SecretDestination {
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
        if let home = passage.home, !home.admits(url, issuer: passage.issuer) {
            let now = (passage.issuer.map { "issuer \(TerminalText.inert($0)) at " } ?? "") + (GrantHome.origin(of: url) ?? shown)
            return SecretRefusal(kind: kind, reason: .notHome(home, now: now), destination: shown)
        }
        return nil
    }

    /// `refusal` for one kind of secret.
    public static func refusal(_ kind: SecretKind, to url: String, home: GrantHome? = nil, issuer: String? = nil) -> SecretRefusal? {
        refusal(SecretPassage([kind], home: home, issuer: issuer), to: url)
    }
}
