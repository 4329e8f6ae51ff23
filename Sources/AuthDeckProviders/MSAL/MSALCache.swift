import AuthDeckCore
import AuthDeckOAuth

/// An MSAL token cache (MSAL Python / Azure CLI `msal_token_cache.json`, PROVIDERS.md §2),
/// held as the JSON it came from so that unknown sections and fields, and numbers as written,
/// survive a rewrite.
public struct MSALCache: Sendable {
    public private(set) var root: [String: JSONValue]

    /// Why an account entry is suspect.
    public enum Verdict: String, CaseIterable, Sendable {
        /// No refresh token: a sign-in that never completed or a half-done sign-out; this is
        /// what makes later silent sign-ins fail ("multiple accounts").
        case noRefreshToken = "no-refresh-token"
        /// The same user (home account) appears in several tenants.
        case multiTenant = "multi-tenant"
        /// The realm is not the tenant given with `--tenant`.
        case wrongTenant = "wrong-tenant"
        /// Another home account has the same username (ambiguous silent sign-in).
        case duplicateUsername = "duplicate-username"
    }

    /// One `Account` entry (a user in one realm) with what belongs to it.
    public struct Entry: Sendable {
        public var key: String
        public var homeAccountId: String
        public var environment: String
        public var realm: String
        public var username: String
        public var refreshTokenKeys: [String]
        public var refreshTokenModified: [String]
        public var accessTokens: [(key: String, target: String, expiresOn: Int64?)]
        public var idTokenKeys: [String]
        public var claims: [String: String]
        public var verdicts: [Verdict]
    }

    /// A bad cache, named: not JSON, not an object, a section of the wrong shape.
    public struct FormatError: Error, CustomStringConvertible {
        public let description: String
    }

    static let sections = ["AccessToken", "RefreshToken", "IdToken", "Account", "AppMetadata"]

