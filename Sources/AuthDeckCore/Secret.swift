/// A credential value (token, cookie value, password, assertion) that refuses to print itself.
///
/// Interpolating a `Secret` into a log line, an error or `--json` output yields a redaction
/// marker, so a slip cannot leak it; the few places that must send or seal it read
/// `exposedValue`, which is easy to audit with grep.
///
/// A secret can also be *unopened*: listings (`accounts`, `status`, the deck) read expiries
/// and kinds but never need a value, so the store skips decrypting it. Using an unopened
/// secret is a programming error and stops the process, rather than sending an empty token.
public struct Secret: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    private let storage: String?

    public init(_ value: String) { self.storage = value }

    private init(unopened: Void) { self.storage = nil }

    /// A value that was deliberately not decrypted.
    public static let unopened = Secret(unopened: ())


    public var exposedValue: String {
        guard let storage else {
            preconditionFailure("an unopened secret was used; read the account with its secrets (store.account(id:))")
        }
        return storage
    }

    public var description: String { "‹redacted›" }
    public var debugDescription: String { "Secret(‹redacted›)" }
    public var isEmpty: Bool { storage?.isEmpty ?? false }
    /// Whether the value was deliberately not decrypted (`unopened`).
    public var isUnopened: Bool { storage == nil }
}
