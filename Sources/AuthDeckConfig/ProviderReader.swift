import Foundation
import TOMLKit
import AuthDeckCore

/// Reads and validates one `[[provider]]` table.
enum ProviderReader {
    static let keys = ["id", "kind", "client_id", "scopes", "flow", "endpoints", "options",
                       "client_secret_file", "client_secret_env", "renew_before"]

    static func read(_ table: TOMLTable, index: Int, path: String) throws -> ProviderProfile {
        let anonymous = TableReader(table: table, path: path, location: "provider #\(index + 1)")
        let id = try anonymous.requiredString("id")
        guard isSlug(id) else {
            throw anonymous.fail("\"id\" must be a short name of letters, digits, '-' and '_' (found \"\(id)\")")
        }
        let r = TableReader(table: table, path: path, location: "provider \"\(id)\"")
        try r.rejectUnknown(keys, hint: [
            "client_secret": "secrets are never read from config.toml; use client_secret_file or client_secret_env",
            "password": "passwords are never read from config.toml; sign in with `authdeck login`",
        ])
        let kindText = try r.requiredString("kind")
        guard let kind = ProviderKind(rawValue: kindText) else {
            throw r.fail("\"kind\" must be one of \(ProviderKind.allCases.map(\.rawValue).joined(separator: ", ")) (found \"\(kindText)\")")
        }
        var flow: SignInFlow?
        if let f = try r.string("flow") {
            guard let parsed = SignInFlow(rawValue: f) else {
                throw r.fail("\"flow\" must be one of \(SignInFlow.allCases.map(\.rawValue).joined(separator: ", ")) (found \"\(f)\")")
            }
            flow = parsed
        }
        let endpoints = try r.stringTable("endpoints", scalars: false)
        for (name, url) in endpoints.sorted(by: { $0.key < $1.key }) {
            guard let u = URL(string: url), let scheme = u.scheme?.lowercased(), ["https", "http"].contains(scheme), u.host != nil else {
                throw r.fail("\"endpoints.\(name)\" must be an http(s) URL (found \"\(url)\")")
            }
        }
        let scopes = try r.stringArray("scopes") ?? []
        if let bad = scopes.first(where: { $0.isEmpty || $0.contains(" ") }) {
            throw r.fail("\"scopes\" items must be single scopes without spaces (found \"\(bad)\"); list each scope separately")
        }
        var options = try r.stringTable("options", scalars: true)
        if kind == .sharepoint, let site = options["site"] {
            // Normalised here, once: everything after matches cookies and origins against
            // the bare host, whichever way the person wrote it.
            do { options["site"] = try SiteHost(parsing: site).host } catch {
                throw r.fail("\"options.site\" \(error)")
            }
        }
        var profile = ProviderProfile(
            id: id, kind: kind, clientId: try r.string("client_id"), scopes: scopes, flow: flow,
            endpoints: endpoints, options: options,
            clientSecretFile: try r.string("client_secret_file"), clientSecretEnv: try r.string("client_secret_env"))
        if let before = try r.duration("renew_before") { profile.renewBefore = before }
        return profile
    }

    static func isSlug(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 40 && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
