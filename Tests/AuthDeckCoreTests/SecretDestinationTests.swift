import Testing
import AuthDeckCore

/// The one decision of where a secret may go (issue 38): the transport rule for every secret,
/// and a grant's home for the secrets bound to it.
@Suite struct SecretDestinationTests {
    let home = GrantHome.issued(by: "https://a.example/realms/x", at: "https://a.example/realms/x/token")

    @Test func everySecretGoesOnlyOverHttpsOrToThisMachine() {
        for kind in SecretKind.allCases {
            for url in ["http://tok.evil.example/token", "HTTP://TOK.EVIL.EXAMPLE:80/t", "http://169.254.169.254/token",
                        "http://127.0.0.1.evil.example/t", "http://128.0.0.1/t"] {
                let refusal = SecretDestination.refusal(kind, to: url)
                #expect(refusal?.reason == .plainHTTP, "\(kind) to \(url)")
                #expect(refusal?.description.contains("refusing to send the \(kind.rawValue)") == true)
            }
            for url in ["https://tok.example/token", "http://127.0.0.1:8080/t", "http://localhost:1/t", "http://[::1]:9/t"] {
                #expect(SecretDestination.refusal(kind, to: url) == nil, "\(kind) to \(url)")
            }
            #expect(SecretDestination.refusal(kind, to: "file:///etc/passwd")?.reason == .notAURL)
            #expect(SecretDestination.refusal(kind, to: "tok.example/token")?.reason == .notAURL)
        }
    }

    @Test func aGrantsSecretsGoOnlyToItsHome() {
        for kind: SecretKind in [.refreshToken, .clientSecret, .clientAssertion, .registrationAccessToken, .accessToken] {
            let at = { (url: String, issuer: String?) in SecretDestination.refusal(kind, to: url, home: home, issuer: issuer) }
            #expect(at("https://a.example/realms/x/token", "https://a.example/realms/x") == nil)
            #expect(at("https://A.EXAMPLE:443/other/path", "https://a.example/realms/x/") == nil, "same origin, issuer with a slash")
            #expect(at("https://a.example./realms/x/token", nil) == nil, "a trailing dot names the same host")
            // Another origin, another port, another scheme, another issuer on the same origin.
            for (url, issuer) in [("https://b.example/token", "https://b.example"), ("https://a.example:8443/token", "https://a.example/realms/x"),
                                  ("https://a.example.evil.example/token", nil), ("https://evil.example/a.example/token", nil),
                                  ("https://a.example@evil.example/token", nil),
                                  ("https://a.example/realms/y/token", "https://a.example/realms/y")] {
                let refusal = at(url, issuer)
                guard case .notHome = refusal?.reason else { Issue.record("\(kind) went to \(url) (\(issuer ?? "-"))"); continue }
                #expect(refusal?.errorClass == .needsInteraction && refusal?.code == "grant_moved")
                #expect(refusal?.description.contains("https://a.example/realms/x") == true, "names the old issuer")
            }
        }
        // Declared without a home (a `request` URL the person typed, a tool's route), only the
        // transport rule applies.
        #expect(SecretDestination.refusal(.accessToken, to: "https://b.example/api") == nil)
    }

    @Test func aRefusalNamesTheGrantSecretFirstAndNeverTheValue() {
        let passage = SecretPassage([.grantCode, .clientSecret, .refreshToken], home: home, issuer: "https://b.example")
        let refusal = SecretDestination.refusal(passage, to: "https://b.example/token")
        #expect(refusal?.kind == .refreshToken)
        #expect(refusal?.description.contains("issuer https://b.example at https://b.example") == true, "\(String(describing: refusal))")
        let escaped = SecretDestination.refusal(.password, to: "http://\u{1b}[31mevil.example/t")
        #expect(escaped?.description.contains("\u{1b}") == false)
    }

    @Test func aHomeIsWrittenAndReadAsOneLine() {
        #expect(GrantHome(encoded: home.encoded) == home)
        #expect(GrantHome(encoded: GrantHome(issuer: nil, origins: []).encoded) == GrantHome(issuer: nil, origins: []))
        #expect(GrantHome(encoded: "v2\tx") == nil && GrantHome(encoded: "") == nil)
        #expect(home.origins == ["https://a.example"])
        #expect(GrantHome.origin(of: "HTTPS://User:pw@Host.Example:443/x?y#z") == "https://host.example")
        #expect(GrantHome.origin(of: "http://[::1]:8080/x") == "http://[::1]:8080")
        #expect(GrantHome.origin(of: "https://h.example:99x/") == nil)
    }
}
