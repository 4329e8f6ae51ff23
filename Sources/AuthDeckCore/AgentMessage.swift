/// One message on the agent's socket: ordered `key=value` fields, framed by a 4-byte length.
///
/// Why not JSON: the front (which has no JSON reader) is the client for `token` and the git and
/// kubectl helpers over a forwarded socket, and every byte a hostile peer sends is read by this
/// code; a line format with three escapes is small enough to check completely. A key may repeat
/// (`scope=a`, `scope=b`); order is kept. docs/agent.md is the protocol.
public struct AgentMessage: Sendable, Equatable {
    /// One `key=value` line.
    public struct Field: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// Why a frame was not read: each names what was wrong, for the peer's error and the events.
    public enum Malformed: Error, Equatable, CustomStringConvertible {
        case tooLarge(Int)
        case notUTF8
        case badLine(Int)
        case badKey(Int)
        case badEscape(Int)
        case tooManyFields
        case truncated

        public var description: String {
            switch self {
            case .tooLarge(let n): "a frame of \(n) bytes (at most \(AgentMessage.maxBody))"
            case .notUTF8: "a frame that is not UTF-8"
            case .badLine(let n): "line \(n) has no `=`"
            case .badKey(let n): "line \(n)'s key is not 1–32 of a-z, 0-9, _"
            case .badEscape(let n): "line \(n) has a raw CR or NUL, or an escape other than \\\\, \\n, \\r or \\0"
            case .tooManyFields: "more than \(AgentMessage.maxFields) fields"
            case .truncated: "a frame cut short (the connection closed inside it)"
            }
        }
    }

    /// The largest body either side reads (64 KiB: a cookie header or a token is far smaller).
    public static let maxBody = 64 << 10
    /// The most fields a message may hold.
    public static let maxFields = 512
    /// The protocol version every message carries as `v`.
    public static let version = "1"

    public var fields: [Field]

    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// A message of the given pairs, `v=1` first.
    public init(_ pairs: [(String, String)]) {
        self.fields = [Field("v", Self.version)] + pairs.map { Field($0.0, $0.1) }
    }

    /// The first value of `key`, or nil.
    public subscript(key: String) -> String? {
        fields.first { $0.key == key }?.value
    }

    /// Every value of `key`, in order.
    public func values(_ key: String) -> [String] {
        fields.filter { $0.key == key }.map(\.value)
    }

    /// Adds a field (keys are the code's own, so a bad one is a programming error).
    public mutating func append(_ key: String, _ value: String) {
        precondition(Self.isKey(Substring(key)), "agent field key \(key)")
        fields.append(Field(key, value))
    }

    /// The body: one `key=value\n` line a field, the value escaped.
    public func body() -> [UInt8] {
        var out: [UInt8] = []
        for field in fields {
            out += Array(field.key.utf8)
            out.append(UInt8(ascii: "="))
            for byte in field.value.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): out += [92, 92]
                case 10: out += [92, UInt8(ascii: "n")]
                case 13: out += [92, UInt8(ascii: "r")]
                case 0: out += [92, UInt8(ascii: "0")]
                default: out.append(byte)
                }
            }
            out.append(10)
        }
        return out
    }

    /// The whole frame: the body's length (4 bytes, big-endian), then the body.
    public func frame() throws(Malformed) -> [UInt8] {
        let body = body()
        guard body.count <= Self.maxBody else { throw .tooLarge(body.count) }
        let n = UInt32(body.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)] + body
    }

    /// The body length a 4-byte header announces; `tooLarge` past the limit, so a reader
    /// never allocates what a hostile peer asks for.
    public static func bodyLength(header: [UInt8]) throws(Malformed) -> Int {
        precondition(header.count == 4)
        let n = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard n <= maxBody else { throw .tooLarge(n) }
        return n
    }

    /// Reads a body; every line must be `key=value` with a valid key and escapes, and no raw
    /// CR or NUL (they travel escaped). Split on bytes: a Swift `Character` would take "\r\n"
    /// as one and hide a line break.
    public static func parse(body: [UInt8]) throws(Malformed) -> AgentMessage {
        guard body.count <= maxBody else { throw .tooLarge(body.count) }
        var fields: [Field] = []
        var number = 0
        for line in body.split(separator: 10, omittingEmptySubsequences: true) {
            number += 1
            guard fields.count < maxFields else { throw .tooManyFields }
            guard !line.contains(13), !line.contains(0) else { throw .badEscape(number) }
            guard let text = String(validating: line, as: UTF8.self) else { throw .notUTF8 }
            guard let eq = text.firstIndex(of: "=") else { throw .badLine(number) }
            let key = text[..<eq]
            guard isKey(key) else { throw .badKey(number) }
            guard let value = unescape(text[text.index(after: eq)...]) else { throw .badEscape(number) }
            fields.append(Field(String(key), value))
        }
        return AgentMessage(fields)
    }

    static func isKey(_ key: Substring) -> Bool {
        !key.isEmpty && key.utf8.count <= 32 && key.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
    }

    static func unescape(_ raw: Substring) -> String? {
        guard raw.contains("\\") else { return String(raw) }
        var out = ""
        var escaping = false
        for c in raw {
            if escaping {
                switch c {
                case "\\": out.append("\\")
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "0": out.append("\0")
                default: return nil
                }
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.append(c)
            }
        }
        return escaping ? nil : out
    }
}
