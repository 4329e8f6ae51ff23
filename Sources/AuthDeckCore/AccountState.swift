/// What an account can do right now, DERIVED from credentials, clock and last error.
///
/// Never stored: `derive` recomputes it, so a state can never disagree with the
/// credentials it describes. Invariants:
/// - a `transient` last error has no effect on the state (a network blip never downgrades);
/// - an account with a usable credential is `signedIn` or `expiringSoon`, whatever failed
///   before, because it can still act;
/// - `stale` comes only from the prune policy, which sees all accounts at once.
public enum AccountState: Equatable, Hashable, Sendable {
    case signedIn
    case expiringSoon
    /// Its credential has not expired yet, but is inside the clock-skew margin, so authdeck no
    /// longer presents it; it can be renewed silently, and is at the next use (or by the open
    /// deck at once). Why a state of its own: one name for it everywhere, rather than "renew
    /// due" in the deck, "expired (renewable)" in `accounts` and `"expired"` beside
    /// `expires_in_seconds: 5` in JSON.
    case renewDue
    /// Nothing usable is held; `renewable` says whether a silent renewal can be tried.
    case expired(renewable: Bool)
    /// A person must sign in again; the reason is the remedy sentence.
    case needsSignIn(reason: String)
    /// Sign-in failed for a reason a retry will not fix (config, declined, never completed).
    case failed(reason: String)
    /// A prune candidate.
    case stale(reason: PruneReason)

    /// The stable machine name used in `--json` output and exit decisions.
    public var key: String {
        switch self {
        case .signedIn: return "signed_in"
        case .expiringSoon: return "expiring_soon"
        case .renewDue: return "renew_due"
        case .expired: return "expired"
        case .needsSignIn: return "needs_sign_in"
        case .failed: return "failed"
        case .stale: return "stale"
        }
    }

    /// A short label for tables.
    public var label: String {
        switch self {
        case .signedIn: return "signed in"
        case .expiringSoon: return "expiring soon"
        case .renewDue: return "renew due"
        case .expired(let renewable): return renewable ? "expired (renewable)" : "expired"
        case .needsSignIn: return "needs sign-in"
        case .failed: return "failed"
        case .stale: return "stale"
        }
    }

    /// The explanation that goes with the state, when there is one.
    public var reason: String? {
        switch self {
        case .signedIn, .expiringSoon: return nil
        case .renewDue: return "inside the clock-skew margin; renewed silently at the next use"
        case .expired(let renewable):
            return renewable ? "expired; can be renewed silently" : "expired; sign in again"
        case .needsSignIn(let reason), .failed(let reason): return reason
        case .stale(let reason): return reason.sentence
        }
    }

    /// The position of `key` in `allKeys`.
    public var keyIndex: Int {
        switch self {
        case .signedIn: return 0
        case .expiringSoon: return 1
        case .renewDue: return 2
        case .expired: return 3
        case .needsSignIn: return 4
        case .failed: return 5
        case .stale: return 6
        }
    }

    /// Whether the account can present a credential right now.
    public var isUsable: Bool {
        switch self {
        case .signedIn, .expiringSoon: return true
        default: return false
        }
    }

    /// Derives the state of one account at `now`.
    ///
    /// - Parameters:
    ///   - silentRenewal: the account holds what its provider renews with besides a refresh
    ///     token (`ProviderCapabilities.renewsWithoutRefreshToken`).
    ///   - staleReason: the prune policy's verdict for this account, if any; it wins.
    public static func derive(
        _ stored: StoredAccount, policy: StatePolicy, now: Instant,
        silentRenewal: Bool = false, staleReason: PruneReason? = nil
    ) -> AccountState {
        if let staleReason { return .stale(reason: staleReason) }
        let credentials = stored.credentials
        if credentials.hasUsableCredential(at: now, skew: policy.clockSkew) {
            guard let until = credentials.usableUntil(at: now, skew: policy.clockSkew) else { return .signedIn }
            return until - policy.clockSkew - now <= policy.expiringSoonWindow ? .expiringSoon : .signedIn
        }
        if let error = stored.account.lastError {
            switch error.errorClass {
            case .needsInteraction: return .needsSignIn(reason: error.remedy)
            case .misconfigured, .declined: return .failed(reason: error.remedy)
            case .transient: break
            }
        }
        if stored.account.lastSignInAt == nil, credentials.isEmpty {
            return .failed(reason: "sign-in never completed")
        }
        let renewable = (credentials.refreshToken?.isUsable(at: now) ?? false) || silentRenewal
        // Nothing that ever expired is held (signed out, preferences kept): there is nothing
        // to renew, and "expired" would be untrue.
        if !renewable, credentials.accessTokens.isEmpty, credentials.cookies.isEmpty {
            return .needsSignIn(reason: "holds no token; sign in again")
        }
        // Not expired yet, only inside the margin: renewable, and said so.
        if renewable, credentials.hasUsableCredential(at: now, skew: .seconds(0)) { return .renewDue }
        return .expired(renewable: renewable)
    }

    /// Whether a silent renewal can be tried (`renewable` in JSON: emitted for these states).
    public var renewable: Bool? {
        switch self {
        case .renewDue: return true
        case .expired(let renewable): return renewable
        default: return nil
        }
    }
}
