import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport

/// A provider whose token endpoint misbehaves (`Tests/harness/hostile-oauth`): each case
/// must end in a clear error and a non-zero exit, with the account's refresh token exactly as
/// it was — a hostile answer never overwrites or deletes a credential. One line per case is
/// printed with its outcome.
@Suite(.serialized) struct HostileServerTests {
    static let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../harness/hostile-oauth").standardized.path

    /// Starts the hostile server (HTTPS with `cert`/`key`); returns it and its base URL.
    static func server(cert: String? = nil, key: String? = nil) throws -> (LiveProcess, String) {
        let port = FreePort.pick()
        let process = try LiveProcess(harness, [String(port)] + [cert, key].compactMap { $0 }, environment: ["PATH": "/usr/bin:/bin"])
        _ = try process.waitFor("the hostile server") { $0.contains("ready") ? true : nil }
        return (process, "\(cert == nil ? "http" : "https")://127.0.0.1:\(port)")
    }

    /// A home with one OIDC account at `issuer` holding an expired token and refresh token
    /// `rt-original`; runs `authdeck refresh` on it and returns the result and the account after.
    func refresh(issuer: String) throws -> (BinaryRunner.Result, StoredAccount?) {
        let home = TempDirectory("authdeck-hostile")
        let runner = BinaryRunner.authdeck(home: home)
        try home.writeConfig("""
            [[provider]]
            id = "h"
            kind = "oidc"
            client_id = "authdeck-test"
            scopes = ["openid", "offline_access"]
            endpoints = { issuer = "\(issuer)" }
            """)
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
        let now = SystemClock().now()
        try store.insert(StoredAccount(
            account: Account(id: "h/0000beef", providerId: "h", subject: "s-1", username: "taro@example.jp", createdAt: now - .days(1),
                             lastSignInAt: now - .days(1)),
            credentials: Credentials(accessTokens: [AccessToken(id: "a1", value: Secret("at-original"), scopes: ["openid"],
                                                                 obtainedAt: now - .hours(2), expiresAt: now - .hours(1))],
                                     refreshToken: RefreshToken(id: "r1", value: Secret("rt-original"), generation: 1, obtainedAt: now - .days(1)))))
        let result = try runner.run(["refresh", "h/0000beef"], timeout: 90)
        return (result, try store.account(id: "h/0000beef"))
    }

    func expectNothingLost(_ mode: String, _ result: BinaryRunner.Result, _ after: StoredAccount?) {
        let line = result.stderr.split(separator: "\n").first.map(String.init) ?? "(no message)"
        print("hostile \(mode): exit \(result.status): \(line)")
        #expect(result.status != 0, "\(mode) must fail")
        #expect(!line.isEmpty && line != "(no message)", "\(mode) must say why")
        #expect(after?.credentials.refreshToken?.value.exposedValue == "rt-original", "\(mode): the refresh token is kept")
        #expect(after?.credentials.refreshToken?.generation == 1)
        #expect(after?.credentials.accessTokens.map(\.value.exposedValue) == ["at-original"], "\(mode): nothing of the answer is stored")
        #expect(!result.stderr.contains("rt-hostile") && !result.stderr.contains("at-hostile"), "\(mode): no token in the message")
    }

    @Test(arguments: ["html", "html500", "badjson", "huge", "expires-negative", "expires-zero", "expires-string",
                      "expires-huge", "no-token-type", "slow"])
    func aHostileTokenEndpointChangesNothing(mode: String) throws {
        let (server, base) = try Self.server()
        let (result, after) = try withExtendedLifetime(server) { try refresh(issuer: "\(base)/\(mode)") }
        expectNothingLost(mode, result, after)
    }

    @Test func aSelfSignedCertificateIsRefusedAndCannotBeWaivedAway() throws {
        let dir = TempDirectory("authdeck-hostile-tls")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir.file("k.pem"), "-out", dir.file("c.pem"),
                             "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        let (server, base) = try Self.server(cert: dir.file("c.pem"), key: dir.file("k.pem"))
        let (result, after) = try withExtendedLifetime(server) { try refresh(issuer: "\(base)/expires-zero") }
        expectNothingLost("self-signed TLS", result, after)
        #expect(result.stderr.contains("TLS certificate not trusted"), "\(result.stderr)")
    }
}
