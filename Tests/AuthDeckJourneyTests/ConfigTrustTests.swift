import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// Issue 38: a config.toml that others can write — its mode, its directory's, its owner — was
/// used silently by both binaries: a `[[credential]]` route its writer added made
/// `git-credential get` hand out a token. Now it is refused as ssh refuses such a
/// ~/.ssh/config, by authdeck-full and by the front (whose cached answers were derived from
/// it), naming the file and the fix.
///
/// `lone` is a copy of the front without authdeck-full: a call it hands over fails there with
/// "cannot find authdeck-full", so it shows the front itself never answered.
@Suite struct ConfigTrustTests {
    let dir = TempDirectory("authdeck-config-trust")
    let fixture: DeckFixture
    let env: [String: String]
    let runner: BinaryRunner
    let full: BinaryRunner
    let lone: BinaryRunner
    var configDir: String { dir.file("config/authdeck") }
    var configPath: String { dir.file("config/authdeck/config.toml") }
    var validToken: String { fixture.secrets[0] }
    static let route = "\n[[credential]]\nurl = \"https://dev.azure.com/contoso\"\naccount = \"work/0000a001\"\n"
    static let gitRequest = "protocol=https\nhost=dev.azure.com\npath=contoso/repo.git\n\n"

    /// How a case makes the config writable by someone else, and what the refusal must say.
    enum Loosening: String, CaseIterable, CustomTestStringConvertible {
        case fileMode0666, fileMode0620, directoryMode0777, ownedByNobody
        var testDescription: String { rawValue }
    }

    init() throws {
        env = ["HOME": dir.path, "XDG_DATA_HOME": dir.file("data"), "XDG_CONFIG_HOME": dir.file("config"),
               "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        runner = BinaryRunner(product: "authdeck", environment: env)
        full = BinaryRunner(product: "authdeck-full", environment: env)
        lone = BinaryRunner(executable: dir.file("lone/authdeck"), environment: env)
        fixture = DeckFixture(now: SystemClock().now())
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: env), clock: SystemClock())
        for stored in fixture.accounts { try store.insert(stored) }
        try FileManager.default.createDirectory(atPath: configDir, withIntermediateDirectories: true)
        try (DeckFixture.configTOML + Self.route).write(toFile: configPath, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir.file("lone"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: runner.executable, toPath: lone.executable)
    }

    /// Makes the config writable by someone else; returns what the refusal must contain.
    func loosen(_ how: Loosening) -> [String] {
        switch how {
        case .fileMode0666:
            chmod(configPath, 0o666)
            return ["writable by group or others (mode 0666)", "chmod go-w \(configPath)"]
        case .fileMode0620:
            chmod(configPath, 0o620)
            return ["writable by group or others (mode 0620)", "chmod go-w \(configPath)"]
        case .directoryMode0777:
            chmod(configDir, 0o777)
            return ["the directory \(configDir) above it is writable by group or others (mode 0777)", "chmod go-w \(configDir)"]
        case .ownedByNobody:
            #expect(chown(configPath, 65534, 65534) == 0, "tests run as root")
            return ["owned by another user (uid 65534)"]
        }
    }

