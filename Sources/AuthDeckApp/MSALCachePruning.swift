import AuthDeckCore
import AuthDeckProviders

/// Removing accounts from another tool's MSAL token cache (Azure CLI's), under the cache's lock
/// and with a backup beside it (`MSALCacheFile.update`), or only previewing what would go.
///
/// What is removed: by default the accounts without a refresh token (half-finished sign-ins,
/// which break the next silent sign-in); with `keep`, everyone else; with `tenant`, the
/// accounts of other tenants (per realm); with `reasons`, the accounts with those verdicts too.
public struct MSALCachePruning: Sendable {
    /// Users kept (usernames or home account ids, lowercased).
    let keep: Set<String>
    let tenant: String?
    let reasons: Set<MSALCache.Verdict>

    /// The accounts removed (or that would be), the entries removed by kind, and the backup.
    public struct Result: Sendable {
        public var accounts: [MSALCache.Entry]
        public var entries: [String: [String]]
        public var backup: String?
    }

    public init(keep: [String], tenant: String?, reasons: Set<MSALCache.Verdict>) {
        self.keep = Set(keep.map { $0.lowercased() })
        self.tenant = tenant
        self.reasons = reasons
    }

    /// Whether `entry` goes.
    func selects(_ entry: MSALCache.Entry) -> Bool {
        if keep.isEmpty && tenant == nil && reasons.isEmpty { return entry.verdicts.contains(.noRefreshToken) }
        if !keep.isEmpty, !keep.contains(entry.username.lowercased()), !keep.contains(entry.homeAccountId.lowercased()) { return true }
        if tenant != nil, entry.verdicts.contains(.wrongTenant) { return true }
        return !reasons.isDisjoint(with: entry.verdicts)
    }

    /// Prunes `file` (nothing changes with `dryRun`), waiting up to `lockTimeout` seconds for
    /// another process's lock. Throws `MSALCacheFile.FileError`.
    public func run(_ file: MSALCacheFile, lockTimeout: Double, now: Instant, dryRun: Bool) throws -> Result {
        let (result, backup) = try file.update(lockTimeout: lockTimeout, now: now, dryRun: dryRun) {
            cache -> ((accounts: [MSALCache.Entry], entries: [String: [String]]), changed: Bool) in
            let selected = cache.entries(tenant: tenant).filter(selects)
            var copy = cache
            let removed = copy.remove(accountKeys: Set(selected.map(\.key)))
            if !dryRun { cache = copy }
            return ((selected, removed), !selected.isEmpty)
        }
        return Result(accounts: result.accounts, entries: result.entries, backup: backup)
    }
}
