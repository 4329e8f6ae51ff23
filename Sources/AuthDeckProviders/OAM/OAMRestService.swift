import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// Calls of the Mobile and Social REST authentication service (PROVIDERS.md §5): a user token
/// for a password, an access token for a WebGate, and logout.
///
/// Every call is a JSON object of `X-Idaas-Rest-…` fields with the service domain header and
/// the SDK's User-Agent. The password and tokens ride in the body, which the HTTP gate cannot
/// read, so each request declares them: they go only to the server's origin (https, or http
/// on loopback). The shapes are UNVERIFIED against a live server, so answers are read
/// tolerantly (field names in any case, a token value that may be URL-encoded); 401/403 is a
/// refused credential, 429 and 5xx transient, anything else a server this is not configured for.
///
/// A registered mobile client (`settings.registers`) sends the user's registration handle on
/// every call but the registration itself, in `X-Idaas-Rest-Authorization: UIDPASSWORD
/// cred="<base64(application:handle)>"`; it is declared with the body's secrets, so it too goes
/// only to the server's origin.
struct OAMRestService: Sendable {
    let settings: OAMRestSettings
    let http: any HTTPClient
    let profileId: String
    /// The user's registration handle (a `CLIENTREGHANDLE`), when this client holds one.
    var handle: Secret? = nil

    /// The service as the client holding `registration` calls it.
    func holding(_ registration: OAMRegistration?) -> OAMRestService {
        var held = self
        held.handle = registration?.assertion
        return held
    }

    /// A token the service issued, and whose it is.
    struct Issued: Sendable {
        var token: Secret
        var principal: String?
    }

    func authenticate(username: String, password: Secret) async throws -> Issued {
        try await call("authenticate", ["X-Idaas-Rest-Subject-Type": "USERCREDENTIAL", "X-Idaas-Rest-Subject-Username": username,
                                        "X-Idaas-Rest-Subject-Password": password.exposedValue,
                                        "X-Idaas-Rest-New-Token-Type-To-Create": "USERTOKEN"],
                       secrets: [.password], what: "the user name and password")
    }

    /// An access token for the WebGate that challenged for `resource` with `context`.
    func access(userToken: Secret, context: String, resource: String) async throws -> Issued {
        try await call("access", ["X-Idaas-Rest-Subject-Type": "TOKEN", "X-Idaas-Rest-Subject-Value": userToken.exposedValue,
                                  "X-Idaas-Rest-New-Token-Type-To-Create": "ACCESSTOKEN",
                                  "X-Idaas-Rest-Application-Context": context, "X-Idaas-Rest-Application-Resource": resource],
                       secrets: [.accessToken], what: "the user token")
    }

    /// Ends the server's session. UNVERIFIED path (`…/logout`): no public source names it.
    func logout(userToken: Secret) async throws {
        _ = try await send("logout", ["X-Idaas-Rest-Subject-Type": "TOKEN", "X-Idaas-Rest-Subject-Value": userToken.exposedValue],
                           secrets: [.accessToken], what: "the user token")
    }

    /// Registers the application for `username` on this device: a `CLIENTREGHANDLE` that the
    /// mobile service wants on the user's later calls. Sent without a handle: a refused one is
    /// what a new registration replaces.
    func register(username: String, password: Secret) async throws -> Issued {
        var bare = self
        bare.handle = nil
        return try await bare.call("register", ["X-Idaas-Rest-Subject-Type": "USERCREDENTIAL", "X-Idaas-Rest-Subject-Username": username,
                                                "X-Idaas-Rest-Subject-Password": password.exposedValue,
                                                "X-Idaas-Rest-New-Token-Type-To-Create": "CLIENTREGHANDLE",
                                                "clientId": settings.application, "deviceProfile": Self.deviceProfile],
                                   secrets: [.password], what: "the user name and password")
    }

