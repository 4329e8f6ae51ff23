import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real glewlwyd OAuth 2.0 / OIDC server for one test, started by `Tests/harness/glewlwyd-up`
/// on random loopback ports and stopped by pid when released.
public final class GlewlwydServer: @unchecked Sendable {
    public let dir = TempDirectory("glewlwyd")
    public let port: UInt16
    public let redirectPort: UInt16
    public let pid: Int32
    public var base: String { "http://127.0.0.1:\(port)/api" }
    public var issuer: String { "\(base)/oidc" }
    public static let clientId = "authdeck", clientSecret = "s3cret", user = "taro", password = "taro-pass-123"

    /// True when the glewlwyd binary is installed (CI installs it; see scripts/deps).
    public static var installed: Bool { FileManager.default.isExecutableFile(atPath: "/usr/sbin/glewlwyd") || FileManager.default.isExecutableFile(atPath: "/usr/bin/glewlwyd") }

    public static var harness: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Tests/harness/glewlwyd-up").standardized.path
    }

    /// Starts a server whose access tokens live `accessTokenSeconds`; with
    /// `dynamicRegistration`, clients may register themselves (RFC 7591) at `registrationEndpoint`;
    /// with `ownHMACKey`, id_tokens are signed with HS256 under glewlwyd's own key and no public
    /// keys are shown (`jwt-type sha`, as the shared recipe sets it up): no client can check them.
    public init(accessTokenSeconds: Int = 3600, dynamicRegistration: Bool = false, ownHMACKey: Bool = false) throws {
        var lastError = ""
        for _ in 0..<3 {  // a picked port can be taken by someone else before glewlwyd binds it
            let port = FreePort.pick(), redirect = FreePort.pick()
            let setup = Process()
            setup.executableURL = URL(fileURLWithPath: Self.harness)
            setup.arguments = [dir.path, String(port), String(redirect), String(accessTokenSeconds)]
            var extra: [String: String] = [:]
            if dynamicRegistration { extra["DCR"] = "1" }
            if ownHMACKey { extra["JWT_TYPE"] = "sha" }
            if !extra.isEmpty { setup.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 } }
            let out = Pipe(), err = Pipe()
            setup.standardOutput = out
            setup.standardError = err
            try setup.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            lastError = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            setup.waitUntilExit()
            if setup.terminationStatus == 0, let line = text.split(separator: "\n").last(where: { $0.hasPrefix("ready pid=") }),
               let pid = Int32(line.dropFirst("ready pid=".count)) {
                self.port = port
                self.redirectPort = redirect
                self.pid = pid
                return
            }
            if let pid = try? String(contentsOfFile: dir.file("server.pid"), encoding: .utf8), let p = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)) {
                kill(p, SIGKILL)
            }
            try? FileManager.default.removeItem(atPath: dir.file("glewlwyd.db"))
        }
        throw NSError(domain: "GlewlwydServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "glewlwyd did not start: \(lastError)"])
    }

    deinit {
        kill(pid, SIGTERM)
        for _ in 0..<100 where kill(pid, 0) == 0 { usleep(20_000) }
        if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
    }

    public var registrationEndpoint: String { "\(issuer)/register" }

    /// config.toml for an `oidc` provider with only the issuer's address: no client id, no
    /// secret (it registers itself). Without `allowPassword`, the README's example.
    public func issuerOnlyTOML(id: String = "gl", allowPassword: Bool = true, extraOptions: String = "") -> String {
        """
        [[provider]]
        id = "\(id)"
        kind = "oidc"
        scopes = ["openid", "authdeck"]
        endpoints = { issuer = "\(issuer)" }
        options = { allow_password = \(allowPassword)\(extraOptions) }

        """
    }

    /// The ids of the clients glewlwyd would serve (enabled ones: it answers an RFC 7592
    /// DELETE by disabling the client), read with the admin session the harness left in `dir`.
    public func clientIds() throws -> [String] {
        let body = try curl(["-b", dir.file("admin.jar"), "\(base)/client/?limit=1000"])
        let json = body.split(separator: "\n").dropLast().joined(separator: "\n")
        let list = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]) ?? []
        return list.filter { $0["enabled"] as? Bool ?? true }.compactMap { $0["client_id"] as? String }
    }

    /// config.toml for an `oidc` provider `id` pointing at this server.
    public func providerTOML(id: String = "gl", extraOptions: String = "", endpoints: String? = nil) -> String {
        """
        [[provider]]
        id = "\(id)"
        kind = "oidc"
        client_id = "\(Self.clientId)"
        client_secret_env = "GL_SECRET"
        scopes = ["openid", "authdeck"]
        endpoints = \(endpoints ?? "{ issuer = \"\(issuer)\" }")
        options = { redirect_port = \(redirectPort), allow_password = true\(extraOptions) }

        """
    }

    // MARK: Playing the user, as a browser would

    /// Logs the user in and consents for the client; returns the session cookie jar path.
    public func userSession(client: String = GlewlwydServer.clientId) throws -> String {
        let jar = dir.file("user-\(UUID().uuidString).jar")
        try curl(["-c", jar, "-b", jar, "-H", "Content-Type: application/json",
                  "-d", "{\"username\":\"\(Self.user)\",\"password\":\"\(Self.password)\"}", "\(base)/auth/"])
        try curl(["-c", jar, "-b", jar, "-X", "PUT", "-H", "Content-Type: application/json",
                  "-d", "{\"scope\":\"openid authdeck\"}", "\(base)/auth/grant/\(client)"])
        return jar
    }

    /// Approves a device user code as the user, consenting for `client`.
    public func approveDevice(userCode: String, client: String = GlewlwydServer.clientId) throws {
        let jar = try userSession(client: client)
        try curl(["-c", jar, "-b", jar, "\(base)/oidc/device?code=\(userCode)&g_continue"], okStatuses: ["302", "200"])
    }

    /// Whether the server still considers `token` active (RFC 7662 introspection).
    public func isActive(_ token: String) throws -> Bool {
        let body = try curl(["-u", "\(Self.clientId):\(Self.clientSecret)", "--data-urlencode", "token=\(token)", "\(base)/oidc/introspect"])
        return body.contains("\"active\":true")
    }

    /// A `$BROWSER` script that follows the authorize URL with the user's session to the
    /// loopback redirect (glewlwyd needs `g_continue` to skip its login page).
    public func browserScript() throws -> String {
        let jar = try userSession()
        let path = dir.file("browser.sh")
        try """
        #!/bin/sh
        # A person reads the page before going on: authdeck's listener must wait for them.
        sleep "${AUTHDECK_TEST_BROWSER_PAUSE:-2}"
        exec curl -sS -o /dev/null -w '%{http_code} %{url_effective}\\n' -b '\(jar)' -L "$1&g_continue" >> '\(dir.file("browser.log"))' 2>&1
        """.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    @discardableResult
    func curl(_ args: [String], okStatuses: [String] = ["200"]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        p.arguments = ["-sS", "-w", "\n%{http_code}"] + args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let status = String(text.split(separator: "\n").last ?? "")
        guard okStatuses.contains(status) else {
            throw NSError(domain: "GlewlwydServer", code: 2, userInfo: [NSLocalizedDescriptionKey: "curl \(args.last ?? "") -> \(status): \(text)"])
        }
        return text
    }
}
