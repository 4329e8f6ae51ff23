import Foundation
import AuthDeckCore

/// The Mobile and Social REST server type (`options.server_type = "mobile-social"` without a
/// `preset`; the SDK's `AuthServerType = OAMMSAuthentication`): where its REST authentication
/// service is and what every call carries (PROVIDERS.md §5, "Mobile and Social REST
/// authentication").
///
/// `endpoints.base` is the Mobile and Social server (the SDK's `OAMMSURL`); the service domain
/// (`options.service_domain`, the SDK's `OAMMSServiceDomain`) goes in `X-IDAAS-SERVICEDOMAIN`
/// on every call; the User-Agent starts with `options.user_agent_prefix` (default `OIC`),
/// which must match the WebGates' `OAMAuthUserAgentPrefix` for them to challenge rather than
/// redirect to a login page. With `options.client_registration = true` the application is a
/// registered mobile client: it calls the mobile service (`…/mobileoamauthentication/…`), which
/// wants the user's registration handle on every call (`OAMAdapter+RestRegistration`).
struct OAMRestSettings: Sendable {
    let base: String
    let serviceDomain: String
    let userAgent: String
    /// The application's name (the SDK's `ApplicationName`): the registering client's id.
    let application: String
    /// A registered mobile client (`options.client_registration`): the mobile service, with a handle.
    let registers: Bool

    static let defaultUserAgentPrefix = "OIC"

    /// The REST settings when `profile` asks for this server type, else nil.
    init?(_ profile: ProviderProfile) throws {
        let o = profile.options
        guard o["server_type"] == "mobile-social", o["preset"] == nil else { return nil }
        func bad(_ p: String) -> AuthFailure { AuthFailure(.misconfigured, code: "config", remedy: "provider \"\(profile.id)\": \(p)") }
        guard let base = profile.endpoints["base"], !base.isEmpty else {
            throw bad("server_type = \"mobile-social\" needs endpoints.base: the Mobile and Social server (the SDK's OAMMSURL)")
        }
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        guard let domain = o["service_domain"], !domain.isEmpty else {
            throw bad("server_type = \"mobile-social\" needs options.service_domain (the SDK's OAMMSServiceDomain, such as MobileServiceDomain)")
        }
        serviceDomain = domain
        let prefix = o["user_agent_prefix"] ?? Self.defaultUserAgentPrefix
        // Goes in a header: a prefix that could split it is refused, not sent.
        guard !prefix.isEmpty, prefix.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f }) else {
            throw bad("options.user_agent_prefix must be printable ASCII without spaces (the WebGate's OAMAuthUserAgentPrefix, such as OIC)")
        }
        userAgent = "\(prefix) authdeck-oam-sdk/1"
        application = o["application_name"] ?? profile.clientId ?? "authdeck"
        registers = o["client_registration"] == "true"
    }

    /// `…/oic_rest/rest/oamauthentication/<operation>`, or `mobileoamauthentication` for a registered client.
    func url(_ operation: String) -> String {
        "\(base)/oic_rest/rest/\(registers ? "mobileoamauthentication" : "oamauthentication")/\(operation)"
    }

    /// The server's origin: where the user token and the password may go.
    var origin: String? { GrantHome.origin(of: base) }
}