    /// The device profile a registration carries, as the SDK's REST clients send it: the
    /// claims OAM's SDKs name (shared with the OAuth server type's registration) and no
    /// hardware ids, which a desktop has none of to offer.
    static var deviceProfile: [String: Any] {
        var profile: [String: Any] = OAMRegistrar.deviceClaims
        profile["hardwareIds"] = [String: String]()
        return profile
    }

    /// Deletes the held registration handle at the server (the SDK's logout with
    /// clearRegistrationHandles), ending the session of `userToken` too when one is held.
    /// UNVERIFIED: no public source shows the wire form; it is the logout call, authorized by
    /// the handle, with `"clearRegistrationHandles": "true"`.
    func clearRegistration(userToken: Secret?) async throws {
        var fields = ["clearRegistrationHandles": "true"]
        if let userToken { fields.merge(["X-Idaas-Rest-Subject-Type": "TOKEN", "X-Idaas-Rest-Subject-Value": userToken.exposedValue]) { $1 } }
        _ = try await send("logout", fields, secrets: userToken == nil ? [] : [.accessToken], what: "the registration handle")
    }

    /// `X-Idaas-Rest-Authorization: UIDPASSWORD cred="<base64(application:handle)>"`.
    func registrationHeader(_ handle: Secret) -> HTTPHeader {
        let cred = Data("\(settings.application):\(handle.exposedValue)".utf8).base64EncodedString()
        return HTTPHeader("X-Idaas-Rest-Authorization", "UIDPASSWORD cred=\"\(cred)\"")
    }

    func call(_ operation: String, _ fields: [String: Any], secrets: Set<SecretKind>, what: String) async throws -> Issued {
        let body = try await send(operation, fields, secrets: secrets, what: what)
        var answer: [String: String] = [:]
        for (k, v) in body.fields { if let s = v.string { answer[k.lowercased()] = s } }
        guard let raw = answer["x-idaas-rest-token-value"], !raw.isEmpty else {
            throw AuthFailure(.misconfigured, code: "no_token",
                              remedy: "the Mobile and Social server at \(settings.base) answered \(operation) without X-Idaas-Rest-Token-Value; check endpoints.base and options.service_domain of provider \"\(profileId)\"")
        }
        let token = raw.contains("%") ? (raw.removingPercentEncoding ?? raw) : raw
        return Issued(token: Secret(token), principal: answer["x-idaas-rest-user-principal"])
    }

    /// The answer's JSON object (empty when a 2xx body is not one: `call` then says which
    /// field is missing).
    func send(_ operation: String, _ fields: [String: Any], secrets: Set<SecretKind>, what: String) async throws -> JSONObject {
        let data = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        var request = HTTPRequest(method: "POST", url: settings.url(operation),
                                  headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json"),
                                            HTTPHeader("X-IDAAS-SERVICEDOMAIN", settings.serviceDomain), HTTPHeader("X-IDAAS-REST-VERSION", "v1"),
                                            HTTPHeader("User-Agent", settings.userAgent)],
                                  body: Array(data))
        if let handle { request.headers.append(registrationHeader(handle)) }
        request.timeout = 30
        request.maxResponseBytes = 64 << 10
        request.passage = SecretPassage(handle == nil ? secrets : secrets.union([.clientAssertion]),
                                        home: GrantHome(issuer: nil, origins: [settings.origin].compactMap { $0 }))
        let response = try await TokenEndpoint.send(request, via: http)
        let server = "the Mobile and Social server (\(settings.base))"
        switch response.status {
        case 200..<300:
            return JSONObject(bytes: response.body) ?? JSONObject([:])
        case 401, 403:
            throw AuthFailure(.needsInteraction, code: "refused", remedy: "\(server) refused \(what) (HTTP \(response.status))")
        case 429, 500...:
            throw AuthFailure(.transient, code: "http \(response.status)", remedy: "\(server) is unavailable (HTTP \(response.status)); nothing was changed")
        default:
            throw AuthFailure(.misconfigured, code: "http \(response.status)",
                              remedy: "\(server) answered \(operation) with HTTP \(response.status); check endpoints.base and options.service_domain of provider \"\(profileId)\"")
        }
    }
}
