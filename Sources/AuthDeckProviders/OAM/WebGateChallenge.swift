import AuthDeckCore
import AuthDeckHTTP

/// A WebGate's `WWW-Authenticate: OAM-Auth realm="…", request-ctx="…"` challenge (PROVIDERS.md
/// §5, "WebGate-protected REST"), read tolerantly and within bounds.
///
/// The header comes from whatever answered the request, so it is hostile until proven
/// otherwise: parameters are read as RFC 9110 auth-params (quoted strings with backslash
/// escapes, tokens, any order, names in any case, unknown ones ignored), and a challenge is
/// refused — with a sentence naming what was wrong, never the raw text — when it is longer
/// than `maximumHeader`, repeats or lacks a parameter, has text a parameter cannot end with, or
/// carries a control character or an oversized value. Why refuse rather than repair: the realm
/// keys a stored token and the request context goes to the Mobile and Social server; a guess
/// at either could send one WebGate's token to another, and a quote smuggled into the realm
/// must not become a second `request-ctx`.
struct WebGateChallenge: Equatable, Sendable {
    /// `<WebGateName>:<AuthenticationLevel> <RelativeRESTURL>`.
    var realm: String
    /// The request context, sent back as `X-Idaas-Rest-Application-Context`.
    var context: String

    /// Whole header values longer than this are not parsed (libcurl admits 100 KiB).
    static let maximumHeader = 32 << 10
    static let maximumRealm = 1 << 10
    static let maximumContext = 16 << 10

    /// Why a challenge is not answered: a sentence without the challenge's own text.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    init(realm: String, context: String) {
        self.realm = realm
        self.context = context
    }

    /// Whether `headers` carry an `OAM-Auth` challenge at all.
    static func present(in headers: [HTTPHeader]) -> Bool {
        headers.contains { $0.name.lowercased() == "www-authenticate" && isOAMAuth($0.value) }
    }

    static func isOAMAuth(_ value: String) -> Bool {
        let v = value.drop { $0 == " " || $0 == "\t" }
        guard v.count >= 8, v.prefix(8).lowercased() == "oam-auth" else { return false }
        return v.count == 8 || v.dropFirst(8).first == " " || v.dropFirst(8).first == "\t"
    }

    /// The first `OAM-Auth` challenge among `headers`.
    init(headers: [HTTPHeader]) throws {
        guard let value = headers.first(where: { $0.name.lowercased() == "www-authenticate" && Self.isOAMAuth($0.value) })?.value else {
            throw Refusal(description: "no OAM-Auth challenge")
        }
        try self.init(value)
    }

    /// Parses one header value that starts with the `OAM-Auth` scheme.
    init(_ value: String) throws {
        guard value.utf8.count <= Self.maximumHeader else {
            throw Refusal(description: "the challenge is \(value.utf8.count) bytes, more than \(Self.maximumHeader)")
        }
        let params = try Self.parameters(Array(value.unicodeScalars.drop { $0 == " " || $0 == "\t" }.dropFirst(8)))
        func one(_ name: String, max: Int) throws -> String {
            guard let v = params[name] else { throw Refusal(description: "the challenge has no \(name)") }
            guard !v.isEmpty else { throw Refusal(description: "the challenge's \(name) is empty") }
            guard v.utf8.count <= max else { throw Refusal(description: "the challenge's \(name) is \(v.utf8.count) bytes, more than \(max)") }
            // Control characters are not allowed in a header (RFC 9110 §5.5): one here is an attack or a broken gate.
            guard !v.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
                throw Refusal(description: "the challenge's \(name) carries control characters")
            }
            return v
        }
        realm = try one("realm", max: Self.maximumRealm)
        context = try one("request-ctx", max: Self.maximumContext)
    }

    /// The auth-params after the scheme, names lowercased; a repeated one is refused.
    static func parameters(_ s: [Unicode.Scalar]) throws -> [String: String] {
        var out: [String: String] = [:]
        var i = 0
        func skip(_ set: String) { while i < s.count, set.unicodeScalars.contains(s[i]) { i += 1 } }
        while true {
            skip(" \t,")
            guard i < s.count else { return out }
            var name = ""
            while i < s.count, !"= \t,\"".unicodeScalars.contains(s[i]) { name.unicodeScalars.append(s[i]); i += 1 }
            skip(" \t")
            guard !name.isEmpty, i < s.count, s[i] == "=" else {
                throw Refusal(description: "the challenge has text that is not a parameter")
            }
            i += 1
            skip(" \t")
            var value = ""
            if i < s.count, s[i] == "\"" {
                i += 1
                var closed = false
                while i < s.count {
                    if s[i] == "\\", i + 1 < s.count {
                        value.unicodeScalars.append(s[i + 1])
                        i += 2
                    } else if s[i] == "\"" {
                        closed = true
                        i += 1
                        break
                    } else {
                        value.unicodeScalars.append(s[i])
                        i += 1
                    }
                }
                guard closed else { throw Refusal(description: "the challenge's \(Self.shown(name)) has no closing quote") }
                skip(" \t")
                guard i == s.count || s[i] == "," else {
                    throw Refusal(description: "the challenge has text after the quoted \(Self.shown(name))")
                }
            } else {
                while i < s.count, s[i] != ",", s[i] != " ", s[i] != "\t" { value.unicodeScalars.append(s[i]); i += 1 }
            }
            let key = name.lowercased()
            guard out[key] == nil else { throw Refusal(description: "the challenge repeats \(Self.shown(name))") }
            out[key] = value
        }
    }

    /// A parameter name as a message may show it: inert and short.
    static func shown(_ name: String) -> String {
        TerminalText.inert(String(name.prefix(40)))
    }
}
