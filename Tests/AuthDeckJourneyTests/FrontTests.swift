import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform
import AuthDeckVault

/// The `authdeck` front: it answers `authdeck token ACCOUNT` from the store only when the
/// answer is certain, and hands everything else to `authdeck-full`.
///
/// A copy of the front alone in a directory without `authdeck-full` shows which calls it
/// answers itself: a handed-over call fails there with "cannot find authdeck-full".
@Suite struct FrontTests {
    let dir = TempDirectory("authdeck-front")
    let fixture: DeckFixture
    let env: [String: String]
    let runner: BinaryRunner
    let lone: BinaryRunner
    var storePath: String { dir.file("data/authdeck/authdeck.db") }
    var configPath: String { dir.file("config/authdeck/config.toml") }
    var validToken: String { fixture.secrets[0] }

    init() throws {
        env = ["HOME": dir.path, "XDG_DATA_HOME": dir.file("data"), "XDG_CONFIG_HOME": dir.file("config"),
               "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        runner = BinaryRunner(product: "authdeck", environment: env)
        lone = BinaryRunner(executable: dir.file("lone/authdeck"), environment: env)
        fixture = DeckFixture(now: SystemClock().now())
        let store = try openStore()
        for stored in fixture.accounts { try store.insert(stored) }
        try FileManager.default.createDirectory(atPath: dir.file("config/authdeck"), withIntermediateDirectories: true)
        try DeckFixture.configTOML.write(toFile: configPath, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir.file("lone"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: runner.executable, toPath: lone.executable)
    }

    func openStore() throws -> DeckStore {
        try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: env), clock: SystemClock())
    }

    /// Expects the lone front to have handed `arguments` over (and so to have failed).
    func expectHandedOver(_ arguments: [String], _ why: Comment) throws {
        let r = try lone.run(arguments)
        #expect(r.status == 1 && r.stderr.contains("cannot find authdeck-full"), why)
        #expect(r.stdout.isEmpty, why)
    }

    /// Issue 30: the installed front is a static executable, whose password-database lookups
    /// would go through the NSS modules of the machine it was built on. Without HOME (the only
    /// case that reads the database) it hands over instead of resolving the paths itself.
    @Test func withoutHomeTheFrontHandsOver() throws {
        #expect(try runner.run(["token", "work/0000a001"]).status == 0)  // records the config for the front
        #expect(try lone.run(["token", "work/0000a001"]).stdout == validToken + "\n", "with HOME the lone front serves")
        var noHome = env
        noHome["HOME"] = nil
        let r = try BinaryRunner(executable: lone.executable, environment: noHome).run(["token", "work/0000a001"])
        #expect(r.status == 1 && r.stderr.contains("cannot find authdeck-full") && r.stdout.isEmpty, "\(r.stderr)")
    }

    /// Issue 30: the front's renewal hint makes authdeck-full load libcurl on a thread of its own.
    /// It changes no answer; a process that needs no network after all exits while the load
    /// may be under way — it must neither hang nor crash there — and no child inherits the hint.
    @Test func theRenewalHintChangesNoAnswerAndNoChildInheritsIt() throws {
        let full = BinaryRunner(product: "authdeck-full", environment: env)
        let hint = ["AUTHDECK_FRONT_HINT": "renewal-due"]
        for _ in 0..<25 {
            let r = try full.run(["token", "work/0000a001"], env: hint, timeout: 20)
            #expect(r.status == 0 && r.stdout == validToken + "\n", "\(r.stderr)")
        }
        let child = try full.run(["exec", "work/0000a001", "--", "/usr/bin/env"], env: hint, timeout: 20)
        #expect(child.status == 0, "\(child.stderr)")
        #expect(child.stdout.contains("PATH=") && !child.stdout.contains("AUTHDECK_FRONT_HINT"))
    }

