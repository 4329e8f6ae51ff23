import Foundation
import FlyingFox

/// `authdeck-idp`'s server: FlyingFox on 127.0.0.1, every request dispatched to the
/// provider routes by path; with a certificate, the same routes over https too (`TLSListener`
/// relays to a second, loopback-only listener whose requests are marked as having come over TLS).
///
/// FlyingFox (rather than Hummingbird) because the emulator needs a plain async
/// request → response function and nothing else: it is one small package with no
/// SwiftNIO, so it adds seconds, not minutes, to a clean build.
public final class EmulatorServer: Sendable {
    let server: HTTPServer
    /// The plain listener behind the TLS port, when there is one.
    let behindTLS: HTTPServer?
    let state: EmulatorState
    public let port: UInt16
    /// The https port, when the emulator was given a certificate.
    public let tlsPort: UInt16?

    public var baseURL: String { "http://127.0.0.1:\(port)" }
    public var tlsURL: String? { tlsPort.map { "https://127.0.0.1:\($0)" } }

    /// Binds 127.0.0.1:`port` (0: a free port is chosen first); with `tls`, also serves https
    /// on 127.0.0.1:`tls.port` (0: a free port) with that PEM certificate chain and key.
    public init(port requested: UInt16 = 0, directory: EmulatorDirectory = .standard,
                siteHost: String = "contoso.sharepoint.com",
                tls: (certificateFile: String, keyFile: String, port: UInt16)? = nil) throws {
        let port = requested == 0 ? Self.freePort() : requested
        self.port = port
        if let tls {
            let backend = Self.freePort()
            behindTLS = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: backend), timeout: 30, logger: .disabled)
            tlsPort = try TLSListener.start(port: tls.port, certificateFile: tls.certificateFile, keyFile: tls.keyFile, backendPort: backend)
        } else {
            (behindTLS, tlsPort) = (nil, nil)
        }
        let state = EmulatorState(directory: directory)
        self.state = state
        let base = "http://127.0.0.1:\(port)"
        let minter = try TokenMinter()
        let azure = AzureRoutes(state: state, minter: minter, base: base)
        let sharePoint = SharePointRoutes(state: state, base: base, siteHost: siteHost)
        let admin = AdminRoutes(state: state)
        let deviceLogin = DeviceLoginPage(state: state)
        let facebook = FacebookRoutes(state: state, base: base)
        let oam = OAMRoutes(state: state, base: base)
        let resources = ResourceRoutes(state: state)
        let registry = RegistryRoutes(state: state)
        let oamRest = OAMRestRoutes(state: state)
        let webGates = WebGateRoutes(state: state)
        server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port), timeout: 30, logger: .disabled)
        let route: @Sendable (EmulatorRequest) async -> EmulatorResponse = { r in
            if let x = await admin.handle(r) { return x }
            let latency = await state.latencyMilliseconds
            if latency > 0 { try? await Task.sleep(nanoseconds: UInt64(latency) * 1_000_000) }
            if let x = await deviceLogin.handle(r) { return x }
            if let x = await sharePoint.handle(r) { return x }
            if let x = await resources.handle(r) { return x }
            if let x = await registry.handle(r) { return x }
            if let x = await oam.handle(r) { return x }
            if let x = await oamRest.handle(r) { return x }
            if let x = await webGates.handle(r) { return x }
            let parts = r.path.split(separator: "/", maxSplits: 1).map(String.init)
            if parts.count == 2, FacebookRoutes.isVersion(parts[0]) {
                return await facebook.handle(r, version: parts[0], rest: parts[1]) ?? .notFound
            }
            if parts.count == 2, let x = await azure.handle(r, tenantSegment: parts[0], rest: parts[1]) { return x }
            return .notFound
        }
        self.handler = route
    }

    let handler: @Sendable (EmulatorRequest) async -> EmulatorResponse

    /// Serves until the task is cancelled.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            let server = self.server
            group.addTask { try await self.serve(server, overTLS: false) }
            if let behindTLS {
                group.addTask { try await self.serve(behindTLS, overTLS: true) }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Routes `server`'s requests. Those relayed from the TLS port say so as a TLS front
    /// would (`X-Forwarded-Proto`, and the host the client named in `X-Forwarded-Host`), and
    /// nothing a client sent in those headers is believed there.
    func serve(_ server: HTTPServer, overTLS: Bool) async throws {
        let handler = self.handler
        let state = self.state
        await server.appendRoute("*") { request in
            var headers: [String: String] = [:]
            for (key, value) in request.headers { headers[key.rawValue.lowercased()] = value }
            if overTLS {
                headers["x-forwarded-proto"] = "https"
                headers["x-forwarded-host"] = headers["host"]
            }
            let r = EmulatorRequest(method: request.method.rawValue, path: request.path,
                                    query: Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }),
                                    headers: headers, body: try await request.bodyData)
            let out = await handler(r)
            await state.record(r.method, r.path, out.status)
            var h = HTTPHeaders()
            for (name, value) in out.headers { h.addValue(value, for: HTTPHeader(name)) }
            return HTTPResponse(statusCode: HTTPStatusCode(out.status, phrase: Self.phrase(out.status)), headers: h, body: out.body)
        }
        try await server.run()
    }

    public func waitUntilListening() async throws {
        try await server.waitUntilListening()
        try await behindTLS?.waitUntilListening()
    }

    static func phrase(_ status: Int) -> String {
        [200: "OK", 301: "Moved Permanently", 302: "Found", 303: "See Other", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
         500: "Internal Server Error", 503: "Service Unavailable"][status] ?? "Status"
    }

    static func freePort() -> UInt16 {
        let sock = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(sock) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(sock, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(sock, $0, &len) } }
        return UInt16(bigEndian: addr.sin_port)
    }
}
