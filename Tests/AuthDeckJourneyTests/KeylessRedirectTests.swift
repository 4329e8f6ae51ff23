import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// Issue 38, section 4: a writer of the store without the key can delete, never redirect. Rows
/// deleted with sqlite3 — the default's account, the default itself, the front's tenant pins —
/// must leave `token`, `git-credential get`, `kube-credential` and the front answering with the
/// account they answered with before, or with nothing; never with another account's token.
///
/// The store holds taro (work's default) and jiro of provider `work`, and the dev tenant's
/// account of the tenant-pinned `prod`, all with valid cached tokens. `lone` is a copy of the
/// front alone, so a call it does not answer itself fails with "cannot find authdeck-full".
@Suite struct KeylessRedirectTests {
    let dir = TempDirectory("authdeck-keyless")
    let fixture: DeckFixture
    let env: [String: String]
    let runner: BinaryRunner
    let lone: BinaryRunner
    let sqlite = BinaryRunner(executable: "/usr/bin/sqlite3", environment: [:])
    var storePath: String { dir.file("data/authdeck/authdeck.db") }
    static let taro = "work/0000a001", jiro = "work/0000a002", devTenant = "prod/0000a008"
    static let gitDefault = "protocol=https\nhost=dev.azure.com\npath=default/app.git\n\n"
    static let routes = """

        [[credential]]
        url = "https://dev.azure.com/default"
        account = "work"

        """

    init() throws {
        env = ["HOME": dir.path, "XDG_DATA_HOME": dir.file("data"), "XDG_CONFIG_HOME": dir.file("config"),
               "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        runner = BinaryRunner(product: "authdeck", environment: env)
        lone = BinaryRunner(executable: dir.file("lone/authdeck"), environment: env)
        fixture = DeckFixture(now: SystemClock().now())
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: env), clock: SystemClock())
        for stored in fixture.accounts where [Self.taro, Self.jiro, Self.devTenant].contains(stored.account.id) { try store.insert(stored) }
        try store.setDefaultAccount(Self.taro, provider: "work")
        try FileManager.default.createDirectory(atPath: dir.file("config/authdeck"), withIntermediateDirectories: true)
        try (DeckFixture.configTOML + Self.routes).write(toFile: dir.file("config/authdeck/config.toml"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir.file("lone"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: runner.executable, toPath: dir.file("lone/authdeck"))
    }

    /// The three ways a provider id reaches the matcher, as the helpers and scripts call them.
    static let calls: [(arguments: [String], stdin: String?)] = [
        (["token", "work"], nil), (["git-credential", "get"], gitDefault), (["kube-credential", "work"], nil),
    ]

    func secret(of id: String) throws -> String {
        try #require(fixture.accounts.first { $0.account.id == id }?.credentials.accessTokens.first?.value.exposedValue)
    }

    /// Every call answered with taro's token, by authdeck-full and then the front alone (so the
    /// front's sealed records are in place before anything is deleted).
    func expectTaroAnswers() throws {
        let taro = try secret(of: Self.taro)
        for binary in [runner, lone] {
            for call in Self.calls {
                let r = try binary.run(call.arguments, stdin: call.stdin)
                #expect(r.status == 0 && r.stdout.contains(taro), "\(call.arguments): \(r.stderr)")
            }
        }
    }

    func sql(_ statement: String) throws {
        let r = try sqlite.run([storePath, statement])
        #expect(r.status == 0, "\(statement): \(r.stderr)")
    }

    /// No output of any binary holds a token of an account the call did not name before.
    func expectNoTokenOf(_ ids: [String], _ r: BinaryRunner.Result, _ why: Comment) throws {
        for id in ids {
            let token = try secret(of: id)
            #expect(!r.stdout.contains(token) && !r.stderr.contains(token), why)
        }
    }

    /// The reported case: the default's row deleted made `work` name jiro, its only other account.
    @Test func aDeletedDefaultAccountLeavesTheProviderIdNamingNothing() throws {
        try expectTaroAnswers()
        try sql("DELETE FROM accounts WHERE id = '\(Self.taro)'")
        for call in Self.calls {
            let fast = try lone.run(call.arguments, stdin: call.stdin)
            #expect(fast.status == 1 && fast.stderr.contains("cannot find authdeck-full"), "\(call.arguments): the front hands over: \(fast.stdout)")
            try expectNoTokenOf([Self.jiro], fast, "\(call.arguments): the front")
            let full = try runner.run(call.arguments, stdin: call.stdin)
            try expectNoTokenOf([Self.jiro], full, "\(call.arguments): authdeck-full")
            #expect(full.stdout.isEmpty, "\(call.arguments): \(full.stdout)")
            #expect(full.stderr.contains("work's default account \(Self.taro) is gone") && full.stderr.contains("`authdeck use ACCOUNT`"),
                    "\(call.arguments): \(full.stderr)")
            // git goes on to its next helper (exit 0, nothing on stdout); the others need a person.
            #expect(full.status == (call.arguments[0] == "git-credential" ? 0 : 3), "\(call.arguments): \(full.status)")
        }
        #expect(try runner.run(["use"]).stdout.contains("work  \(Self.taro)  (gone: "))
        // jiro is still jiro, and choosing a default again makes `work` name it.
        let jiro = try secret(of: Self.jiro) + "\n"
        #expect(try runner.run(["token", "jiro@contoso.com"]).stdout == jiro)
        #expect(try runner.run(["use", Self.jiro]).status == 0)
        #expect(try runner.run(["token", "work"]).stdout == jiro)
    }

