import Foundation
import TOMLKit
import AuthDeckCore

/// Reads and validates one `[[credential]]` table (`url`, `account`, `scopes`, `username`).
enum CredentialReader {
    static let keys = ["url", "account", "scopes", "username", "registry", "ca_file"]

    static func read(_ table: TOMLTable, index: Int, path: String) throws -> CredentialRoute {
        let r = TableReader(table: table, path: path, location: "credential #\(index + 1)")
        try r.rejectUnknown(keys, hint: [
            "password": "passwords and tokens are never read from config.toml; the account's token is served",
            "token": "tokens are never read from config.toml; the account's token is served",
        ])
        let url = try r.requiredString("url")
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased(), ["https", "http"].contains(scheme), let host = u.host, !host.isEmpty,
              u.query == nil, u.fragment == nil, u.user == nil else {
            throw r.fail("\"url\" must be scheme://host[:port][/path] with http or https, no query, fragment or user (found \"\(url)\")")
        }
        let account = try r.requiredString("account")
        guard !account.isEmpty else { throw r.fail("\"account\" must name an account or a provider") }
        let scopes = try r.stringArray("scopes") ?? []
        if let bad = scopes.first(where: { $0.isEmpty || $0.contains(" ") }) {
            throw r.fail("\"scopes\" items must be single scopes without spaces (found \"\(bad)\")")
        }
        let registry = try r.string("registry")
        if let registry, !["acr", "docker"].contains(registry) {
            throw r.fail("\"registry\" must be \"acr\" (an Azure Container Registry) or \"docker\" (another registry) (found \"\(registry)\")")
        }
        return CredentialRoute(url: url, account: account, scopes: scopes, username: try r.string("username"), registry: registry,
                               caFile: try r.string("ca_file"))
    }
}
