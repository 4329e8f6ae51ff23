import Foundation
import AuthDeckCore

/// Where a command's words go: the process's stdout and stderr (`StandardStreams`), or a
/// test's buffers.
///
/// Why a port: a command that writes through the static `Output` can be tested only by
/// running the binary; one that writes through its context's `output` runs in-process with
/// a store, config and adapters of the test's own (`DeckContext`'s other ports).
protocol CommandOutput: Sendable {
    /// Exactly `text` to stdout (no newline added): tokens, jars, JSON, sentences.
    func raw(_ text: String)
    /// `text` to stderr as inert text, no newline added (`Output.stderr`): a question's
    /// prompt, the deck's words after it gives the terminal back.
    func stderr(_ text: String)
    /// Exactly `buffer` to stdout: a streamed listing (`accounts --json`) in pieces, which may
    /// end inside a character (so a buffer keeps bytes, not text).
    func bytes(_ buffer: UnsafeRawBufferPointer)
    /// Called when a command has written everything and holds much memory: the process's
    /// streams end the process there (the kernel takes the memory back at once, nothing is
    /// freed piece by piece); a test's buffers return, and the command with them.
    func finishedStreaming()
}

extension CommandOutput {
    func finishedStreaming() {}

    /// A line to stderr, inert (`Output.note`).
    func note(_ message: String) { stderr(message + "\n") }

    /// `authdeck: warning: …` to stderr (`Output.warning`).
    func warning(_ message: String) { stderr("authdeck: warning: " + message + "\n") }

    /// Text for a person to stdout (tables, `status`), its punctuation in ASCII outside a
    /// UTF-8 locale (`Output.prose`).
    func prose(_ text: String) { raw(ProseCharset.spelled(text)) }

    /// `authdeck: …` to stderr (`Output.error`): a failure said before the exit status.
    func error(_ message: String) { note("authdeck: " + message) }

    /// `value` as stable JSON (sorted keys, pretty, slashes unescaped) and a newline.
    func json<T: Encodable>(_ value: T) throws {
        raw(String(decoding: try Output.jsonData(value), as: UTF8.self))
    }
}

/// The process's own streams, through `Output`'s rules (inert stderr, a failed write ends
/// the command).
struct StandardStreams: CommandOutput {
    func raw(_ text: String) { Output.raw(text) }
    func stderr(_ text: String) { Output.stderr(text) }
    func bytes(_ buffer: UnsafeRawBufferPointer) { Output.write(buffer) }
    func finishedStreaming() { Foundation.exit(ExitStatus.ok) }
}