    /// Expects `r` to be the refusal: status 1 (misconfigured), nothing on stdout, the config
    /// file named first and `phrases` in the sentence.
    func expectRefused(_ r: BinaryRunner.Result, _ phrases: [String], _ what: Comment) {
        #expect(r.status == ExitStatus.failure, what)
        #expect(r.stdout.isEmpty, what)
        #expect(r.stderr.hasPrefix("authdeck: \(configPath): "), "\(what): \(r.stderr)")
        for phrase in phrases { #expect(r.stderr.contains(phrase), "\(what): \(r.stderr)") }
        #expect(!r.stderr.contains(validToken) && !r.stdout.contains(validToken), what)
    }

    @Test(.enabled(if: geteuid() == 0, "chown needs root"), arguments: Loosening.allCases)
    func aConfigOthersCanWriteIsRefusedByBothBinaries(_ how: Loosening) throws {
        // The front's records are in place: while the config is the owner's, the front answers.
        #expect(try runner.run(["token", "work/0000a001"]).stdout == validToken + "\n")
        #expect(try runner.run(["git-credential", "get"], stdin: Self.gitRequest).status == 0)
        #expect(try lone.run(["token", "work/0000a001"]).stdout == validToken + "\n", "the front serves from its record")
        #expect(try lone.run(["git-credential", "get"], stdin: Self.gitRequest).status == 0, "and git's helper")

        let phrases = loosen(how)
        expectRefused(try full.run(["token", "work/0000a001"]), phrases, "authdeck-full token")
        expectRefused(try full.run(["accounts"]), phrases, "authdeck-full accounts")
        expectRefused(try runner.run(["token", "work/0000a001"]), phrases, "the front's token")
        expectRefused(try runner.run(["git-credential", "get"], stdin: Self.gitRequest), phrases, "the front's git helper")
        expectRefused(try runner.run(["kube-credential", "work/0000a001"]), phrases, "the front's kubectl plugin")
        // The front itself answers nothing from records derived from such a file.
        for (arguments, stdin) in [(["token", "work/0000a001"], nil), (["git-credential", "get"], Self.gitRequest),
                                   (["kube-credential", "work/0000a001"], nil)] as [([String], String?)] {
            let r = try lone.run(arguments, stdin: stdin)
            #expect(r.status == 1 && r.stderr.contains("cannot find authdeck-full") && r.stdout.isEmpty, "\(arguments): \(r.stdout) \(r.stderr)")
        }
    }

    /// `--config` and `AUTHDECK_CONFIG` name a file held to the same rule.
    @Test func aConfigNamedByFlagOrVariableIsHeldToTheSameRule() throws {
        let other = dir.file("elsewhere/other.toml")
        try FileManager.default.createDirectory(atPath: dir.file("elsewhere"), withIntermediateDirectories: true)
        try DeckFixture.configTOML.write(toFile: other, atomically: true, encoding: .utf8)
        chmod(other, 0o646)
        for (r, what) in [(try full.run(["token", "--config", other, "work/0000a001"]), "--config"),
                          (try runner.run(["token", "work/0000a001"], env: ["AUTHDECK_CONFIG": other]), "AUTHDECK_CONFIG")] {
            #expect(r.status == 1 && r.stdout.isEmpty, "\(what)")
            #expect(r.stderr.hasPrefix("authdeck: \(other): it is writable by group or others (mode 0646)"), "\(what): \(r.stderr)")
            #expect(r.stderr.contains("chmod go-w \(other)"), "\(what): \(r.stderr)")
        }
        chmod(other, 0o600)
        #expect(try full.run(["token", "--config", other, "work/0000a001"]).stdout == validToken + "\n")
        #expect(try runner.run(["token", "work/0000a001"], env: ["AUTHDECK_CONFIG": other]).stdout == validToken + "\n")
    }

    /// The common layout keeps working: a 0600 file in 0700 directories, under a temporary
    /// directory that is itself in the sticky, root-owned /tmp.
    @Test func aPrivateConfigInAPrivateDirectoryStillWorks() throws {
        chmod(configPath, 0o600)
        for path in [configDir, dir.file("config"), dir.path] { chmod(path, 0o700) }
        #expect(try full.run(["token", "work/0000a001"]).stdout == validToken + "\n")
        #expect(try lone.run(["token", "work/0000a001"]).stdout == validToken + "\n", "the front serves")
        let git = try runner.run(["git-credential", "get"], stdin: Self.gitRequest)
        #expect(git.status == 0 && git.stdout.contains("password=\(validToken)"), "\(git.stderr)")
    }

    /// `config import-url` writes the file 0600 — a new one, and one that was 0644 — and
    /// refuses, untouched, one others can write.
    @Test func configImportURLWritesOwnerOnlyAndRefusesALooseFile() throws {
        let url = "wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=https://host123.us.example.com:14100&ApplicationName::="
        func mode() -> mode_t {
            var st = stat()
            return stat(configPath, &st) == 0 ? st.st_mode & 0o7777 : 0
        }
        chmod(configPath, 0o644)
        let kept = try full.run(["config", "import-url", url + "One", "--client-id", "c1"])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(mode() == 0o600, "was 0644, now \(String(mode(), radix: 8))")
        try FileManager.default.removeItem(atPath: configPath)
        let made = try BinaryRunner(executable: "/bin/sh", environment: env)
            .run(["-c", "umask 0; exec \"$0\" config import-url \"$1\" --client-id c2", full.executable, url + "Two"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(mode() == 0o600, "a new file under umask 0: \(String(mode(), radix: 8))")
        chmod(configPath, 0o666)
        let before = try String(contentsOfFile: configPath, encoding: .utf8)
        let refused = try full.run(["config", "import-url", url + "Three", "--client-id", "c3"])
        #expect(refused.status == 1 && refused.stderr.contains("\(configPath): it is writable by group or others (mode 0666)"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: configPath, encoding: .utf8) == before && mode() == 0o666, "left untouched")
    }
}
