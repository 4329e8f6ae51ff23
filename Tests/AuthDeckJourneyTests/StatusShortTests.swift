import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform
import AuthDeckVault

/// `authdeck status --short` (issue 39): one line of what needs the person for a shell prompt
/// or tmux, nothing when all is well; answered by the front from the store once authdeck-full
/// has recorded the config (`StatusFastPath`), and the same line from both binaries.
///
/// A copy of the front alone in a directory without `authdeck-full` shows which calls it
/// answers itself: a handed-over call fails there with "cannot find authdeck-full".
@Suite struct StatusShortTests {
    let dir = TempDirectory("authdeck-status-short")
    let env: [String: String]
    let runner: BinaryRunner
    let full: BinaryRunner
    let lone: BinaryRunner
    var storePath: String { dir.file("data/authdeck/authdeck.db") }
    var configPath: String { dir.file("config/authdeck/config.toml") }

    /// The deck fixture made 30 s ago: work/0000a002's 6 minutes are 5 whole minutes while a
    /// test runs (made now, a binary run in the same second said 6).
    static func fixture() -> DeckFixture { DeckFixture(now: SystemClock().now() - .seconds(30)) }

    /// What the fixture's deck needs: work/0000a002 expires in 5 whole minutes, a needs-sign-in account and a Facebook token that cannot renew,
    /// one sign-in never completed, six prune candidates.
    static let fixtureLine = "authdeck: 1 expiring in 5m, 2 to sign in, 1 failed, 6 stale\n"

    init() throws {
        env = ["HOME": dir.path, "XDG_DATA_HOME": dir.file("data"), "XDG_CONFIG_HOME": dir.file("config"),
               "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        runner = BinaryRunner(product: "authdeck", environment: env)
        full = BinaryRunner(product: "authdeck-full", environment: env)
        lone = BinaryRunner(executable: dir.file("lone/authdeck"), environment: env)
        try FileManager.default.createDirectory(atPath: dir.file("config/authdeck"), withIntermediateDirectories: true)
        try DeckFixture.configTOML.write(toFile: configPath, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir.file("lone"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: runner.executable, toPath: lone.executable)
    }

    func openStore() throws -> DeckStore {
        try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: env), clock: SystemClock())
    }

    func seed(_ accounts: [StoredAccount]) throws {
        let store = try openStore()
        for stored in accounts { try store.insert(stored) }
    }

    /// Expects the lone front to have handed `arguments` over (and so to have failed).
    func expectHandedOver(_ arguments: [String], _ why: Comment) throws {
        let r = try lone.run(arguments)
        #expect(r.status == 1 && r.stderr.contains("cannot find authdeck-full"), why)
        #expect(r.stdout.isEmpty, why)
    }

    @Test func bothBinariesPrintTheSameLineOfWhatNeedsThePerson() throws {
        try seed(Self.fixture().accounts)
        try expectHandedOver(["status", "--short"], "no record of the config yet")
        let slow = try full.run(["status", "--short"])
        #expect(slow.status == 0 && slow.stderr.isEmpty, "\(slow.stderr)")
        #expect(slow.stdout == Self.fixtureLine)
        #expect(try openStore().sealedRecord(StatusFastPath.self)?.configIdentity.hasPrefix(configPath + " ") == true)
        for arguments in [["status", "--short"], ["status", "--format", "prompt"], ["status", "--format=prompt"]] {
            let fast = try lone.run(arguments)
            #expect(fast.status == 0 && fast.stderr.isEmpty, "\(arguments): \(fast.stderr)")
            #expect(fast.stdout == slow.stdout, "\(arguments)")
        }
        #expect(try full.run(["status", "--format", "prompt"]).stdout == slow.stdout)
        #expect(try runner.run(["status", "--short", "--json"]).status == 2, "two answers asked")
    }

    /// Nothing when all is well: a prompt shows no text at all, and the exit status is 0.
    @Test func nothingAtAllWhenAllIsWell() throws {
        let fixture = Self.fixture()
        try seed(fixture.accounts.filter { fixture.expectedStates[$0.account.id] == "signed_in" })
        let slow = try full.run(["status", "--short"])
        #expect(slow.status == 0 && slow.stdout.isEmpty && slow.stderr.isEmpty, "\(slow.stdout)\(slow.stderr)")
        let fast = try lone.run(["status", "--short"])
        #expect(fast.status == 0 && fast.stdout.isEmpty && fast.stderr.isEmpty, "\(fast.stdout)\(fast.stderr)")
        // No store yet (a fresh machine): nothing either, and none is created.
        let fresh = try full.run(["status", "--short"], env: ["XDG_DATA_HOME": dir.file("none")])
        #expect(fresh.status == 0 && fresh.stdout.isEmpty, "\(fresh.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("none/authdeck/authdeck.db")))
    }

    /// The prune settings come from the config: an edit (unused after 400 days, not 90) is read again by
    /// authdeck-full before the front answers, and both then agree on the new line.
    @Test func anEditedConfigIsReadAgainAndBothAgree() throws {
        try seed(Self.fixture().accounts)
        #expect(try full.run(["status", "--short"]).stdout == Self.fixtureLine)
        let original = try String(contentsOfFile: configPath, encoding: .utf8)
        let edited = original.replacingOccurrences(of: "unused_after = \"90d\"", with: "unused_after = \"400d\"")
        #expect(edited != original)
        try edited.write(toFile: configPath, atomically: true, encoding: .utf8)
        try expectHandedOver(["status", "--short"], "config changed since it was recorded")
        let slow = try full.run(["status", "--short"])
        // work/0000a013 is no longer stale: its expired token, with nothing to renew it, wants a sign-in.
        #expect(slow.stdout == "authdeck: 1 expiring in 5m, 3 to sign in, 1 failed, 5 stale\n", "\(slow.stdout)")
        #expect(try lone.run(["status", "--short"]).stdout == slow.stdout)
    }

    /// The record decides which accounts count as stale: one edited without the key (every
    /// provider made unknown, a grace stretched) is not believed.
    @Test func aStatusRecordEditedWithoutTheKeyIsNotBelieved() throws {
        try seed(Self.fixture().accounts)
        #expect(try full.run(["status", "--short"]).status == 0)
        #expect(try lone.run(["status", "--short"]).stdout == Self.fixtureLine)
        let r = try BinaryRunner(executable: "/usr/bin/sqlite3").run([storePath,
            "UPDATE meta SET value = replace(CAST(value AS TEXT), '7776000', '7776001') WHERE key = 'fast_status.v1'"])
        #expect(r.status == 0, "\(r.stderr)")
        try expectHandedOver(["status", "--short"], "an edited record")
        chmod(storePath, 0o644)
        try expectHandedOver(["status", "--short"], "a loose store mode deserves authdeck-full's warning")
    }
}
