import AuthDeckCore

/// Where a Facebook app's Graph API lives: `endpoints.graph` (default
/// `https://graph.facebook.com`), `endpoints.www` (default `https://www.facebook.com`, the
/// login dialog), `options.version` (default `v19.0`).
struct FacebookEndpoints: Sendable {
    let graph: String
    let www: String
    let version: String

    init(_ profile: ProviderProfile) {
        func trim(_ s: String) -> String { s.hasSuffix("/") ? String(s.dropLast()) : s }
        graph = trim(profile.endpoints["graph"] ?? "https://graph.facebook.com")
        www = trim(profile.endpoints["www"] ?? "https://www.facebook.com")
        version = profile.options["version"] ?? "v19.0"
    }

    func api(_ path: String) -> String { "\(graph)/\(version)/\(path)" }
    var dialog: String { "\(www)/\(version)/dialog/oauth" }
}
