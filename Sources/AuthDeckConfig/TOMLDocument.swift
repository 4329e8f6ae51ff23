import TOMLKit

/// Parses TOML text into a table, turning every way it can be malformed into a
/// `ConfigError` with the file, line and column.
///
/// Why a check before the parser: toml++ (inside TOMLKit) asserts — aborting the whole
/// process — on a table header whose name starts with anything but a bare-key character or a
/// quote (`[日本]`, `[}x]`, `[[.x]]`, `[` at the end of a line) or on a `}` inside an array
/// (`[1, }]`) — all found by fuzzing — instead of reporting a parse error. They are refused
/// here first; none is valid TOML, so nothing valid is turned away.
enum TOMLDocument {
    static func parse(_ text: String, path: String) throws -> TOMLTable {
        if let problem = nulByte(in: text) ?? problem(in: text) {
            throw ConfigError(path: path, location: "line \(problem.line), column \(problem.column)", problem: problem.text)
        }
        do {
            return try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(path: path, location: "line \(error.source.begin.line), column \(error.source.begin.column)",
                              problem: error.description)
        }
    }

    /// The first NUL byte: toml++ reads the text as a C string and silently drops everything
    /// after it (providers and hooks vanished with exit 0), so it is refused wherever it is.
    static func nulByte(in text: String) -> Problem? {
        let bytes = text.utf8
        guard let at = bytes.firstIndex(of: 0) else { return nil }
        let before = text.utf8[..<at]
        let line = before.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        let lineStart = before.lastIndex(of: 0x0A).map { bytes.index(after: $0) } ?? bytes.startIndex
        let column = String(decoding: text.utf8[lineStart..<at], as: UTF8.self).count + 1
        return Problem(line: line, column: column, text: "a NUL byte; TOML text cannot hold one (remove it: everything after it would be lost)")
    }

    /// Where toml++ would abort, and why.
    struct Problem {
        var line: Int
        var column: Int
        var text: String
    }

    /// The first construct toml++ asserts on instead of reporting: a `[name]` or `[[name]]`
    /// header whose name starts with a character it does not expect there, or a bracket that
    /// closes one of the other kind. A small scanner: headers only count at the start of a
    /// line outside strings, comments and multi-line array or inline-table values.
    static func problem(in text: String) -> Problem? {
        let bytes = Array(text.utf8)
        var i = 0, line = 1, lineStart = 0
        var open: [UInt8] = []
        var atLineStart = true
        func isBareKey(_ b: UInt8) -> Bool {
            (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x5F || b == 0x2D
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A { line += 1; lineStart = i + 1; atLineStart = true; i += 1; continue }
            if b == 0x20 || b == 0x09 || b == 0x0D { i += 1; continue }
            if b == 0x23 {  // a comment runs to the end of the line
                while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                continue
            }
            if b == 0x22 || b == 0x27 {  // strings, single- or multi-line
                let triple = i + 2 < bytes.count && bytes[i + 1] == b && bytes[i + 2] == b
                i += triple ? 3 : 1
                while i < bytes.count {
                    if bytes[i] == 0x5C, b == 0x22 { i += 2; continue }
                    if bytes[i] == 0x0A { line += 1; lineStart = i + 1; if !triple { break } }
                    if bytes[i] == b, !triple || (i + 2 < bytes.count && bytes[i + 1] == b && bytes[i + 2] == b) {
                        i += triple ? 3 : 1
                        break
                    }
                    i += 1
                }
                atLineStart = false
                continue
            }
            if b == 0x5B, atLineStart, open.isEmpty {  // a table header
                var j = i + 1
                if j < bytes.count, bytes[j] == 0x5B { j += 1 }
                while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
                if j >= bytes.count || !(isBareKey(bytes[j]) || bytes[j] == 0x22 || bytes[j] == 0x27) {
                    return Problem(line: line, column: String(decoding: bytes[lineStart..<j], as: UTF8.self).count + 1,
                                   text: "a table header needs a name on its line, starting with A-Z, a-z, 0-9, _ or - (or quoted, as [\"日本\"])")
                }
                while i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x23 { i += 1 }
                continue
            }
            if b == 0x5B || b == 0x7B { open.append(b) }
            if b == 0x5D || b == 0x7D, let top = open.last {
                // toml++ asserts on a `}` where an array value is expected (`[1, }]`).
                guard (top == 0x5B) == (b == 0x5D) else {
                    return Problem(line: line, column: String(decoding: bytes[lineStart..<i], as: UTF8.self).count + 1,
                                   text: "\"\(Character(Unicode.Scalar(b)))\" closes a \"\(Character(Unicode.Scalar(top)))\" it does not match")
                }
                open.removeLast()
            }
            atLineStart = false
            i += 1
        }
        return nil
    }
}
