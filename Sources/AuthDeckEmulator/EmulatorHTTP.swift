import Foundation

/// A request as the emulator's routes see it: decoded once, independent of the server library.
struct EmulatorRequest: Sendable {
    var method: String
    var path: String
    var query: [String: String]
    /// Header names lowercased.
    var headers: [String: String]
    var body: Data

    var form: [String: String] { Self.decodeForm(String(decoding: body, as: UTF8.self)) }

    /// Basic client credentials from the Authorization header, form-decoded (RFC 6749 §2.3.1).
    var basicCredentials: (String, String)? {
        guard let auth = headers["authorization"], auth.hasPrefix("Basic "),
              let raw = Data(base64Encoded: String(auth.dropFirst(6))), let text = String(data: raw, encoding: .utf8),
              let colon = text.firstIndex(of: ":") else { return nil }
        let id = String(text[..<colon]).removingPercentEncoding ?? ""
        let secret = String(text[text.index(after: colon)...]).removingPercentEncoding ?? ""
        return (id, secret)
    }

    var bearer: String? {
        guard let auth = headers["authorization"], auth.lowercased().hasPrefix("bearer ") else { return nil }
        return String(auth.dropFirst(7))
    }

    /// Cookies sent, by name.
    var cookies: [String: String] {
        var out: [String: String] = [:]
        for part in (headers["cookie"] ?? "").split(separator: ";") {
            let kv = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if kv.count == 2 { out[String(kv[0])] = String(kv[1]) }
        }
        return out
    }

    static func decodeForm(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(kv[0]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            let value = kv.count > 1 ? (String(kv[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "") : ""
            out[key] = value
        }
        return out
    }
}

/// A response from a route.
struct EmulatorResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: Data

    static func json(_ status: Int, _ object: Any, headers: [(String, String)] = []) -> EmulatorResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return EmulatorResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")] + headers, body: data)
    }

    static func html(_ status: Int, _ html: String) -> EmulatorResponse {
        EmulatorResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8")],
                         body: Data("<!doctype html><meta charset=utf-8><title>authdeck-idp</title>\(html)".utf8))
    }

    static func xml(_ status: Int, _ text: String, soap: Bool = false) -> EmulatorResponse {
        EmulatorResponse(status: status, headers: [("Content-Type", soap ? "application/soap+xml; charset=utf-8" : "text/xml; charset=utf-8")],
                         body: Data(text.utf8))
    }

    static func redirect(_ location: String, headers: [(String, String)] = []) -> EmulatorResponse {
        EmulatorResponse(status: 302, headers: [("Location", location)] + headers, body: Data())
    }

    static func aad(_ e: AADError, now: Date) -> EmulatorResponse { json(e.status, e.body(now: now)) }

    static let notFound = json(404, ["error": "not_found"])
}

func htmlEscape(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}

func formEscape(_ s: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
}
