/// The port that seals secrets at rest: authenticated encryption bound to a context.
///
/// `context` names where the ciphertext lives (table, row, column); opening it under any
/// other context fails, so a sealed token cannot be copied onto another account's row.
public protocol SecretBox: Sendable {
    func seal(_ plaintext: [UInt8], context: String) throws -> [UInt8]
    func open(_ sealed: [UInt8], context: String) throws -> [UInt8]
}
