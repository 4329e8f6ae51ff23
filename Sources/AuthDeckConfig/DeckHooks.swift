/// `[hooks]`: shell commands `authdeck watch` runs when something happens to an account.
///
/// Why shell strings: the usual hook is one line (`notify-send authdeck "…"`), and `sh -c`
/// lets it use the `AUTHDECK_*` variables it gets — the account id, provider, username,
/// event and expiry, never a token or cookie.
public struct DeckHooks: Equatable, Sendable {
    /// After a silent renewal succeeded.
    public var onRenewed: String?
    /// When an account can no longer renew without a person (once per account and watch).
    public var onNeedsSignIn: String?
    /// Ahead of the expiry of an account that cannot renew silently (once per expiry).
    public var onExpiring: String?

    public init(onRenewed: String? = nil, onNeedsSignIn: String? = nil, onExpiring: String? = nil) {
        self.onRenewed = onRenewed
        self.onNeedsSignIn = onNeedsSignIn
        self.onExpiring = onExpiring
    }

    public static let keys = ["on_renewed", "on_needs_sign_in", "on_expiring"]
}
