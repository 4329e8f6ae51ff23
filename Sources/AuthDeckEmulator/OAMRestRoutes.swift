import Foundation

/// The OAM Mobile and Social REST authentication service (PROVIDERS.md §5, "Mobile and Social
/// REST authentication"), under `/oic_rest/rest/oamauthentication/` and
/// `/oic_rest/rest/mobileoamauthentication/`.
///
/// Every call needs `X-IDAAS-SERVICEDOMAIN` naming the service domain (a missing or wrong one
/// is answered 400, a configuration error) and a JSON object body of `X-Idaas-Rest-…` keys:
/// - `…/authenticate`: `USERCREDENTIAL` (username, password) → a `USERTOKEN`, its value
///   URL-encoded in the answer (PROVIDERS.md: it "may arrive URL-encoded").
/// - `…/access`: `TOKEN` (a live user token), the application context (a request context one
///   of the WebGates issued in a challenge) and the full resource URL (under that WebGate) → an
///   `ACCESSTOKEN` only that WebGate accepts.
/// - `…/logout`: `TOKEN` (the user token) ends the session; its access tokens die with it.
///   The path is UNVERIFIED (no public source names it).
/// - `mobileoamauthentication/register` and the mobile service's handle rules: see
///   `OAMRestRoutes+Registration`.
/// A refused credential is 401, as PROVIDERS.md says to read it.
struct OAMRestRoutes: Sendable {
    let state: EmulatorState

    static let services: Set<String> = ["oamauthentication", "mobileoamauthentication"]

    func handle(_ r: EmulatorRequest) async -> EmulatorResponse? {
        guard r.path.hasPrefix("/oic_rest/rest/") else { return nil }
        let parts = r.path.dropFirst("/oic_rest/rest/".count).split(separator: "/").map(String.init)
        guard parts.count == 2, Self.services.contains(parts[0]), r.method == "POST" else { return .notFound }
        let body = (try? JSONSerialization.jsonObject(with: r.body)) as? [String: Any] ?? [:]
        // Field names are read case-blind: the third-party sources differ in case.
        var f: [String: String] = [:]
        for (k, v) in body { if let s = v as? String { f[k.lowercased()] = s } }
        await record(r, operation: parts[1], fields: f)
        if let forced = await state.takeForced(path: r.path) {
            return .json(forced.status ?? 500, ["message": "Forced failure."])
        }
        let domain = await state.directory.oamServiceDomain ?? "MobileServiceDomain"
        guard r.headers["x-idaas-servicedomain"] == domain else {
            return Self.refusal(400, "The service domain is missing or unknown (X-IDAAS-SERVICEDOMAIN); this server's is \(domain).")
        }
        if parts[0] == Self.mobile, let refused = await registeredClient(r, operation: parts[1], fields: f) { return refused }
        switch parts[1] {
        case "authenticate": return await authenticate(f)
        case "access": return await access(f)
        case "logout": return await logout(r, f)
        case "register" where parts[0] == Self.mobile: return await register(body, f)
        default: return .notFound
        }
    }

    func authenticate(_ f: [String: String]) async -> EmulatorResponse {
        guard f["x-idaas-rest-subject-type"] == "USERCREDENTIAL", f["x-idaas-rest-new-token-type-to-create"] == "USERTOKEN" else {
            return Self.refusal(400, "Expected X-Idaas-Rest-Subject-Type USERCREDENTIAL and X-Idaas-Rest-New-Token-Type-To-Create USERTOKEN.")
        }
        guard let user = await state.directory.user(f["x-idaas-rest-subject-username"] ?? ""),
              user.password == f["x-idaas-rest-subject-password"] else {
            return Self.refusal(401, "Invalid user credentials.")
        }
        let name = user.username
        let token = await state.withOAMRest { $0.issueUserToken(user: name) }
        return Self.token("USERTOKEN", formEscape(token), user: name)
    }

    func access(_ f: [String: String]) async -> EmulatorResponse {
        guard f["x-idaas-rest-subject-type"] == "TOKEN", f["x-idaas-rest-new-token-type-to-create"] == "ACCESSTOKEN" else {
            return Self.refusal(400, "Expected X-Idaas-Rest-Subject-Type TOKEN and X-Idaas-Rest-New-Token-Type-To-Create ACCESSTOKEN.")
        }
        let userToken = Self.decoded(f["x-idaas-rest-subject-value"] ?? "")
        guard let user = await state.withOAMRest({ $0.liveUser(userToken) }) else {
            return Self.refusal(401, "The user token is invalid or has been revoked.")
        }
        let ctx = f["x-idaas-rest-application-context"] ?? ""
        let resourcePath = URLComponents(string: f["x-idaas-rest-application-resource"] ?? "")?.path ?? ""
        guard let gate = await state.withOAMRest({ $0.contexts[ctx] }),
              OAMRestSessions.webGate(path: resourcePath)?.name == gate else {
            return Self.refusal(400, "The application context is not one a WebGate issued, or the resource is not behind that WebGate.")
        }
        let token = await state.withOAMRest { $0.issueAccessToken(user: user, webGate: gate, userToken: userToken) }
        return Self.token("ACCESSTOKEN", token, user: user)
    }

    /// A user token sent back as it was received, or percent-decoded when it was sent encoded.
    static func decoded(_ value: String) -> String {
        value.contains("%") ? (value.removingPercentEncoding ?? value) : value
    }

    static func token(_ type: String, _ value: String, user: String) -> EmulatorResponse {
        .json(200, ["X-Idaas-Rest-Provider-Type": "OAM_11G", "X-Idaas-Rest-Token-Type": type,
                    "X-Idaas-Rest-Token-Value": value, "X-Idaas-Rest-User-Principal": user])
    }

    static func refusal(_ status: Int, _ message: String) -> EmulatorResponse {
        .json(status, ["X-Idaas-Rest-Provider-Type": "OAM_11G", "message": message])
    }

    /// Records the call without its secrets: the password and token values become "present".
    func record(_ r: EmulatorRequest, operation: String, fields: [String: String]) async {
        var seen: [String: String] = ["path": r.path, "operation": operation,
                                      "service_domain": r.headers["x-idaas-servicedomain"] ?? "",
                                      "user_agent": r.headers["user-agent"] ?? "", "content_type": r.headers["content-type"] ?? ""]
        for (k, v) in fields {
            seen[k] = k.hasSuffix("-password") || k.hasSuffix("-subject-value") ? "present" : v
        }
        if let auth = r.headers["x-idaas-rest-authorization"] {
            seen["authorization_scheme"] = String(auth.prefix { $0 != " " })
            seen["authorization_client"] = OAMRestHandles.credential(auth)?.clientId ?? ""
            seen["registration"] = await state.withOAMRestHandles { $0.status(auth) }
        }
        let call = OAMRestSessions.Call(fields: seen)
        await state.withOAMRest { $0.calls.append(call) }
    }
}
