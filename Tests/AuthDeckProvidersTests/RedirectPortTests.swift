import Testing
import AuthDeckCore
import AuthDeckProviders

/// `options.redirect_port`, read one way for every kind with a browser flow (issue 42): Azure AD
/// refused a bad value without naming it, and Facebook took it silently as "any port".
@Suite struct RedirectPortTests {
    /// A profile of each kind that is complete but for the option under test.
    static func profile(_ kind: ProviderKind, port: String?) -> ProviderProfile {
        var options: [String: String] = port.map { ["redirect_port": $0] } ?? [:]
        let endpoints: [String: String]
        switch kind {
        case .oam: endpoints = ["base": "https://oam.example.com"]
        case .oidc: endpoints = ["issuer": "https://issuer.example.com"]
        default: endpoints = [:]
        }
        if kind == .azuread { options["tenant"] = "common" }
        let clientId = kind == .facebook ? "1234567890" : kind == .azuread ? "11111111-2222-3333-4444-555555555555" : "authdeck"
        return ProviderProfile(id: "p-\(kind.rawValue)", kind: kind, clientId: clientId, endpoints: endpoints, options: options)
    }

    static let kinds: [ProviderKind] = [.oidc, .azuread, .facebook, .oam]

    @Test(arguments: kinds) func aBadPortIsNamedWithItsProviderAndValue(kind: ProviderKind) throws {
        let settings = OIDCSettingsTests()
        #expect(settings.remedy(Self.profile(kind, port: nil)) == nil, "the profile is complete without the option")
        #expect(settings.remedy(Self.profile(kind, port: "8400")) == nil)
        for bad in ["http", "65536", "-1", "84 00"] {
            #expect(settings.remedy(Self.profile(kind, port: bad))
                    == "provider \"p-\(kind.rawValue)\": options.redirect_port must be a port number (found \"\(bad)\")", "\(kind) \(bad)")
        }
    }
}