    /// Issue 26, attack pass: the fast-path record's clock-skew margin decides until when the
    /// front serves a token; edited without the key (a margin of 0) it served a token inside the
    /// configured margin. The record is sealed: an edited one is handed over, never believed.
    @Test func aFastPathRecordEditedWithoutTheKeyIsNotBelieved() throws {
        #expect(try runner.run(["token", "work/0000a001"]).status == 0)
        let served = try lone.run(["token", "work/0000a001"])
        #expect(served.status == 0 && served.stdout == validToken + "\n", "the lone front serves: \(served.stderr)")
        let r = try BinaryRunner(executable: "/usr/bin/sqlite3").run([storePath,
            "UPDATE meta SET value = '1:0' || substr(CAST(value AS TEXT), 5) WHERE key = 'fast_front.v1' AND substr(CAST(value AS TEXT), 1, 4) = '2:60'"])
        #expect(try BinaryRunner(executable: "/usr/bin/sqlite3").run([storePath, "SELECT substr(CAST(value AS TEXT), 1, 3) FROM meta WHERE key = 'fast_front.v1'"]).stdout == "1:0\n")
        #expect(r.status == 0, "\(r.stderr)")
        try expectHandedOver(["token", "work/0000a001"], "an edited margin is not believed")
    }

    /// An account signed in to another tenant than its provider pins gets no token from the
    /// front (it served `token prod` the dev tenant's cached token), and tenant pins edited
    /// without the key — the prod pin made the dev tenant — are not believed.
    @Test func theFrontServesNoTokenOfAnotherTenantThanItsProviderPins() throws {
        #expect(try runner.run(["token", "work/0000a001"]).status == 0)
        #expect(try lone.run(["token", "work/0000a001"]).status == 0, "the records are in place")
        #expect(try openStore().sealedRecord(FrontRecord.self)?.pins["prod"] == DeckFixture.prodTenant)
        try expectHandedOver(["token", "prod/0000a008"], "an account of another tenant")
        let r = try BinaryRunner(executable: "/usr/bin/sqlite3").run([storePath,
            "UPDATE meta SET value = replace(CAST(value AS TEXT), '\(DeckFixture.prodTenant)', '\(DeckFixture.devTenant)') WHERE key = 'fast_front.v1'"])
        #expect(r.status == 0, "\(r.stderr)")
        try expectHandedOver(["token", "work/0000a001"], "tenant pins edited without the key")
    }

    @Test func servesACachedTokenWithoutTheFullBinaryOnceTheConfigIsRecorded() throws {
        // No record of the config yet: only authdeck-full may answer.
        try expectHandedOver(["token", "work/0000a001"], "no fast-path record yet")
        let full = try runner.run(["token", "work/0000a001"])
        #expect(full.status == 0, "\(full.stderr)")
        #expect(full.stdout == validToken + "\n")
        let record = try #require(try openStore().sealedRecord(FrontRecord.self))
        #expect(record.clockSkewSeconds == 60)
        #expect(record.configIdentity.hasPrefix(configPath + " "))

        // Now the front answers alone, byte for byte what authdeck-full printed, for every
        // way of naming the account that AccountMatcher accepts.
        for name in ["work/0000a001", "WORK/0000A001"] {
            let fast = try lone.run(["token", name])
            #expect(fast.status == 0, "\(name): \(fast.stderr)")
            #expect(fast.stdout == full.stdout, "\(name)")
            #expect(fast.stderr.isEmpty, "\(name): \(fast.stderr)")
        }
        let jiro = try runner.run(["token", "jiro"])
        #expect(jiro.status == 0, "\(jiro.stderr)")
        #expect(try lone.run(["token", "jiro"]).stdout == jiro.stdout, "a unique username prefix")
        // A username shared by a duplicate is ambiguous: authdeck-full lists the candidates.
        try expectHandedOver(["token", "taro@contoso.com"], "ambiguous username")
    }

    @Test func marksTheAccountUsedAtMostOnceAMinute() throws {
        #expect(try runner.run(["token", "work/0000a001"]).status == 0)
        let store = try openStore()
        var account = try #require(try store.account(id: "work/0000a001")).account
        account.lastUsedAt = SystemClock().now() - .hours(3)
        try store.update(account)
        let before = SystemClock().now()
        #expect(try lone.run(["token", "work/0000a001"]).status == 0)
        let used = try #require(try store.account(id: "work/0000a001")?.account.lastUsedAt)
        #expect(used >= before, "last used \(used), expected at least \(before)")
    }

