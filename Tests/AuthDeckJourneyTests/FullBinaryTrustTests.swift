import Testing
import Foundation
import AuthDeckTestSupport

/// Issue 38: the front `exec`s the `authdeck-full` beside it (or in `../libexec/authdeck/`)
/// with the store's secrets within reach; one that others can write or own, or that sits in a
/// directory others can write, is refused by name, as the store's own files are.
///
/// A copy of the front with a stand-in `authdeck-full` script beside it shows whether the
/// stand-in was run.
@Suite struct FullBinaryTrustTests {
    let dir = TempDirectory("authdeck-full-trust")
    let front: BinaryRunner
    var bin: String { dir.file("bin") }
    var stand: String { dir.file("bin/authdeck-full") }

    init() throws {
        let env = ["HOME": dir.path, "XDG_DATA_HOME": dir.file("data"), "XDG_CONFIG_HOME": dir.file("config"),
                   "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        front = BinaryRunner(executable: dir.file("bin/authdeck"), environment: env)
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        chmod(bin, 0o755)
        try FileManager.default.copyItem(atPath: BinaryRunner(product: "authdeck", environment: [:]).executable, toPath: front.executable)
        try "#!/bin/sh\necho \"stand-in ran: $*\"\n".write(toFile: stand, atomically: true, encoding: .utf8)
        chmod(stand, 0o755)
    }

    func expectRan(_ why: Comment) throws {
        let r = try front.run(["accounts"])
        #expect(r.status == 0 && r.stdout == "stand-in ran: accounts\n", "\(why): \(r.stdout) \(r.stderr)")
    }

    func expectRefused(naming file: String, _ phrase: String, _ why: Comment) throws {
        let r = try front.run(["accounts"])
        #expect(r.status == 1 && r.stdout.isEmpty, "\(why): the stand-in ran: \(r.stdout)")
        #expect(r.stderr.hasPrefix("authdeck: will not run \(file): "), "\(why): \(r.stderr)")
        #expect(r.stderr.contains(phrase), "\(why): \(r.stderr)")
    }

    @Test func theUsualLayoutRuns() throws {
        try expectRan("0755 beside the front in a 0755 directory")
        chmod(stand, 0o700)
        try expectRan("0700")
    }

    @Test(arguments: [0o775, 0o757, 0o777, 0o735])
    func aFullBinaryOthersCanWriteIsRefused(mode: Int) throws {
        chmod(stand, mode_t(mode))
        try expectRefused(naming: stand, "it is writable by group or others (mode 0\(String(mode, radix: 8)))", "mode \(String(mode, radix: 8))")
        try expectRefused(naming: stand, "chmod go-w \(stand)", "the fix")
    }

    @Test(arguments: [0o777, 0o775, 0o757])
    func aFullBinaryInADirectoryOthersCanWriteIsRefused(mode: Int) throws {
        chmod(bin, mode_t(mode))
        try expectRefused(naming: stand, "the directory \(bin) above it is writable by group or others", "directory \(String(mode, radix: 8))")
        chmod(bin, 0o755)
        chmod(dir.path, 0o777)
        try expectRefused(naming: stand, "the directory \(dir.path) above it", "the home directory itself")
    }

    /// A sticky directory others can write (as /tmp) cannot have the file replaced: accepted.
    @Test func aStickyDirectoryIsAccepted() throws {
        chmod(bin, 0o1777)
        try expectRan("sticky, as /tmp")
    }

    @Test(.enabled(if: geteuid() == 0, "chown needs root"))
    func aFullBinaryOfAnotherUserIsRefused() throws {
        #expect(chown(stand, 65534, 65534) == 0)
        try expectRefused(naming: stand, "owned by another user (uid 65534)", "owned by nobody")
    }

    /// The install layout (`../libexec/authdeck/authdeck-full`) is held to the same rule.
    @Test func theLibexecLayoutIsHeldToTheSameRule() throws {
        let libexec = dir.file("libexec/authdeck")
        try FileManager.default.createDirectory(atPath: libexec, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: stand, toPath: libexec + "/authdeck-full")
        chmod(dir.file("libexec"), 0o755)
        chmod(libexec, 0o755)
        try expectRan("from libexec")
        chmod(libexec, 0o777)
        try expectRefused(naming: dir.file("bin/../libexec/authdeck/authdeck-full"), "the directory \(libexec) above it", "libexec 0777")
    }
}
