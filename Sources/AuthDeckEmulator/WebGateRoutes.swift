import Foundation

/// REST services behind 11g R2 WebGates (PROVIDERS.md §5, "WebGate-protected REST"): two
/// WebGates (`OAMRestSessions.webGates`), each under its own path prefix, and a hostile one.
///
/// - `GET|POST /webgate/hr/…`, `/webgate/payroll/…`: with `Authorization: OAM-Auth <token>`
///   and an access token minted for this WebGate, the caller and path as JSON. Without one (or
///   with a refused one), a caller whose User-Agent starts with the configured prefix gets `401`
///   `WWW-Authenticate: OAM-Auth realm="<WebGate>:<level> <prefix>", request-ctx="<fresh ctx>"`;
///   any other caller is redirected to a login page, as a browser would be.
/// - `/webgate/hostile/<style>`: always a 401 challenge whose realm or request-ctx carries
///   `escapes` (backslash-escaped quotes and terminal escapes), `quotes` (unbalanced), or
///   `huge` (a 100 KB request context, under libcurl's 100 KiB header limit so a client sees it), for clients that must stay inert and capped.
struct WebGateRoutes: Sendable {
    let state: EmulatorState

    func handle(_ r: EmulatorRequest) async -> EmulatorResponse? {
        guard r.path.hasPrefix("/webgate/") else { return nil }
        if r.path.hasPrefix("/webgate/hostile/") { return Self.hostile(String(r.path.dropFirst("/webgate/hostile/".count))) }
        guard let gate = OAMRestSessions.webGate(path: r.path) else { return .notFound }
        if let auth = r.headers["authorization"], auth.lowercased().hasPrefix("oam-auth ") {
            let token = String(auth.dropFirst("OAM-Auth ".count)).trimmingCharacters(in: .whitespaces)
            if let user = await state.withOAMRest({ $0.accept(token, webGate: gate.name) }) {
                return .json(200, ["webgate": gate.name, "user": user, "path": r.path, "method": r.method])
            }
        }
        let prefix = await state.directory.webGateUserAgentPrefix ?? "OIC"
        guard (r.headers["user-agent"] ?? "").hasPrefix(prefix) else {
            return .redirect("/oam/server/obrareq.cgi?wh=\(gate.name)")
        }
        let ctx = await state.withOAMRest { $0.issueContext(webGate: gate.name) }
        return Self.challenge(realm: gate.realm, context: ctx)
    }

    static func challenge(realm: String, context: String) -> EmulatorResponse {
        EmulatorResponse(status: 401, headers: [("WWW-Authenticate", "OAM-Auth realm=\"\(realm)\", request-ctx=\"\(context)\""),
                                                ("Content-Type", "text/plain")],
                         body: Data("Authentication required.".utf8))
    }

    static func hostile(_ style: String) -> EmulatorResponse {
        switch style {
        case "escapes":
            // A backslash-escaped quote that tries to end the realm early and smuggle a second
            // request-ctx, and terminal escapes (a screen clear, an OSC 8 link) in both values.
            return challenge(realm: #"Web\"Gate"# + "\u{1b}[2J:2 /x" + #"\", request-ctx=\"stolen"#,
                             context: "ctx\u{1b}]8;;http://evil.example/\u{7}link" + #"\"q"#)
        case "quotes":
            return EmulatorResponse(status: 401, headers: [("WWW-Authenticate", #"OAM-Auth realm="WebGateQ:2 /webgate/q, request-ctx="a"b""#)],
                                    body: Data())
        case "huge":
            return challenge(realm: "WebGateHuge:2 /webgate/hostile/huge", context: String(repeating: "A", count: 100_000))
        default:
            return .notFound
        }
    }
}
