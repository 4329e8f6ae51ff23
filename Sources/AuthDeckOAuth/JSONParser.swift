/// Reads JSON text (RFC 8259) into a `JSONValue`, strictly and within bounds.
///
/// Why bounds: every input is from outside (a server's answer, a token, a file another tool
/// wrote), and a parser that recurses must not let one overflow the stack or hold gigabytes.
/// Containers nest at most 512 deep (`JSONSerialization`'s limit, so every document it read is
/// read alike); a document is at most 16 MiB, the largest input any caller reads (an MSAL cache;
/// HTTP answers are capped at 1 MiB before they get here).
///
/// Strict where laxness could hide damage: no trailing commas, comments, single quotes, `NaN`,
/// leading zeros, unescaped control characters, invalid UTF-8 or lone surrogates; nothing but
/// whitespace after the value. A UTF-8 byte order mark at the start is skipped. Of repeated
/// keys, the last wins (as with `JSONSerialization`).
public struct JSONParser {
    /// Containers may nest this deep, no deeper.
    public static let maxDepth = 512
    /// Documents larger than this are refused unread.
    public static let maxBytes = 16 << 20

    /// What was wrong with a document, and where (a byte offset).
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let problem: String
        public let offset: Int
        public var description: String { "\(problem) at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private var at = 0
    private var depth = 0

    /// Parses `bytes`, which must hold exactly one JSON value (of any type).
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        guard bytes.count <= maxBytes else {
            throw Failure(problem: "the document is \(bytes.count) bytes, more than the \(maxBytes) a JSON answer may have", offset: 0)
        }
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.at = 3 }
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.at == bytes.count else { throw parser.fail("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func fail(_ problem: String) -> Failure { Failure(problem: problem, offset: at) }

    private var current: UInt8? { at < bytes.count ? bytes[at] : nil }

    private mutating func skipWhitespace() {
        while let b = current, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { at += 1 }
    }

    private mutating func expect(_ literal: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let word = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard bytes.count - at >= word.count, bytes[at..<(at + word.count)].elementsEqual(word) else { throw fail("invalid value") }
        at += word.count
        return value
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard let b = current else { throw fail("unexpected end of the document") }
        switch b {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("invalid value")
        }
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maxDepth else { throw fail("arrays and objects nested more than \(Self.maxDepth) deep") }
        at += 1
        skipWhitespace()
    }

    /// Steps past a container's closing bracket, one level up.
    private mutating func leave(_ container: JSONValue) -> JSONValue {
        at += 1
        depth -= 1
        return container
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try enter()
        var members: [String: JSONValue] = [:]
        if current == UInt8(ascii: "}") { return leave(.object(members)) }
        while true {
            guard current == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
            at += 1
            skipWhitespace()
            members[key] = try value()
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): at += 1; skipWhitespace()
            case UInt8(ascii: "}"): return leave(.object(members))
            default: throw fail("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try enter()
        var elements: [JSONValue] = []
        if current == UInt8(ascii: "]") { return leave(.array(elements)) }
        while true {
            elements.append(try value())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): at += 1; skipWhitespace()
            case UInt8(ascii: "]"): return leave(.array(elements))
            default: throw fail("expected ',' or ']' in an array")
            }
        }
    }

    /// A string from its opening quote to its closing one, escapes decoded, its UTF-8 checked.
    private mutating func string() throws(Failure) -> String {
        let start = at
        at += 1
        var out: [UInt8] = []
        var runStart = at
        while true {
            guard let b = current else { throw Failure(problem: "a string that never ends", offset: start) }
            if b == UInt8(ascii: "\"") { break }
            if b < 0x20 { throw fail("a control character not escaped in a string") }
            guard b == UInt8(ascii: "\\") else { at += 1; continue }
            out.append(contentsOf: bytes[runStart..<at])
            at += 1
            guard let e = current else { throw fail("a string that never ends") }
            at += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"): appendUTF8(of: try unicodeEscape(), to: &out)
            default:
                at -= 2
                throw fail("an invalid escape in a string")
            }
            runStart = at
        }
        out.append(contentsOf: bytes[runStart..<at])
        at += 1
        guard let text = String(validating: out, as: UTF8.self) else {
            throw Failure(problem: "a string that is not valid UTF-8", offset: start)
        }
        return text
    }

    /// The scalar of a `\uXXXX` escape (just read past its `u`), joining a surrogate pair.
    private mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
        let first = try hex4()
        switch first {
        case 0xD800...0xDBFF:
            guard bytes.count - at >= 6, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                throw fail("a high surrogate escape without its low surrogate")
            }
            at += 2
            let second = try hex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw fail("a high surrogate escape without its low surrogate") }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
        case 0xDC00...0xDFFF:
            throw fail("a low surrogate escape without a high one")
        default:
            return Unicode.Scalar(first)!
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - at >= 4 else { throw fail("a \\u escape cut short") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[at]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw fail("a \\u escape with a character that is not hexadecimal")
            }
            v = v << 4 | UInt32(digit)
            at += 1
        }
        return v
    }

    private func appendUTF8(of scalar: Unicode.Scalar, to out: inout [UInt8]) {
        UTF8.encode(scalar) { out.append($0) }
    }

    /// A number by JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() throws(Failure) -> JSONNumber {
        let start = at
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.at
            while let b = parser.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) { parser.at += 1 }
            return parser.at - from
        }
        if current == UInt8(ascii: "-") { at += 1 }
        if current == UInt8(ascii: "0") {
            at += 1
            if let b = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) { throw fail("a number with a leading zero") }
        } else if digits(&self) == 0 {
            throw fail("invalid value")
        }
        if current == UInt8(ascii: ".") {
            at += 1
            guard digits(&self) > 0 else { throw fail("a number with no digits after its decimal point") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            at += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { at += 1 }
            guard digits(&self) > 0 else { throw fail("a number with no digits in its exponent") }
        }
        let number = JSONNumber(validatedText: String(decoding: bytes[start..<at], as: UTF8.self))
        guard number.double.isFinite else { throw Failure(problem: "a number too large to represent", offset: start) }
        return number
    }
}
