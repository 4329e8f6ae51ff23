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

    @Test func theTextReadsBackAndNothingElseDoes() {
        let me = ProcessIdentity.current
        #expect(ProcessIdentity(text: me.text) == me)
        #expect(ProcessIdentity(text: "123") == ProcessIdentity(pid: 123, startTicks: nil))
        for bad in ["", "x", "-5", "0", "1.2.3", "1.", ".5", "99999999999", "12.-4"] {
            #expect(ProcessIdentity(text: bad) == nil, "\(bad)")
        }
    }
}
