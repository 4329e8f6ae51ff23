import AuthDeckCore

/// A use case declining what it was asked, worded for the person: `usage` when the request
/// itself is wrong (a provider of the wrong kind, a missing option), `failure` when what it
/// names cannot be used (an unreadable file). Nothing was changed when one is thrown.
public struct Refusal: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable { case usage, failure }
    public let kind: Kind
    public let message: String

    public static func usage(_ message: String) -> Refusal { Refusal(kind: .usage, message: message) }
    public static func failure(_ message: String) -> Refusal { Refusal(kind: .failure, message: message) }

    public var description: String { message }
}

extension Refusal: ReportedError {
    public var sentence: String { message }
    public var exitStatus: Int32 { kind == .usage ? ExitStatus.usage : ExitStatus.failure }
}
