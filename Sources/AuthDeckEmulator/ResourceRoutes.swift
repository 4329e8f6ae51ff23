import Foundation

/// A protected API for `authdeck request` tests: what a Graph-like resource server answers.
///
/// - `GET /api/me`: the caller's user for a valid bearer token; 401 with an RFC 6750
///   `WWW-Authenticate: Bearer … error="invalid_token"` challenge otherwise. Like Graph, it
///   refuses a token for another Azure AD resource (a SharePoint site's audience).
/// - `GET /api/bytes?n=N`: N bytes of `a` for a valid token (a body larger than any cap).
/// - `GET|POST /api/redirect?to=URL[&status=302]`: redirects anywhere (an open redirect, as a
///   hostile or careless server has one).
/// - `/api/echo`: the method, headers and body it was sent, as JSON.
struct ResourceRoutes: Sendable {
    let state: EmulatorState

    func handle(_ r: EmulatorRequest) async -> EmulatorResponse? {
        guard r.path.hasPrefix("/api/") else { return nil }
        switch r.path {
        case "/api/me":
            guard let token = r.bearer, let grant = await state.accessGrant(token), Self.forThisAPI(grant) else { return challenge(r) }
            return .json(200, ["user": grant.user ?? grant.clientId, "scopes": grant.scopes.joined(separator: " ")])
        case "/api/bytes":
            guard let token = r.bearer, let grant = await state.accessGrant(token), Self.forThisAPI(grant) else { return challenge(r) }
            let n = min(Int(r.query["n"] ?? "") ?? 0, 64 << 20)
            return EmulatorResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: Data(repeating: 0x61, count: n))
        case "/api/redirect":
            let status = Int(r.query["status"] ?? "") ?? 302
            return EmulatorResponse(status: status, headers: [("Location", r.query["to"] ?? "/api/echo")], body: Data())
        case "/api/echo":
            return .json(200, ["method": r.method, "headers": r.headers, "body": String(decoding: r.body, as: UTF8.self)])
        default:
            return .notFound
        }
    }

    /// Azure AD tokens are for Graph here; another `https://` audience is another resource's.
    static func forThisAPI(_ grant: EmulatorState.Grant) -> Bool {
        !grant.audience.hasPrefix("https://") || grant.audience == "https://graph.microsoft.com"
    }

    func challenge(_ r: EmulatorRequest) -> EmulatorResponse {
        let error = r.bearer == nil ? "" : ", error=\"invalid_token\", error_description=\"The access token expired or was revoked\""
        return EmulatorResponse(status: 401, headers: [("WWW-Authenticate", "Bearer realm=\"authdeck-idp\"\(error)"),
                                                       ("Content-Type", "application/json")],
                                body: Data(#"{"error":"invalid_token"}"#.utf8))
    }
}
