import Testing
import Foundation
import AuthDeckTestSupport

/// A trial against glewlwyd set up as the shared recipe does (`jwt-type sha`: HS256 id_tokens
/// under the server's own key, no public keys) failed only after the person approved, blamed
/// the 403 of the keys it did not need, and left the refresh token the server issued live.
/// Real glewlwyd with dynamic registration: the refusal names the real cause, and the grant
/// issued for the refused sign-in is revoked at the server.
@Suite(.serialized, .enabled(if: GlewlwydServer.installed, "SKIPPED: glewlwyd is not installed"))
struct GlewlwydOwnKeyTests {
    let server: GlewlwydServer
    let home = TempDirectory("authdeck-ownkey")
    let runner: BinaryRunner

    init() throws {
        server = try GlewlwydServer(dynamicRegistration: true, ownHMACKey: true)
        runner = BinaryRunner.authdeck(home: home)
        try home.writeConfig(server.issuerOnlyTOML())
    }

    /// The refresh tokens glewlwyd holds enabled, read from its own database.
    func liveRefreshTokens() throws -> Int {
        let r = try BinaryRunner(executable: "/usr/bin/sqlite3", environment: ["PATH": "/usr/bin:/bin"])
            .run([server.dir.file("glewlwyd.db"), "SELECT count(*) FROM gpo_refresh_token WHERE gpor_enabled = 1;"])
        return try #require(Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(r.stdout) \(r.stderr)")
    }

    @Test func anIdTokenUnderTheServersOwnKeyIsRefusedByNameAndItsGrantRevoked() throws {
        #expect(try liveRefreshTokens() == 0)
        let r = try runner.run(["login", "gl", "--password", "--username", GlewlwydServer.user],
                               env: ["AUTHDECK_PASSWORD": GlewlwydServer.password])
        #expect(r.status != 0, "\(r.stdout)")
        #expect(r.stderr.contains("HS256 signature does not match this client's secret"), "\(r.stderr)")
        #expect(!r.stderr.contains("jwks"), "the keys it does not need are not blamed: \(r.stderr)")
        #expect(r.stderr.contains("the refresh token it issued was revoked at the issuer"), "\(r.stderr)")
        #expect(try liveRefreshTokens() == 0, "the grant of the refused sign-in is not left live")
        let accounts = try runner.run(["accounts", "--json"])
        #expect(accounts.status == 0 && !accounts.stdout.contains("\"gl/"), "nothing saved: \(accounts.stdout)")
    }
}
