import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// The store edited without the key (`sqlite3` on the file, as another program of the same
/// user could) must never redirect a secret: the real binary against two loopback providers
/// that write down every token request (`Tests/harness/token-recorder`), one of them the
/// attacker's. Each case failed before the store's metadata was sealed.
@Suite(.serialized) struct StoreTamperTests {
    static let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../harness/token-recorder").standardized.path

    /// A recording provider: the process, its issuer URL and its log of token request bodies.
    struct Recorder {
        let process: LiveProcess
        let issuer: String
        let log: String

        var requests: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
    }

    static func recorder(_ dir: TempDirectory, _ name: String) throws -> Recorder {
        let port = FreePort.pick()
        let log = dir.file("\(name).log")
        let process = try LiveProcess(harness, [String(port), log], environment: ["PATH": "/usr/bin:/bin"])
        _ = try process.waitFor("the \(name) provider") { $0.contains("ready") ? true : nil }
        return Recorder(process: process, issuer: "http://127.0.0.1:\(port)", log: log)
    }

    static func oidc(_ id: String, _ issuer: String) -> String {
        """
        [[provider]]
        id = "\(id)"
        kind = "oidc"
        client_id = "authdeck-test"
        scopes = ["openid", "offline_access"]
        endpoints = { issuer = "\(issuer)" }
        options = { auth_method = "none" }

        """
    }

    /// An account of provider `h` with a refresh token `rt-<name>` and an access token `at-<name>`
    /// valid for an hour (`expired`: an hour ago).
    static func account(_ id: String, _ name: String, expired: Bool = false) -> StoredAccount {
        let now = SystemClock().now()
        return StoredAccount(
            account: Account(id: id, providerId: "h", subject: "s-\(name)", username: "\(name)@example.jp",
                             createdAt: now - .days(1), lastSignInAt: now - .days(1)),
            credentials: Credentials(
                accessTokens: [AccessToken(id: "a-\(name)", value: Secret("at-\(name)"), scopes: ["openid", "offline_access"],
                                           obtainedAt: now - .hours(2), expiresAt: expired ? now - .hours(1) : now + .hours(1))],
                refreshToken: RefreshToken(id: "r-\(name)", value: Secret("rt-\(name)"), generation: 1, obtainedAt: now - .days(1))))
    }

    /// A home with `toml` as its config and `accounts` in its store; the runner, the store's path
    /// and the home (removed when released).
    static func home(_ toml: String, _ accounts: [StoredAccount]) throws -> (BinaryRunner, String, TempDirectory) {
        let home = TempDirectory("authdeck-tamper")
        let runner = BinaryRunner.authdeck(home: home)
        try home.writeConfig(toml)
        let location = StoreLocation.resolve(storeFlag: nil, environment: runner.environment)
        let store = try DeckStore.open(location, clock: SystemClock())
        for a in accounts { try store.insert(a) }
        return (runner, location.databasePath, home)
    }

    /// Runs `sql` on the store file with the sqlite3 program: no key, no authdeck code.
    static func edit(_ db: String, _ sql: String) throws {
        let r = try BinaryRunner(executable: "/usr/bin/sqlite3").run([db, sql])
        #expect(r.status == 0, "sqlite3: \(r.stderr)")
    }