    public init(bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { throw FormatError(description: "the file is empty") }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw FormatError(description: "not valid JSON (truncated or damaged?): \(error)")
        }
        guard case .object(let dict) = value else { throw FormatError(description: "not a JSON object; an MSAL cache is one object of sections") }
        for section in Self.sections {
            guard let value = dict[section] else { continue }
            guard let entries = value.object, entries.values.allSatisfy({ $0.object != nil }) else {
                throw FormatError(description: "section \"\(section)\" is not an object of entries")
            }
        }
        guard Self.sections.contains(where: { dict[$0] != nil }) else {
            throw FormatError(description: "none of the sections AccessToken, RefreshToken, IdToken, Account, AppMetadata is present")
        }
        root = dict
    }

    func section(_ name: String) -> [String: [String: JSONValue]] {
        root[name]?.object?.compactMapValues(\.object) ?? [:]
    }

    /// Every account entry with its tokens and verdicts; `tenant` turns on the wrong-tenant verdict.
    public func entries(tenant: String? = nil) -> [Entry] {
        let accounts = section("Account"), rts = section("RefreshToken"), ats = section("AccessToken"), ids = section("IdToken")
        func s(_ d: [String: JSONValue], _ k: String) -> String { d[k]?.string ?? "" }
        // Tokens grouped by owner once, so a cache of thousands of accounts is read in linear time.
        func byOwner(_ section: [String: [String: JSONValue]], realm: Bool) -> [String: [String: [String: JSONValue]]] {
            var out: [String: [String: [String: JSONValue]]] = [:]
            for (k, v) in section {
                out[s(v, "home_account_id") + "\u{0}" + s(v, "environment") + (realm ? "\u{0}" + s(v, "realm") : ""), default: [:]][k] = v
            }
            return out
        }
        let rtsByUser = byOwner(rts, realm: false), atsByRealm = byOwner(ats, realm: true), idsByRealm = byOwner(ids, realm: true)
        var out: [Entry] = accounts.map { key, a in
            let hid = s(a, "home_account_id"), env = s(a, "environment"), realm = s(a, "realm")
            let myRTs = rtsByUser[hid + "\u{0}" + env] ?? [:]
            let myATs = atsByRealm[hid + "\u{0}" + env + "\u{0}" + realm] ?? [:]
            let myIDs = idsByRealm[hid + "\u{0}" + env + "\u{0}" + realm] ?? [:]
            var claims: [String: String] = [:]
            if let raw = myIDs.first.map({ s($0.value, "secret") }), let jwt = try? JWT(compact: raw) {
                for k in ["tid", "preferred_username", "name", "oid"] { if let v = jwt.claims.string(k) { claims[k] = v } }
            }
            return Entry(key: key, homeAccountId: hid, environment: env, realm: realm, username: s(a, "username"),
                         refreshTokenKeys: myRTs.keys.sorted(), refreshTokenModified: myRTs.values.map { s($0, "last_modification_time") },
                         accessTokens: myATs.map { (key: $0.key, target: s($0.value, "target"), expiresOn: Int64(s($0.value, "expires_on"))) },
                         idTokenKeys: myIDs.keys.sorted(), claims: claims, verdicts: [])
        }
        let realmsPerUser = Dictionary(grouping: out, by: { $0.homeAccountId + "|" + $0.environment }).mapValues { Set($0.map(\.realm)) }
        let usersPerName = Dictionary(grouping: out.filter { !$0.username.isEmpty }, by: { $0.username.lowercased() })
            .mapValues { Set($0.map(\.homeAccountId)) }
        for i in out.indices {
            var v: [Verdict] = []
            if out[i].refreshTokenKeys.isEmpty { v.append(.noRefreshToken) }
            if (realmsPerUser[out[i].homeAccountId + "|" + out[i].environment]?.count ?? 0) > 1 { v.append(.multiTenant) }
            if let tenant, out[i].realm.lowercased() != tenant.lowercased() { v.append(.wrongTenant) }
            if (usersPerName[out[i].username.lowercased()]?.count ?? 0) > 1 { v.append(.duplicateUsername) }
            out[i].verdicts = v
        }
        return out.sorted { ($0.username, $0.homeAccountId, $0.realm) < ($1.username, $1.homeAccountId, $1.realm) }
    }

    /// Removes `accountKeys` and every entry that belongs only to them: their realm's access
    /// and id tokens; a user's refresh tokens only once none of that user's realms is left.
    /// Returns the keys removed, by section.
    public mutating func remove(accountKeys: Set<String>) -> [String: [String]] {
        let all = entries()
        let removing = all.filter { accountKeys.contains($0.key) }
        var removed: [String: [String]] = [:]
        func drop(_ section: String, _ keys: [String]) {
            guard !keys.isEmpty, var entries = root[section]?.object else { return }
            for k in keys where entries.removeValue(forKey: k) != nil { removed[section, default: []].append(k) }
            root[section] = .object(entries)
        }
        for e in removing {
            drop("Account", [e.key])
            drop("AccessToken", e.accessTokens.map(\.key))
            drop("IdToken", e.idTokenKeys)
        }
        for e in removing {
            let stillThere = all.contains { $0.homeAccountId == e.homeAccountId && $0.environment == e.environment && !accountKeys.contains($0.key) }
            if !stillThere { drop("RefreshToken", e.refreshTokenKeys) }
        }
        return removed.mapValues { $0.sorted() }
    }

    /// The cache as JSON (sorted keys, so rewrites are stable; each number as it was written).
    public func serialized() -> [UInt8] {
        JSONValue.object(root).sortedText
    }

    /// The refresh token secret of an entry (for `import msal`).
    public func refreshToken(_ key: String) -> (secret: String, clientId: String)? {
        guard let rt = root["RefreshToken"]?.object?[key]?.object, let secret = rt["secret"]?.string else { return nil }
        return (secret, rt["client_id"]?.string ?? "")
    }
}
