#if canImport(Glibc)
import Glibc
#endif

/// Reads one line from a terminal with echo off, so passwords and passphrases never appear
/// on screen or in the scrollback; the terminal is restored however the read ends.
enum SilentPrompt {
    /// Writes `prompt` to `output`, reads up to a newline from `input` (CR LF tolerated), and
    /// ends the line it left on `output`.
    static func read(_ prompt: String, input: Int32, output: Int32) -> String {
        var old = termios()
        let isTerminal = tcgetattr(input, &old) == 0
        if isTerminal {
            var quiet = old
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(input, TCSANOW, &quiet)
        }
        defer {
            if isTerminal { tcsetattr(input, TCSANOW, &old) }
            _ = write(output, "\n", 1)
        }
        _ = prompt.withCString { write(output, $0, strlen($0)) }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(input, &byte, 1) == 1, byte != 0x0A { bytes.append(byte) }
        return String(decoding: bytes.last == 0x0D ? bytes.dropLast() : bytes[...], as: UTF8.self)
    }
}