    /// Attack 1 of the campaign: the cached discovery document's `token_endpoint` rewritten to
    /// the attacker's and `fetched_at` made fresh; `refresh --force` POSTed the decrypted refresh
    /// token there. Now the cache fails its seal, is discarded and fetched again from the issuer.
    @Test func aRewrittenDiscoveryCacheIsFetchedAgainAndNoTokenGoesElsewhere() throws {
        let dir = TempDirectory("authdeck-tamper-servers")
        let real = try Self.recorder(dir, "real"), attacker = try Self.recorder(dir, "attacker")
        let (runner, db, home) = try Self.home(Self.oidc("h", real.issuer), [Self.account("h/0000beef", "taro")])
        defer { withExtendedLifetime(home) {} }
        let first = try runner.run(["refresh", "h/0000beef", "--force"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(real.requests.contains("rt-taro"))
        try Self.edit(db, """
            UPDATE discovery_cache SET document = replace(document, '\(real.issuer)/token', '\(attacker.issuer)/token'),
            fetched_at = CAST(strftime('%s','now') AS INTEGER);
            """)
        let second = try runner.run(["refresh", "h/0000beef", "--force"])
        withExtendedLifetime([real, attacker]) {}
        #expect(second.status == 0, "\(second.stderr)")
        #expect(attacker.requests.isEmpty, "the attacker's server received: \(attacker.requests)")
        #expect(real.requests.split(separator: "\n").count == 2, "the second renewal went to the issuer's own endpoint")
        let events = try runner.run(["events"])
        #expect(events.stdout.contains("did not match its seal"), "\(events.stdout)")
    }

    /// Attack 2: `accounts.provider_id` moved to another configured provider sent the refresh
    /// token to that provider's token endpoint. Now the account is refused, by name.
    @Test func anAccountMovedToAnotherProviderIsRefusedAndItsTokenStaysHome() throws {
        let dir = TempDirectory("authdeck-tamper-servers")
        let real = try Self.recorder(dir, "real"), attacker = try Self.recorder(dir, "attacker")
        let (runner, db, home) = try Self.home(Self.oidc("h", real.issuer) + Self.oidc("evil", attacker.issuer),
                                         [Self.account("h/0000beef", "taro", expired: true)])
        defer { withExtendedLifetime(home) {} }
        try Self.edit(db, "UPDATE accounts SET provider_id = 'evil' WHERE id = 'h/0000beef'")
        for arguments in [["refresh", "h/0000beef", "--force"], ["token", "h/0000beef"], ["refresh", "--all", "--force"]] {
            let r = try runner.run(arguments)
            #expect(r.status != 0, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("h/0000beef") && r.stderr.contains("changed without the key"), "\(arguments): \(r.stderr)")
            #expect(!r.stdout.contains("at-taro") && !r.stderr.contains("rt-taro"))
            // Said once, and not "try again later" (exit 4): no retry changes an edited record.
            #expect(!r.stderr.contains("h/0000beef: h/0000beef") && r.status != 4, "\(arguments): \(r.status) \(r.stderr)")
        }
        withExtendedLifetime([real, attacker]) {}
        #expect(attacker.requests.isEmpty, "the attacker's server received: \(attacker.requests)")
        #expect(real.requests.isEmpty)
        // The way out the message gives: deleted locally, unopened.
        let out = try runner.run(["logout", "h/0000beef", "--local"])
        #expect(out.status == 0 && out.stdout.contains("Deleted h/0000beef"), "\(out.stdout) \(out.stderr)")
        #expect(attacker.requests.isEmpty)
    }

    /// Attack 3: a SharePoint cookie moved to `.evil.example` with a year's expiry, to another
    /// path, or to another account still opened and was exported. Now each is refused.
    @Test(arguments: [
        "UPDATE cookies SET domain = '.evil.example', expires_at = expires_at + 31536000",
        "UPDATE cookies SET path = '/_layouts/evil'",
        "UPDATE cookies SET secure = 0",
        "UPDATE cookies SET account_id = 'h/0000cafe'",
    ])
    func anEditedCookieIsNeverExported(edit: String) throws {
        let now = SystemClock().now()
        func cookieAccount(_ id: String, _ name: String, cookie: String?) -> StoredAccount {
            StoredAccount(account: Account(id: id, providerId: "h", subject: "s-\(name)", username: "\(name)@example.jp",
                                           createdAt: now - .days(1), lastSignInAt: now - .days(1)),
                          credentials: Credentials(cookies: cookie.map {
                              [Cookie(id: "c-\(name)", name: "FedAuth", value: Secret($0), domain: "contoso.sharepoint.com", path: "/",
                                      expiresAt: now + .hours(2), secure: true, httpOnly: true)]
                          } ?? []))
        }
        let toml = """
            [[provider]]
            id = "h"
            kind = "sharepoint"
            options = { site = "contoso.sharepoint.com", mode = "legacy", login_url = "http://127.0.0.1:9/login" }
            """
        let (runner, db, home) = try Self.home(toml, [cookieAccount("h/0000beef", "taro", cookie: "fedauth-secret-taro"),
                                                cookieAccount("h/0000cafe", "jiro", cookie: nil)])
        defer { withExtendedLifetime(home) {} }
        let before = try runner.run(["cookies", "h/0000beef"])
        #expect(before.status == 0 && before.stdout.contains("fedauth-secret-taro"), "\(before.stdout) \(before.stderr)")
        try Self.edit(db, edit)
        for target in ["h/0000beef", "h/0000cafe"] {
            let r = try runner.run(["cookies", target])
            #expect(!r.stdout.contains("fedauth-secret-taro"), "\(edit): \(target) exported the cookie: \(r.stdout)")
        }
        let owner = edit.contains("account_id") ? "h/0000cafe" : "h/0000beef"
        let r = try runner.run(["cookies", owner])
        #expect(r.status != 0 && r.stderr.contains("\(owner): its record in the store was changed without the key"), "\(edit): \(r.stderr)")
    }

    /// Attack 4 (for whom): two accounts' usernames swapped, so `token alice` answered with
    /// bob's token — through the front too. Both binaries now check the row's seal.
    @Test func swappedUsernamesNeverServeAnotherAccountsToken() throws {
        let dir = TempDirectory("authdeck-tamper-servers")
        let real = try Self.recorder(dir, "real")
        let (runner, db, home) = try Self.home(Self.oidc("h", real.issuer), [Self.account("h/0000a11c", "alice"), Self.account("h/00000b0b", "bob")])
        defer { withExtendedLifetime(home) {} }
        let first = try runner.run(["token", "alice@example.jp"])
        #expect(first.status == 0 && first.stdout.contains("at-alice"), "\(first.stdout) \(first.stderr)")
        try Self.edit(db, """
            UPDATE accounts SET username = CASE id WHEN 'h/0000a11c' THEN 'bob@example.jp' ELSE 'alice@example.jp' END;
            """)
        let r = try runner.run(["token", "alice@example.jp"])
        withExtendedLifetime(real) {}
        #expect(!r.stdout.contains("at-bob"), "bob's token was served as alice's")
        #expect(r.status != 0 && r.stderr.contains("h/00000b0b: its record in the store was changed without the key"), "\(r.stderr)")
        #expect(real.requests.isEmpty)
    }
}
