/// The knobs of state derivation: how early "expiring soon" starts and how much clock
/// skew to allow for.
public struct StatePolicy: Equatable, Hashable, Sendable {
    /// An account whose credentials lapse within this window is `expiringSoon`.
    public var expiringSoonWindow: TimeSpan
    /// A credential is treated as expired this long before its stated expiry, so a token
    /// handed to a script is not already dead at a server whose clock runs ahead.
    public var clockSkew: TimeSpan

    public init(expiringSoonWindow: TimeSpan = .minutes(10), clockSkew: TimeSpan = .seconds(60)) {
        self.expiringSoonWindow = expiringSoonWindow
        self.clockSkew = clockSkew
    }

    public static let standard = StatePolicy()
}
