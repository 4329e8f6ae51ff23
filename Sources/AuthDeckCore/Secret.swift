/// A credential value (token, cookie value, password, assertion) that refuses to print itself.
///
/// Interpolating a `Secret` into a log line, an error or `--json` output yields a redaction
/// marker, so a slip cannot leak it; the few places that must send or seal it read
/// `exposedValue`, which is easy to audit with grep.
public struct Secret: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public let exposedValue: String

    public init(_ value: String) { self.exposedValue = value }

    public var description: String { "‹redacted›" }
    public var debugDescription: String { "Secret(‹redacted›)" }
    public var isEmpty: Bool { exposedValue.isEmpty }
}
