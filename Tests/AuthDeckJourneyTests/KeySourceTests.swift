import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// Key sources through the real binary: a store moved from the key file to a passphrase and
/// to the Secret Service (gnome-keyring-daemon on a private session bus) and back, with every
/// sealed value left byte for byte as it was.
@Suite struct KeySourceTests {
    let dir = TempDirectory("authdeck-keys")
    let fixture: DeckFixture
    let runner: BinaryRunner
    var storePath: String { dir.file("data/authdeck/authdeck.db") }
    static let account = "work/0000a001"

    init() throws {
        runner = BinaryRunner.authdeck(home: dir)
        fixture = DeckFixture(now: SystemClock().now())
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
        for stored in fixture.accounts { try store.insert(stored) }
        try dir.writeConfig(DeckFixture.configTOML)
    }

    /// Every sealed column of every table except meta, as hex: what a migration must not touch.
    func sealedValues() throws -> String {
        let sql = """
        SELECT hex(sealed_value) FROM access_tokens; SELECT hex(sealed_value) FROM refresh_tokens;
        SELECT hex(sealed_value) FROM cookies; SELECT hex(sealed_value) FROM extras;
        """
        let r = try BinaryRunner(executable: "/usr/bin/sqlite3").run([storePath, sql])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    func writeSecretFile(_ name: String, _ text: String) throws -> String {
        let path = dir.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    @Test func aPassphraseStoreOpensOnlyWithItsPassphraseAndKeepsEverySealedValue() throws {
        let before = try sealedValues()
        let token = try runner.run(["token", Self.account])
        #expect(token.status == 0, "\(token.stderr)")
        let passphrase = "correct horse battery \(UInt32.random(in: 0...UInt32.max))"
        let good = try writeSecretFile("pass", passphrase + "\n")
        let withGood = ["AUTHDECK_PASSPHRASE_FILE": good]

        let migrate = try runner.run(["key", "migrate", "--to", "passphrase"], env: withGood)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(migrate.stdout.contains("file → passphrase"), "\(migrate.stdout)")
        #expect(try sealedValues() == before, "a migration re-wraps the data key only")

        let noPassphrase = try runner.run(["token", Self.account])
        #expect(noPassphrase.status != 0 && noPassphrase.stdout.isEmpty)
        #expect(noPassphrase.stderr.contains("AUTHDECK_PASSPHRASE_FILE"), "\(noPassphrase.stderr)")
        let wrong = try runner.run(["token", Self.account], env: ["AUTHDECK_PASSPHRASE_FILE": try writeSecretFile("wrong", "nope\n")])
        #expect(wrong.status != 0 && wrong.stderr.contains("wrong passphrase for \(storePath)"), "\(wrong.stderr)")
        let missing = try runner.run(["token", Self.account], env: ["AUTHDECK_PASSPHRASE_FILE": dir.file("absent")])
        #expect(missing.status != 0 && missing.stderr.contains(dir.file("absent")), "\(missing.stderr)")

        let after = try runner.run(["token", Self.account], env: withGood)
        #expect(after.status == 0 && after.stdout == token.stdout, "\(after.stderr)")
        let status = try runner.run(["status", "--json"], env: withGood)
        let json = try #require(JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect((json["key_source"] as? String)?.hasPrefix("passphrase (scrypt") == true, "\(status.stdout)")
        let events = try runner.run(["events", "--json"], env: withGood)
        #expect(events.stdout.contains("key_migrated"))

        // Changing the passphrase, then back to the key file: the token never changes.
        let next = try writeSecretFile("next", "another passphrase\n")
        let change = try runner.run(["key", "migrate", "--to", "passphrase", "--passphrase-file", next], env: withGood)
        #expect(change.status == 0, "\(change.stderr)")
        #expect(try runner.run(["token", Self.account], env: withGood).status != 0, "the old passphrase no longer opens it")
        let back = try runner.run(["key", "migrate", "--to", "file"], env: ["AUTHDECK_PASSPHRASE_FILE": next])
        #expect(back.status == 0, "\(back.stderr)")
        let last = try runner.run(["token", Self.account])
        #expect(last.status == 0 && last.stdout == token.stdout, "\(last.stderr)")
        #expect(try sealedValues() == before)

        for file in [storePath, storePath + "-wal"] {
            let bytes = FileManager.default.contents(atPath: file) ?? Data()
            #expect(bytes.range(of: Data(passphrase.utf8)) == nil, "the passphrase is not in \(file)")
        }
    }

    /// Issue 26: a passphrase file with mode 0644 was accepted (a 0640 key file is refused),
    /// and so was a one-space passphrase. The file now follows the key file's rule, to unlock
    /// and to choose; a new passphrase needs 8 characters, not all spaces.
    @Test func aLoosePassphraseFileAndAShortNewPassphraseAreRefused() throws {
        let before = try sealedValues()
        let good = try writeSecretFile("pass", "a good passphrase\n")
        let loose = try writeSecretFile("loose", "a good passphrase\n")
        chmod(loose, 0o644)
        let refusedLoose = try runner.run(["key", "migrate", "--to", "passphrase"], env: ["AUTHDECK_PASSPHRASE_FILE": loose])
        #expect(refusedLoose.status != 0, "a 0644 passphrase file is refused")
        #expect(refusedLoose.stderr.contains("passphrase file mode is 0644") && refusedLoose.stderr.contains("chmod 600 \(loose)"), "\(refusedLoose.stderr)")
        var refusals = [refusedLoose.stderr]
        for (name, text) in [("space", " \n"), ("short", "seven77\n"), ("spaces", "          \n")] {
            let r = try runner.run(["key", "migrate", "--to", "passphrase"], env: ["AUTHDECK_PASSPHRASE_FILE": try writeSecretFile(name, text)])
            #expect(r.status != 0, "\(name): refused")
            #expect(r.stderr.contains("a new passphrase needs at least 8 characters") || r.stderr.contains("cannot be only spaces"), "\(name): \(r.stderr)")
            refusals.append(r.stderr)
        }
        #expect(try sealedValues() == before, "nothing changed")
        #expect(try runner.run(["status", "--json"]).stdout.contains("key file"), "still sealed with the key file")
        // A good file, then the same passphrase through a loose file to unlock: refused too.
        let migrate = try runner.run(["key", "migrate", "--to", "passphrase"], env: ["AUTHDECK_PASSPHRASE_FILE": good])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let unlockLoose = try runner.run(["token", Self.account], env: ["AUTHDECK_PASSPHRASE_FILE": loose])
        #expect(unlockLoose.status != 0 && unlockLoose.stdout.isEmpty && unlockLoose.stderr.contains("chmod 600"), "\(unlockLoose.stderr)")
        chmod(loose, 0o640)
        let unlockGroup = try runner.run(["token", Self.account], env: ["AUTHDECK_PASSPHRASE_FILE": loose])
        #expect(unlockGroup.status != 0 && unlockGroup.stderr.contains("mode is 0640"), "\(unlockGroup.stderr)")
        #expect(try runner.run(["token", Self.account], env: ["AUTHDECK_PASSPHRASE_FILE": good]).status == 0)
        print("passphrase rules: \(refusals.count + 2) refused (0644 to choose, 3 short or blank, 0644 and 0640 to unlock), 2 accepted")
    }

    /// The start of a script run under `dbus-run-session`: an unlocked gnome-keyring-daemon
    /// serving the Secret Service, waited for, and killed (with the bus) however the script ends.
    static let keyringSession = """
        set -u
        printf 'keyring-password' | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
        daemon=$!
        bus=$(dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.DBus | awk '/uint32/ {print $2}')
        trap 'kill -9 $daemon $bus 2>/dev/null' EXIT
        i=0
        until dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; do
            i=$((i+1)); [ $i -gt 200 ] && { echo "no Secret Service after 10 s" >&2; exit 9; }
            sleep 0.05
        done

        """

    /// A killed orphan stays a zombie where the container's init does not reap: gone all the same.
    static func isZombie(_ pid: Int32) -> Bool {
        ((try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "").contains(") Z ")
    }

    static var keyringTools: Bool {
        ["/usr/bin/dbus-run-session", "/usr/bin/gnome-keyring-daemon", "/usr/bin/secret-tool", "/usr/bin/dbus-send"]
            .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test func aKeyringStoreOpensThroughTheSecretServiceAndMovesBackToTheKeyFile() throws {
        guard Self.keyringTools else {
            // CI installs gnome-keyring, libsecret-tools and dbus (.ci/run); elsewhere say why.
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "CI must install gnome-keyring, libsecret-tools and dbus-bin")
            return
        }
        let before = try sealedValues()
        let token = try runner.run(["token", Self.account])
        #expect(token.status == 0)
        let out = dir.file("keyring-out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        // One private session bus for the whole sequence; the keyring daemon runs in the
        // foreground so its pid is known. Both it and the bus are killed with SIGKILL when the
        // script ends: started from the test process, both outlived dbus-run-session's SIGTERM and
        // the bus kept our output pipes open.
        let script = Self.keyringSession + """
        echo $daemon $bus > \(out)/daemon.pid
        "$AUTHDECK" key migrate --to keyring > \(out)/migrate.out 2> \(out)/migrate.err; echo $? > \(out)/migrate.rc
        "$AUTHDECK" token \(Self.account) > \(out)/token.out 2> \(out)/token.err; echo $? > \(out)/token.rc
        id=$(sqlite3 \(storePath) "SELECT value FROM meta WHERE key = 'store_id'")
        secret-tool search --all store "$id" > \(out)/item.out 2>&1
        "$AUTHDECK" status --json > \(out)/status.out 2>&1
        """
        let run = try BinaryRunner(executable: "/usr/bin/dbus-run-session", environment: runner.environment.merging([
            "AUTHDECK": runner.executable, "XDG_RUNTIME_DIR": dir.path,
        ]) { _, new in new }).run(["--", "sh", "-c", script], timeout: 90)
        func file(_ name: String) -> String { (try? String(contentsOfFile: out + "/" + name, encoding: .utf8)) ?? "" }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(file("migrate.rc").hasPrefix("0"), "\(file("migrate.err"))")
        #expect(file("migrate.out").contains("file → keyring"))
        #expect(file("token.rc").hasPrefix("0") && file("token.out") == token.stdout, "\(file("token.err"))")
        #expect(file("item.out").contains("authdeck data key wrapping key"), "the item is in the keyring: \(file("item.out"))")
        #expect(file("status.out").contains("Secret Service (store="), "\(file("status.out"))")
        #expect(try sealedValues() == before)
        for pid in file("daemon.pid").split(whereSeparator: \.isWhitespace).compactMap({ Int32($0) }) {
            try waitUntil("process \(pid) (keyring daemon or bus) to end", timeout: 5) { kill(pid, 0) != 0 || Self.isZombie(pid) }
        }

        // With no session bus the store does not open, says why, and the key file does not help.
        let noBus = try runner.run(["token", Self.account], env: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(dir.file("no-bus"))"], timeout: 40)
        #expect(noBus.status != 0 && noBus.stdout.isEmpty)
        #expect(noBus.stderr.contains("Secret Service"), "\(noBus.stderr)")
        let count = try BinaryRunner(executable: "/usr/bin/sqlite3").run([storePath, "SELECT count(*) FROM accounts"])
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(fixture.accounts.count)")

        // Back to the key file, on a new bus whose keyring still has the item (same HOME).
        let backScript = Self.keyringSession + """
        "$AUTHDECK" key migrate --to file || exit 3
        id=$(sqlite3 \(storePath) "SELECT value FROM meta WHERE key = 'store_id'")
        secret-tool search --all store "$id" 2>&1 | grep -c 'authdeck data key' || true
        """
        let back = try BinaryRunner(executable: "/usr/bin/dbus-run-session", environment: runner.environment.merging([
            "AUTHDECK": runner.executable, "XDG_RUNTIME_DIR": dir.path,
        ]) { _, new in new }).run(["--", "sh", "-c", backScript], timeout: 90)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.contains("keyring → file"), "\(back.stdout)")
        #expect(back.stdout.hasSuffix("0\n"), "the keyring item was removed: \(back.stdout)")
        let last = try runner.run(["token", Self.account])
        #expect(last.status == 0 && last.stdout == token.stdout, "\(last.stderr)")
    }
}
