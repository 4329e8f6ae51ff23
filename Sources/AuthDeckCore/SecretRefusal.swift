/// Why a secret was not sent, as a sentence that names the secret, the destination and the
/// fix — never the secret itself.
public struct SecretRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// Plain http to a host that is not this machine.
        case plainHTTP
        /// Not a URL with a scheme and a host.
        case notAURL
        /// Another origin or issuer than the grant's home.
        case notHome(GrantHome, now: String)
    }

    public var kind: SecretKind
    public var reason: Reason
    /// The destination as shown: `scheme://host`, inert.
    public var destination: String

    public init(kind: SecretKind, reason: Reason, destination: String) {
        self.kind = kind
        self.reason = reason
        self.destination = destination
    }

    /// A grant that moved needs the person (sign in again at the new place); a bad URL is
    /// the config's fault.
    public var errorClass: ErrorClass {
        if case .notHome = reason { return .needsInteraction }
        return .misconfigured
    }

    public var code: String {
        if case .notHome = reason { return "grant_moved" }
        return "insecure_endpoint"
    }

    public var description: String {
        switch reason {
        case .plainHTTP:
            return "refusing to send the \(kind.rawValue) to \(destination) over plain http, where it could be read on the way; "
                + "use https (plain http is allowed only to this machine); nothing was sent"
        case .notAURL:
            return "refusing to send the \(kind.rawValue) to \(destination): not an http(s) URL; nothing was sent"
        case .notHome(let home, let now):
            return "the \(kind.rawValue) was issued by \(TerminalText.inert(home.description)), but the provider now names \(now); "
                + "authdeck sent nothing there — if the move is intended, sign in again to trust the new place"
        }
    }
}
