import AuthDeckCore

/// A password being typed into the deck: its characters, which nothing draws or prints.
///
/// Why its own type: the deck's state is a value that tests and frame logs describe; the
/// characters must not be in any description of it (only their count is drawn, as dots).
public struct PasswordEntry: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    private var characters: [Character] = []
    /// Longer than any password a provider takes: a paste gone wrong stops here.
    static let limit = 1024

    public init() {}

    public var count: Int { characters.count }
    public var isEmpty: Bool { characters.isEmpty }

    public mutating func type(_ c: Character) {
        if characters.count < Self.limit { characters.append(c) }
    }

    public mutating func erase() {
        if !characters.isEmpty { characters.removeLast() }
    }

    /// The password, to hand to the sign-in.
    public var secret: Secret { Secret(String(characters)) }

    public var description: String { "‹\(count) characters›" }
    public var debugDescription: String { description }
}
