/// Why an account is a prune candidate. Each case names a way caches go bad in practice.
public enum PruneReason: Equatable, Hashable, Sendable {
    /// Created, never signed in, nothing held: an abandoned or failed sign-in.
    case signInNeverCompleted
    /// Renewal was rejected (needs interaction) at `since` and nobody signed in since.
    case renewalRejected(since: Instant)
    /// The provider pins a tenant and this account lives in another (dev/prod mix-up).
    case wrongTenant(expected: String, actual: String)
    /// Another account of the same provider has the same subject; `keptId` stays.
    case duplicate(keptId: String)
    /// Not used for `days` whole days, which is at least `limit` (`[prune] unused_after` or
    /// `--older-than`). The limit is kept so the sentence says what was asked: "unused for 0
    /// days" read as a bug for accounts used minutes ago under `--older-than 1m`. Whole days,
    /// not seconds, so the verdict compares equal from one second to the next.
    case unused(days: Int, limit: TimeSpan)
    /// Its provider is no longer in the config.
    case providerRemoved(providerId: String)

    /// The stable name used by `--reason` flags and `--json`.
    public var key: String {
        switch self {
        case .signInNeverCompleted: return "never-completed"
        case .renewalRejected: return "rejected"
        case .wrongTenant: return "wrong-tenant"
        case .duplicate: return "duplicate"
        case .unused: return "unused"
        case .providerRemoved: return "provider-removed"
        }
    }

    public static let allKeys = ["never-completed", "rejected", "wrong-tenant", "duplicate", "unused", "provider-removed"]

    /// One sentence a person can act on.
    public var sentence: String {
        switch self {
        case .signInNeverCompleted: return "sign-in never completed"
        case .renewalRejected(let since): return "renewal rejected since \(since.iso8601); nobody signed in again"
        case .wrongTenant(let expected, let actual): return "wrong tenant: \(actual), provider expects \(expected)"
        case .duplicate(let keptId): return "duplicate of \(keptId)"
        case .unused(let days, let limit):
            let idle = days == 0 ? "less than a day" : days == 1 ? "1 day" : "\(days) days"
            return "unused for \(idle) (older than \(limit))"
        case .providerRemoved(let providerId): return "provider \"\(providerId)\" is no longer configured"
        }
    }
}