    /// The default's record deleted: `work` names two accounts again, so neither answers.
    @Test func aDeletedDefaultRecordAnswersWithNeitherAccount() throws {
        try expectTaroAnswers()
        try sql("DELETE FROM provider_secrets WHERE name = 'default_account'")
        for binary in [runner, lone] {
            for call in Self.calls {
                let r = try binary.run(call.arguments, stdin: call.stdin)
                try expectNoTokenOf([Self.taro, Self.jiro], r, "\(call.arguments)")
                #expect(r.stdout.isEmpty, "\(call.arguments): \(r.stdout)")
            }
        }
    }

    /// Found by the fresh attack pass: the default's record deleted and taro *hidden* — moved to
    /// the quarantine, or to another provider, by one unsealed column — left jiro `work`'s only
    /// match. A name other than an id is answered only when every row holds its seal.
    @Test(arguments: ["UPDATE accounts SET quarantined_at = 1 WHERE id = '\(taro)'",
                      "UPDATE accounts SET provider_id = 'zzz' WHERE id = '\(taro)'"])
    func aHiddenDefaultAccountLeavesTheProviderIdNamingNothing(hide: String) throws {
        try expectTaroAnswers()
        try sql("DELETE FROM provider_secrets WHERE name = 'default_account'")
        try sql(hide)
        for call in Self.calls {
            let fast = try lone.run(call.arguments, stdin: call.stdin)
            #expect(fast.status == 1 && fast.stderr.contains("cannot find authdeck-full"), "\(call.arguments): the front hands over: \(fast.stdout)")
            let full = try runner.run(call.arguments, stdin: call.stdin)
            try expectNoTokenOf([Self.jiro, Self.taro], full, "\(call.arguments): authdeck-full")
            #expect(full.stdout.isEmpty && full.stderr.contains(Self.taro), "\(call.arguments): \(full.stdout) \(full.stderr)")
        }
        // An exact id still answers: no hidden row can stand in for it.
        #expect(try runner.run(["token", Self.jiro]).stdout == (try secret(of: Self.jiro)) + "\n")
    }

    /// The front's record with its tenant pins deleted: it cannot tell the dev tenant's account
    /// from prod's, so it hands every call over, and authdeck-full (which reads the pins from
    /// config) refuses it.
    @Test func deletedTenantPinsServeNoOtherTenant() throws {
        try expectTaroAnswers()
        try sql("DELETE FROM meta WHERE key LIKE 'fast_front.v1%'")
        for query in ["prod", Self.devTenant, Self.taro] {
            let fast = try lone.run(["token", query])
            #expect(fast.status == 1 && fast.stderr.contains("cannot find authdeck-full"), "\(query): the front hands over")
        }
        let full = try runner.run(["token", "prod"])
        #expect(full.status != 0 && full.stdout.isEmpty, "\(full.stdout)")
        try expectNoTokenOf([Self.devTenant], full, "the dev tenant's token for prod")
        // Deleting the default's record and every fast-path record at once changes nothing either.
        try sql("DELETE FROM meta WHERE key LIKE 'fast_%'")
        try expectNoTokenOf([Self.devTenant], try runner.run(["kube-credential", "prod"]), "kube-credential prod")
    }
}
