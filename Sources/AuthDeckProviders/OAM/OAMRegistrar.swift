import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// Registers authdeck as an OAM mobile client (PROVIDERS.md §5, "Mobile client registration"):
/// a mobile client is not confidential, so it proves who it is with a client assertion the
/// server issues for one user on one device.
///
/// Two steps at the token endpoint, as the client is configured (a public client sends only
/// `client_id`; a configured secret, if any, is sent as usual):
/// 1. the pre-authz code: `grant_type=client_credentials`, `oracle_device_profile` (base64 of
///    the device's JSON profile), `oracle_requested_assertions=…/mobile-client-pre-authz-code-client`;
/// 2. the client assertion: `grant_type=password` with the user's credentials (2-legged), or the
///    authorization code from the browser (3-legged, `OAMAdapter`'s browser flow), with
///    `oracle_pre_authz_code` and `oracle_requested_assertions=urn:ietf:params:oauth:client-assertion-type:jwt-bearer`.
///
/// Where PROVIDERS.md is silent this is tolerant: the pre-authz code and the assertion are read
/// from `access_token` (where OAM's token responses put them, `oracle_tk_context` naming which)
/// or from a field named after them; step 2 repeats the device profile, as the SDK does.
struct OAMRegistrar: Sendable {
    static let preAuthzAssertion = "oracle-idm:/oauth/assertion-type/client-identity/mobile-client-pre-authz-code-client"
    static let clientAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    let settings: OAMSettings
    let context: AdapterContext

    /// The registration steps' endpoint: the client as configured, never an assertion.
    var endpoint: TokenEndpoint {
        TokenEndpoint(url: settings.token, client: settings.client, http: context.http,
                      extraHeaders: settings.identityHeader.map { [$0] } ?? [])
    }

    /// A new device id, kept with the registration so a registration made again names the same device.
    static func newDeviceId() -> String { UUIDString.make() }

    /// What a device profile says of this machine, for both server types' registrations: the
    /// SDK's version, the OS type and the kernel's version (as a phone's SDK names its OS release).
    static var deviceClaims: [String: String] {
        let os = ProcessInfo.processInfo.operatingSystemVersion
        return ["oracle:idm:claims:client:sdkversion": "authdeck \(AuthDeckCore.version)",
                "oracle:idm:claims:client:ostype": "Linux",
                "oracle:idm:claims:client:osversion": "\(os.majorVersion).\(os.minorVersion).\(os.patchVersion)"]
    }

    /// The device profile as OAM's SDKs send it: base64 of a JSON object of `oracle:idm:claims:client:*` claims.
    static func deviceProfile(deviceId: String) -> String {
        var claims = deviceClaims
        claims["oracle:idm:claims:client:udid"] = deviceId
        let data = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data("{}".utf8)
        return data.base64EncodedString()
    }

    /// Step 1: a pre-authz code for this device.
    func preAuthzCode(deviceId: String) async throws -> Secret {
        let tokens = try await endpoint.request([("grant_type", settings.grant("client_credentials")),
                                                 ("oracle_device_profile", Self.deviceProfile(deviceId: deviceId)),
                                                 ("oracle_requested_assertions", Self.preAuthzAssertion)],
                                                grant: .clientCredentials, secrets: [], now: context.clock.now())
        return tokens.extra["oracle_pre_authz_code"].map(Secret.init) ?? tokens.accessToken
    }

    /// The 2-legged registration: a pre-authz code, then the client assertion for `username`.
    func register(username: String, password: Secret, deviceId: String) async throws -> OAMRegistration {
        let code = try await preAuthzCode(deviceId: deviceId)
        let tokens = try await endpoint.request([("grant_type", settings.grant("password")), ("username", username),
                                                 ("password", password.exposedValue)] + assertionFields(code: code, deviceId: deviceId),
                                                grant: .password, secrets: [password.exposedValue, code.exposedValue], now: context.clock.now())
        return handle(tokens, deviceId: deviceId)
    }

    /// What step 2 adds to its grant, whichever grant that is.
    func assertionFields(code: Secret, deviceId: String) -> [(String, String)] {
        [("oracle_pre_authz_code", code.exposedValue), ("oracle_requested_assertions", Self.clientAssertionType),
         ("oracle_device_profile", Self.deviceProfile(deviceId: deviceId))]
    }

    /// The registration handle a step-2 answer gives.
    func handle(_ tokens: TokenSet, deviceId: String) -> OAMRegistration {
        let assertion = tokens.extra["client_assertion"].map(Secret.init) ?? tokens.accessToken
        var details: [String: String] = [:]
        for name in OAMRegistration.detailNames { details[name] = tokens.extra[name] }
        return OAMRegistration(assertion: assertion, expiresAt: tokens.expiresIn.map { context.clock.now() + .seconds($0) },
                               deviceId: deviceId, details: details)
    }
}
