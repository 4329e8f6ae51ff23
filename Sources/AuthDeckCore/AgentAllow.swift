/// One `[[agent]]` entry of config.toml: a standing "yes" for hosts matching `host` asking for
/// the named accounts (and, when given, only those scopes), until `expires`.
///
/// Why a standing list beside the person's confirmation: a build host that asks every few
/// minutes must not wake the person each time, and an entry that lapses (`expires`) puts the
/// question back to them instead of answering forever.
public struct AgentAllow: Equatable, Sendable {
    /// A glob over the host name (`*` any run, `?` one character; case-insensitive).
    public var host: String
    /// Account ids, `provider/username`, usernames or provider ids (a provider: any of its accounts).
    public var accounts: [String]
    /// The scopes it allows; nil: any. A request for other scopes (or for cookies) is not covered.
    public var scopes: [String]?
    /// When the entry stops allowing; nil: never.
    public var expires: Instant?
    /// Its position in config.toml (1-based), for events and messages ("[[agent]] #2").
    public var index: Int

    public init(host: String, accounts: [String], scopes: [String]? = nil, expires: Instant? = nil, index: Int = 1) {
        self.host = host
        self.accounts = accounts
        self.scopes = scopes
        self.expires = expires
        self.index = index
    }

    /// Whether the entry names `account`: by id, `provider/username`, username (case-insensitive)
    /// or provider id. Exact names only: a prefix that matches today may match a new account tomorrow.
    public func names(_ account: Account) -> Bool {
        accounts.contains { name in
            let lower = name.lowercased()
            return name == account.id || lower == account.username.lowercased() || name == account.providerId
                || lower == (account.providerId + "/" + account.username).lowercased()
        }
    }

    /// Whether it covers `scopes` (what the request asked, or the provider's when it asked none);
    /// `nil` scopes: a cookie or route answer, covered only by an entry that names no scopes.
    public func covers(scopes asked: [String]?) -> Bool {
        guard let scopes else { return true }
        guard let asked, !asked.isEmpty else { return false }
        return asked.allSatisfy(scopes.contains)
    }

    /// Whether `host` matches the entry's pattern.
    public func matches(host name: String) -> Bool {
        Self.glob(Array(host.lowercased().unicodeScalars), Array(name.lowercased().unicodeScalars))
    }

    public func expired(at now: Instant) -> Bool {
        expires.map { $0 <= now } ?? false
    }

    /// `*` and `?` matching with backtracking on the last star: linear in practice, no recursion.
    static func glob(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
        var p = 0, t = 0
        var star: Int? = nil, mark = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == text[t]) {
                p += 1; t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p; mark = t; p += 1
            } else if let s = star {
                p = s + 1; mark += 1; t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
