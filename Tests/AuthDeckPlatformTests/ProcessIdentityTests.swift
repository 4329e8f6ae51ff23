import Testing
import Foundation
import AuthDeckPlatform

/// A process told apart from a later one with the same pid, and its name in a file read back.
@Suite struct ProcessIdentityTests {
    @Test func thisProcessRunsAndAnotherStartTimeIsAnotherProcess() throws {
        let me = ProcessIdentity.current
        #expect(me.startTicks != nil, "/proc tells the start time here")
        #expect(me.isRunning)
        #expect(!ProcessIdentity(pid: me.pid, startTicks: (me.startTicks ?? 0) + 1).isRunning)
        #expect(ProcessIdentity(pid: me.pid, startTicks: nil).isRunning, "a pid alone: running while the pid is")
    }

    @Test func anEndedProcessIsGone() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        #expect(!ProcessIdentity(pid: child.processIdentifier, startTicks: nil).isRunning)
    }

    /// A process killed and not yet reaped by its parent (a zombie) is not running: its rescue
    /// file waited, and its lease held others off, until the parent reaped it.
    @Test func aZombieIsNotRunning() throws {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/bin/true", nil, nil, argv, environ) == 0)
        // Not reaped: poll until the kernel shows it as a zombie.
        var state = ""
        for _ in 0..<500 {
            state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)).flatMap { stat in
                stat.lastIndex(of: ")").map { String(stat[stat.index($0, offsetBy: 2)]) } } ?? ""
            if state == "Z" { break }
            usleep(10_000)
        }
        #expect(state == "Z")
        #expect(kill(pid, 0) == 0, "a zombie's pid still answers kill(0)")
        #expect(!ProcessIdentity(pid: pid, startTicks: nil).isRunning)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    @Test func theTextReadsBackAndNothingElseDoes() {
        let me = ProcessIdentity.current
        #expect(ProcessIdentity(text: me.text) == me)
        #expect(ProcessIdentity(text: "123") == ProcessIdentity(pid: 123, startTicks: nil))
        for bad in ["", "x", "-5", "0", "1.2.3", "1.", ".5", "99999999999", "12.-4"] {
            #expect(ProcessIdentity(text: bad) == nil, "\(bad)")
        }
    }
}
