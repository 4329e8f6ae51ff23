import Foundation

/// Where a command's words go: the process's stdout and stderr (`StandardStreams`), or a
/// test's buffers.
///
/// Why a port: a command that writes through the static `Output` can be tested only by
/// running the binary; one that writes through its context's `output` runs in-process with
/// a store, config and adapters of the test's own (`DeckContext`'s other ports).
protocol CommandOutput: Sendable {
    /// Exactly `text` to stdout (no newline added): tokens, jars, JSON, sentences.
    func raw(_ text: String)
    /// A line to stderr, inert (`Output.note`).
    func note(_ message: String)
    /// `authdeck: warning: …` to stderr (`Output.warning`).
    func warning(_ message: String)
}

extension CommandOutput {
    /// `value` as stable JSON (sorted keys, pretty, slashes unescaped) and a newline.
    func json<T: Encodable>(_ value: T) throws {
        raw(String(decoding: try Output.jsonData(value), as: UTF8.self))
    }
}

/// The process's own streams, through `Output`'s rules (inert stderr, a failed write ends
/// the command).
struct StandardStreams: CommandOutput {
    func raw(_ text: String) { Output.raw(text) }
    func note(_ message: String) { Output.note(message) }
    func warning(_ message: String) { Output.warning(message) }
}
