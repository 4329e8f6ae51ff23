import Foundation
import AuthDeckCore

/// Writing to stdout and stderr in one place, so messages share one prefix and style.
///
/// Everything written to stderr passes `TerminalText.inertMessage` here: errors echo
/// arguments, paths from the environment and provider text, and a call site that forgot to
/// make one inert must not let an escape sequence (a window title, a cleared screen) or a
/// bidi override reach the terminal.
enum Output {
    static func error(_ message: String) {
        stderr("authdeck: \(message)\n")
    }

    static func warning(_ message: String) {
        stderr("authdeck: warning: \(message)\n")
    }

    static func note(_ message: String) {
        stderr("\(message)\n")
    }

    /// Writes `text` to stderr as inert text (line breaks kept), its punctuation in ASCII
    /// outside a UTF-8 locale (`ProseCharset`): the one way to stderr.
    static func stderr(_ text: String) {
        FileHandle.standardError.write(Data(ProseCharset.spelled(TerminalText.inertMessage(text)).utf8))
    }

    /// Writes text for a person to stdout (tables, `status`): authdeck's own punctuation in ASCII
    /// outside a UTF-8 locale, as on stderr (`ProseCharset`). Tokens, jars and JSON use `raw`.
    static func prose(_ text: String) {
        raw(ProseCharset.spelled(text))
    }

    /// Writes exactly `text` to stdout (no added newline), for tokens and jars.
    static func raw(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes exactly `buffer` to stdout with write(2); a write that fails ends the command.
    /// Why: a full disk must not pass for success (a cut-short `accounts --json` exited 0) nor
    /// crash (FileHandle's write traps); a reader gone (`| head`) ends it as SIGPIPE would.
    static func write(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let n = Glibc.write(STDOUT_FILENO, base + offset, buffer.count - offset)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { failed(n < 0 ? errno : EIO) }
            offset += n
        }
    }

    static func failed(_ code: Int32) -> Never {
        if code == EPIPE {
            signal(SIGPIPE, SIG_DFL)
            kill(getpid(), SIGPIPE)
        }
        error("cannot write to standard output: \(String(cString: strerror(code)))")
        exit(ExitStatus.failure)
    }

    /// Prints an Encodable as stable JSON: sorted keys, pretty, slashes unescaped.
    static func json<T: Encodable>(_ value: T) throws {
        try jsonData(value).withUnsafeBytes { write($0) }
    }

    /// The bytes `json` writes: one encoding for the streams and for `CommandOutput`.
    static func jsonData<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value) + Data("\n".utf8)
    }
}
