import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// Issue 38, section 1, with the real binary: a grant signed in at one issuer of the hostile
/// provider (`Tests/harness/hostile-oauth`, which records every POST it receives) is sent
/// nowhere else when config.toml moves the issuer or the token endpoint — the account needs a
/// sign-in, the message names old and new, and the store keeps the refresh token.
@Suite(.serialized) struct GrantHomeTests {
    let home = TempDirectory("authdeck-home")

    /// The provider "h" as `HostileServerTests.oidcTOML` writes it, with `endpoints` of its own.
    static func toml(_ endpoints: String) -> String {
        HostileServerTests.oidcTOML("x").replacingOccurrences(of: #"endpoints = { issuer = "x" }"#, with: "endpoints = \(endpoints)")
    }

    /// Signs in with the password grant at `<base>/good`; returns the runner and the refresh token.
    func signIn(_ base: String) throws -> (BinaryRunner, String) {
        let runner = BinaryRunner.authdeck(home: home, ["HOSTILE_SECRET": "hostile-secret"])
        try home.writeConfig(Self.toml(#"{ issuer = "\#(base)/good" }"#))
        let login = try runner.run(["login", "h", "--password", "--username", "mallory@example.jp"], env: ["AUTHDECK_PASSWORD": "pw"])
        #expect(login.status == 0, "\(login.stderr)")
        return (runner, try refreshToken(runner))
    }

    func refreshToken(_ runner: BinaryRunner) throws -> String {
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
        let account = try #require(try store.accounts(includeQuarantined: true).first)
        let opened = try #require(try store.account(id: account.account.id))
        return try #require(opened.credentials.refreshToken?.value.exposedValue)
    }

    /// The POSTs the hostile server received, as (mode, path, field names).
    static func received(_ base: String) throws -> [(String, String, [String])] {
        let body = try Data(contentsOf: URL(string: "\(base)/any/received")!)
        let rows = try #require(try JSONSerialization.jsonObject(with: body) as? [[String: Any]])
        return rows.map { ($0["mode"] as? String ?? "", $0["path"] as? String ?? "", $0["fields"] as? [String] ?? []) }
    }

    @Test func aMovedIssuerOrTokenEndpointGetsNoRefreshToken() throws {
        let (server, base) = try HostileServerTests.server()
        try withExtendedLifetime(server) {
            let (runner, token) = try signIn(base)
            // Another issuer on the same server; the same issuer with its token endpoint on
            // another origin (the same server by another name: origins are compared as written).
            let elsewhere = base.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            for (endpoints, moved) in [(#"{ issuer = "\#(base)/moved" }"#, "\(base)/moved"),
                                       (#"{ issuer = "\#(base)/good", token = "\#(elsewhere)/moved/token" }"#, elsewhere)] {
                try home.writeConfig(Self.toml(endpoints))
                let r = try runner.run(["refresh", "h"])
                print("grant home, config \(endpoints): exit \(r.status): \(HostileServerTests.verdict(r.stderr))")
                #expect(r.status == ExitStatus.needsSignIn, "\(r.stderr)")
                #expect(r.stderr.contains("\(base)/good") && r.stderr.contains(moved), "names old and new: \(r.stderr)")
                #expect(!r.stderr.contains(token))
                let received = try Self.received(base)
                #expect(received.filter { $0.0 == "moved" }.isEmpty, "the moved issuer received \(received)")
                #expect(try refreshToken(runner) == token, "the refresh token is kept")
                // Once its access token has expired, the account reads as needing a sign-in.
                let later = String(SystemClock().now().secondsSinceEpoch + 7200)
                let accounts = try runner.run(["accounts", "--json"], env: ["AUTHDECK_TEST_NOW": later])
                #expect(accounts.stdout.contains("\"state\" : \"needs_sign_in\""), "\(accounts.stdout)")
            }
            // Back at its home, the same grant renews.
            try home.writeConfig(Self.toml(#"{ issuer = "\#(base)/good" }"#))
            let r = try runner.run(["refresh", "h"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try Self.received(base).filter { $0.0 == "good" && $0.2.contains("refresh_token") }.count == 1)
        }
    }

    /// Found by the attack pass after the first fix: a client-credentials account (no refresh
    /// token) renewed by sending the client secret to a moved issuer's token endpoint.
    @Test func aClientCredentialsGrantSendsItsSecretOnlyHome() throws {
        let (server, base) = try HostileServerTests.server()
        try withExtendedLifetime(server) {
            let runner = BinaryRunner.authdeck(home: home, ["HOSTILE_SECRET": "hostile-secret"])
            try home.writeConfig(Self.toml(#"{ issuer = "\#(base)/good" }"#))
            let login = try runner.run(["login", "h", "--client"])
            #expect(login.status == 0, "\(login.stderr)")
            try home.writeConfig(Self.toml(#"{ issuer = "\#(base)/moved" }"#))
            let r = try runner.run(["refresh", "h"])
            #expect(r.status == ExitStatus.needsSignIn && r.stderr.contains("\(base)/good") && r.stderr.contains("\(base)/moved"), "\(r.stderr)")
            let received = try Self.received(base)
            #expect(received.filter { $0.0 == "moved" }.isEmpty, "the moved issuer received \(received)")
        }
    }

    /// The attack: an issuer whose discovery names a plain-http token endpoint on another host
    /// received `grant_type=refresh_token&refresh_token=…` in clear. Refused before a byte leaves
    /// (the name is not even resolved), for the refresh token as for a sign-in's password.
    @Test func aPlainHttpTokenEndpointElsewhereGetsNothing() throws {
        let (server, base) = try HostileServerTests.server()
        try withExtendedLifetime(server) {
            let (runner, token) = try signIn(base)
            try home.writeConfig(Self.toml(#"{ issuer = "\#(base)/good", token = "http://tok.evil.example/token" }"#))
            let r = try runner.run(["refresh", "h"])
            #expect(r.status != 0 && r.stderr.contains("over plain http") && r.stderr.contains("http://tok.evil.example"), "\(r.stderr)")
            #expect(try refreshToken(runner) == token)
            // Discovery naming it: the sign-in's password does not go either.
            try home.writeConfig(Self.toml(#"{ issuer = "\#(base)/token-http-remote" }"#))
            let login = try runner.run(["login", "h", "--password", "--username", "mallory@example.jp"], env: ["AUTHDECK_PASSWORD": "pw"])
            #expect(login.status != 0 && login.stderr.contains("refusing to send the password to http://tok.evil.example"), "\(login.stderr)")
        }
    }
}
