import Testing
import Foundation
import AuthDeckTestSupport

/// Issue 38, section 5: an issuer whose dynamic registration answer (RFC 7591) carries a 900 KB
/// field (`Tests/harness/hostile-oauth`, modes `reg-huge-<field>`). It was sealed, and every
/// later sign-in failed as a "network" error; now the registration is refused, naming the
/// field and its size, and nothing is stored, so the next sign-in asks the issuer again.
@Suite(.serialized) struct HostileRegistrationTests {
    static let fields = ["client_id", "client_secret", "registration_access_token", "registration_client_uri"]

    @Test(arguments: fields) func aHugeRegistrationFieldIsRefusedAndNothingStored(field: String) throws {
        // Killed when released (LiveProcess's deinit), at the end of the case.
        let (server, base) = try HostileServerTests.server()
        defer { withExtendedLifetime(server) {} }
        let home = TempDirectory("authdeck-hostile-reg")
        let runner = BinaryRunner.authdeck(home: home, ["AUTHDECK_PASSWORD": "hostile-pw-1"])
        let mode = "reg-huge-\(field)"
        _ = try home.writeConfig("""
            [[provider]]
            id = "h"
            kind = "oidc"
            scopes = ["openid", "offline_access"]
            endpoints = { issuer = "\(base)/\(mode)" }
            options = { allow_password = true }
            """)
        let size = field == "registration_client_uri" ? 900_000 + "\(base)/\(mode)/register/".utf8.count : 900_000
        for attempt in 1...2 {
            let r = try runner.run(["login", "h", "--password", "--username", "mallory@example.jp"], timeout: 60)
            let verdict = HostileServerTests.verdict(r.stderr)
            print("hostile registration \(field), attempt \(attempt): exit \(r.status): \(verdict.prefix(300))")
            #expect(r.status == 1, "\(verdict)")
            #expect(verdict.contains("answered the client registration with a \(field) of \(size) bytes (at most 4096 are accepted); nothing was stored"),
                    "\(verdict)")
            #expect(r.stderr.count < 2000 && !r.stderr.contains("xxxxxxxx"), "the value is not echoed")
            // Nothing kept: the next sign-in registers again rather than reuse a poisoned client.
            #expect(try EmulatorProcess.curl(["-sS", "\(base)/\(mode)/registrations"]) == "\(attempt)")
            let rows = try BinaryRunner(executable: "/usr/bin/sqlite3", environment: [:])
                .run([home.file("data/authdeck/authdeck.db"), "SELECT count(*) FROM provider_secrets; SELECT count(*) FROM accounts;"])
            #expect(rows.stdout == "0\n0\n", "\(rows.stdout) \(rows.stderr)")
        }
    }
}
