import AuthDeckHTTP

/// The admin API of authdeck's provider emulator (`authdeck-idp`), through which the demo
/// stages its accounts (token lifetimes) and approves device codes as a person would.
public struct EmulatorAdmin: Sendable {
    public let url: String

    public init(url: String) { self.url = url }

    /// GET `_admin/PATH`, or POST `json` to it; the answer's body.
    public func call(_ path: String, _ json: String? = nil) async throws -> [UInt8] {
        let http = CurlHTTPClient(userAgent: "authdeck-demo")
        let request = json.map { HTTPRequest.json("\(url)/_admin/\(path)", Array($0.utf8)) } ?? HTTPRequest(url: "\(url)/_admin/\(path)")
        return try await http.send(request).body
    }
}
