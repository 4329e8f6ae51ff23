import AuthDeckCore

/// What a silent renewal has to achieve. Every caller names its need and `Renewal` alone turns
/// it into "renew or not, how far ahead", so the use cases that renew (token, cookies, exec,
/// watch, the deck) cannot disagree about when an account is due.
public enum RenewalNeed: Sendable, Equatable {
    /// Credentials usable now — a token for `scopes` (empty: the provider's) or a cookie set
    /// that outlives the clock-skew margin (`token`, `cookies`, the helpers).
    case usableNow(scopes: [String])
    /// Credentials that outlive the provider's `renew_before` (`exec`, `watch`, the deck's
    /// renewal ahead of expiry). Only this need is paced: nobody waits on it.
    case ahead(scopes: [String])
    /// Credentials that outlive the "expiring soon" window (`refresh --all`).
    case expiringSoon
    /// A renewal now, however fresh the credential looks (`refresh NAME`, `--force`, the
    /// deck's Enter and `R`).
    case force
}
