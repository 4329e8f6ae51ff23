import Foundation

/// A complete HTTP response: status, headers in order, and the (capped) body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// The cookie engine's jar after the exchange (Netscape lines), when the request used it.
    public var cookieJar: [String]?

    public init(status: Int, headers: [HTTPHeader], body: [UInt8], cookieJar: [String]? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.cookieJar = cookieJar
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of a header (Set-Cookie comes several times).
    public func headers(named name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The media type without parameters, lowercased (`application/json`).
    public var mediaType: String? {
        header("Content-Type")?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }
}
