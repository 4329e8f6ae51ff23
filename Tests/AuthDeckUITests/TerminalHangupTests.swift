import Testing
import Foundation
@testable import AuthDeckTerminal
#if canImport(Glibc)
import Glibc
#endif

/// The deck notices when its input goes away: reading a closed terminal fails at once, and a
/// deck that took that for "no key yet" would spin for ever. (A pipe stands in for the
/// terminal: its read end reports a hang-up the same way once the other end is closed.)
@Suite struct TerminalHangupTests {
    @Test func inputWhoseOtherEndClosedIsSeenAsGone() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (reader, writer) = (ends[0], ends[1])
        defer { close(reader) }
        #expect(!CursesScreen.terminalGone(reader), "open, nothing typed: not gone")
        #expect(write(writer, "q", 1) == 1)
        #expect(!CursesScreen.terminalGone(reader), "a key waiting: not gone")
        close(writer)
        #expect(CursesScreen.terminalGone(reader), "the other end closed: gone")
    }
}