    @Test func handsOverWheneverItCannotBeSure() throws {
        #expect(try runner.run(["token", "work/0000a001"]).status == 0)
        #expect(try lone.run(["token", "work/0000a002"]).status == 0, "6 min left, outside the 60 s margin")
        try expectHandedOver(["token", "work/0000a003"], "expired: only authdeck-full renews")
        try expectHandedOver(["token", "work/0000a005"], "needs sign-in: authdeck-full explains")
        try expectHandedOver(["token", "nobody"], "no such account: authdeck-full says so")
        try expectHandedOver(["token", "--scope", "Mail.Read", "work/0000a001"], "options: authdeck-full parses them")
        try expectHandedOver(["token", "-h"], "help")

        // A store file others can read deserves authdeck-full's warning.
        chmod(storePath, 0o644)
        try expectHandedOver(["token", "work/0000a001"], "loose store mode")
        chmod(storePath, 0o600)
        #expect(try lone.run(["token", "work/0000a001"]).status == 0)
    }

    /// A token the front cannot write (a full disk) is an error that says so, as in the full binary.
    @Test func aTokenThatCannotBeWrittenSaysSo() throws {
        #expect(try runner.run(["token", "work/0000a001"]).status == 0)
        var shell = BinaryRunner(executable: "/bin/sh", environment: env)
        shell.environment["FRONT"] = lone.executable
        let r = try shell.run(["-c", "\"$FRONT\" token work/0000a001 > /dev/full"])
        #expect(r.status == 1)
        #expect(r.stderr == "authdeck: cannot write to standard output: No space left on device\n", "\(r.stderr)")
    }

    /// A store a newer authdeck migrated is the full binary's: the front checks the schema
    /// version the store stamps (`StoreLayout.schemaVersion`, SQLite's user_version) against
    /// the one it knows before trusting a column. A newer authdeck records its migration and
    /// stamps its version, as this one does.
    @Test func aStoreMigratedByANewerAuthdeckIsHandedOver() throws {
        #expect(try runner.run(["token", "work/0000a001"]).status == 0)
        #expect(try lone.run(["token", "work/0000a001"]).status == 0)
        let sqlite = BinaryRunner(executable: "/usr/bin/sqlite3", environment: [:])
        #expect(try sqlite.run([storePath, "INSERT INTO grdb_migrations (identifier) VALUES ('999-from-the-future'); PRAGMA user_version = \(StoreLayout.schemaVersion + 1)"]).status == 0)
        try expectHandedOver(["token", "work/0000a001"], "an unknown migration")
    }

    /// The front knows the schema by the version the store stamps, not by GRDB's private
    /// `grdb_migrations` table: with that table out of its sight it still answers, and a store
    /// as an authdeck that did not stamp its version left it (user_version 0: every store
    /// before issue 42) is handed over until authdeck-full has opened it once.
    @Test func theFrontReadsTheStampedSchemaVersionNotGRDBsTable() throws {
        #expect(try runner.run(["token", "work/0000a001"]).status == 0)
        let sqlite = BinaryRunner(executable: "/usr/bin/sqlite3", environment: [:])
        #expect(try sqlite.run([storePath, "PRAGMA user_version"]).stdout == "\(StoreLayout.schemaVersion)\n")
        #expect(try sqlite.run([storePath, "ALTER TABLE grdb_migrations RENAME TO grdb_migrations_aside"]).status == 0)
        #expect(try lone.run(["token", "work/0000a001"]).stdout == validToken + "\n", "no grdb_migrations table to read")
        #expect(try sqlite.run([storePath, "ALTER TABLE grdb_migrations_aside RENAME TO grdb_migrations; PRAGMA user_version = 0"]).status == 0)
        try expectHandedOver(["token", "work/0000a001"], "a store whose version was never stamped")
        #expect(try runner.run(["token", "work/0000a001"]).stdout == validToken + "\n")
        #expect(try sqlite.run([storePath, "PRAGMA user_version"]).stdout == "\(StoreLayout.schemaVersion)\n", "stamped on opening")
        #expect(try lone.run(["token", "work/0000a001"]).stdout == validToken + "\n")
    }

