import Testing
import Foundation
import AuthDeckPlatform

/// Issue 38: config.toml, themes, CA files and the authdeck-full the front runs are trusted
/// like ~/.ssh/config — the file and the directories above it (up to home) belong to you or
/// root and no group or other user can write them; a sticky directory such as /tmp is fine.
@Suite struct TrustedPathTests {
    let root: String
    var home: String { root + "/home" }
    var configDir: String { home + "/.config/authdeck" }
    var config: String { configDir + "/config.toml" }

    init() throws {
        var template = Array((NSTemporaryDirectory() + "authdeck-trust.XXXXXX").utf8CString)
        root = String(cString: try #require(mkdtemp(&template)))
        try FileManager.default.createDirectory(atPath: configDir, withIntermediateDirectories: true)
        for dir in [home, home + "/.config", configDir] { chmod(dir, 0o700) }
        #expect(FileManager.default.createFile(atPath: config, contents: Data("x = 1\n".utf8)))
        chmod(config, 0o600)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: root) }

    @Test func aPrivateFileInPrivateDirectoriesIsTrusted() {
        defer { cleanUp() }
        #expect(TrustedPath.problem(config, home: home) == nil)
        #expect(TrustedPath.problem(config, home: nil) == nil, "up to /, through the sticky, root-owned temporary directory")
        chmod(config, 0o644)
        #expect(TrustedPath.problem(config, home: home) == nil, "readable by others is not writable by them (as ssh)")
        #expect(TrustedPath.problem(root + "/absent.toml", home: home) == nil, "nothing there: the reader says so")
    }

    @Test(arguments: [0o666, 0o620, 0o602, 0o660])
    func aFileOthersCanWriteIsRefusedWithTheChmodThatFixesIt(mode: Int) {
        defer { cleanUp() }
        chmod(config, mode_t(mode))
        let problem = TrustedPath.problem(config, home: home)
        #expect(problem?.contains("writable by group or others (mode 0\(String(mode, radix: 8)))") == true, "\(problem ?? "nil")")
        #expect(problem?.contains("chmod go-w \(config)") == true, "\(problem ?? "nil")")
    }

    @Test(arguments: [0o777, 0o770, 0o707])
    func aDirectoryOthersCanWriteIsRefusedByName(mode: Int) {
        defer { cleanUp() }
        for dir in [configDir, home + "/.config", home] {
            chmod(dir, mode_t(mode))
            let problem = TrustedPath.problem(config, home: home)
            #expect(problem?.contains("the directory \(dir) above it is writable by group or others") == true, "\(problem ?? "nil")")
            #expect(problem?.contains("chmod go-w \(dir)") == true, "\(problem ?? "nil")")
            chmod(dir, 0o700)
        }
    }

    /// As ssh: the walk stops at the home directory, so what is above it is not judged.
    @Test func theWalkStopsAtHome() {
        defer { cleanUp() }
        chmod(root, 0o777)
        #expect(TrustedPath.problem(config, home: home) == nil)
        #expect(TrustedPath.problem(config, home: home + "/")?.contains(root) != true, "a trailing slash names the same home")
        #expect(TrustedPath.problem(config, home: nil)?.contains("the directory \(root) above it") == true, "without a home, up to /")
    }

    /// A sticky directory (others may add names, not replace yours) is accepted, as /tmp is.
    @Test func aStickyDirectoryIsAccepted() {
        defer { cleanUp() }
        chmod(configDir, 0o1777)
        #expect(TrustedPath.problem(config, home: home) == nil)
    }

    /// Tests run as root, which can give a file to another user (`nobody`).
    @Test(.enabled(if: geteuid() == 0, "chown needs root"))
    func aFileOrDirectoryOfAnotherUserIsRefused() {
        defer { cleanUp() }
        #expect(chown(config, 65534, 65534) == 0)
        #expect(TrustedPath.problem(config, home: home)?.contains("owned by another user (uid 65534)") == true)
        #expect(chown(config, 0, 0) == 0)
        #expect(chown(configDir, 65534, 65534) == 0)
        #expect(TrustedPath.problem(config, home: home)?.contains("the directory \(configDir) above it belongs to another user (uid 65534)") == true)
    }

    /// A link is judged where it leads, and where it is: whoever can write the directory
    /// holding the link can point it elsewhere.
    @Test func aLinkIsJudgedAtBothEnds() throws {
        defer { cleanUp() }
        let shared = root + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        chmod(shared, 0o777)
        let link = shared + "/config.toml"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: config)
        #expect(TrustedPath.problem(link, home: home)?.contains("the directory \(shared) above it is writable") == true)
        chmod(shared, 0o755)
        #expect(TrustedPath.problem(link, home: home) == nil)
        chmod(config, 0o666)
        #expect(TrustedPath.problem(link, home: home)?.contains("the file it leads to, \(config), is writable") == true)
    }

    @Test func aDirectoryToCreateAFileInIsJudgedToo() {
        defer { cleanUp() }
        #expect(TrustedPath.problem(directory: configDir, home: home) == nil)
        chmod(home, 0o777)
        #expect(TrustedPath.problem(directory: configDir, home: home)?.contains("the directory \(home) above it is writable") == true)
    }
}