    @Test func anEditedConfigIsReadAgainByTheFullBinaryAndItsClockSkewHonoured() throws {
        #expect(try runner.run(["token", "work/0000a001"]).status == 0)
        let original = try String(contentsOfFile: configPath, encoding: .utf8)
        // A 3-hour margin: the 2-hour token of work/0000a001 is no longer good enough.
        let edited = original.replacingOccurrences(of: "clock_skew = \"60s\"", with: "clock_skew = \"3h\"")
        #expect(edited != original)
        try edited.write(toFile: configPath, atomically: true, encoding: .utf8)
        try expectHandedOver(["token", "work/0000a001"], "config changed since it was recorded")
        // authdeck-full records the new file (this account needs a sign-in: no network is tried).
        let mfa = try runner.run(["token", "work/0000a005"])
        #expect(mfa.status == 3, "\(mfa.stderr)")
        #expect(try openStore().sealedRecord(FrontRecord.self)?.clockSkewSeconds == 3 * 3600)
        try expectHandedOver(["token", "work/0000a001"], "2 h left is inside the recorded 3 h margin")

        // Back to the original text (a new file: new inode and times), read again before the front answers.
        try original.write(toFile: configPath, atomically: true, encoding: .utf8)
        try expectHandedOver(["token", "work/0000a001"], "config changed again")
        #expect(try runner.run(["token", "work/0000a001"]).stdout == validToken + "\n")
        #expect(try lone.run(["token", "work/0000a001"]).stdout == validToken + "\n")
    }

    @Test func aPassphraseStoreIsAlwaysTheFullBinarys() throws {
        let file = dir.file("passphrase")
        try "front test passphrase\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        let withPassphrase = ["AUTHDECK_PASSPHRASE_FILE": file]
        let migrate = try runner.run(["key", "migrate", "--to", "passphrase"], env: withPassphrase)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let full = try runner.run(["token", "work/0000a001"], env: withPassphrase)
        #expect(full.stdout == validToken + "\n", "\(full.stderr)")
        let r = try lone.run(["token", "work/0000a001"], env: withPassphrase)
        #expect(r.status == 1 && r.stderr.contains("cannot find authdeck-full"), "the key file cannot open a passphrase store")
    }

    /// Attack 10: an access token's row moved to another account (`UPDATE access_tokens SET
    /// account_id=…`) made `token` print the first account's token for the second; neither
    /// binary may, and an edited expiry must not open either.
    @Test func anAccessTokenRowMovedToAnotherAccountIsNotServed() throws {
        #expect(try runner.run(["token", "work/0000a001"]).status == 0)
        let store = try openStore()
        try store.write { db in
            try db.execute(sql: "DELETE FROM access_tokens WHERE account_id = 'work/0000a002'")
            try db.execute(sql: "UPDATE access_tokens SET account_id = 'work/0000a002' WHERE account_id = 'work/0000a001'")
        }
        let fast = try lone.run(["token", "work/0000a002"])
        #expect(!fast.stdout.contains(validToken), "the front served a moved token")
        let full = try runner.run(["token", "work/0000a002"])
        #expect(!full.stdout.contains(validToken), "authdeck-full served a moved token")
        #expect(full.status != 0)
        // Put back, then a longer life written into the expired token's row.
        try store.write { db in
            try db.execute(sql: "UPDATE access_tokens SET account_id = 'work/0000a001' WHERE id = 'at-valid'")
            try db.execute(sql: "UPDATE access_tokens SET expires_at = expires_at + 86400 WHERE account_id = 'work/0000a003'")
        }
        #expect(try lone.run(["token", "work/0000a001"]).stdout == validToken + "\n", "the untouched row still opens")
        let extended = try lone.run(["token", "work/0000a003"])
        #expect(!extended.stdout.contains("at-expired"), "an edited expiry must not open: \(extended.stdout)")
    }
}
