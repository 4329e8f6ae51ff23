import Testing
import Foundation

/// Polls `condition` every 100 ms for up to `timeout` seconds, recording an issue (naming
/// `what`) if it never holds: the CLI suites wait on processes this way instead of sleeping.
func waitUntil(_ what: String, timeout: Double = 20, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return }
        usleep(100_000)
    }
    Issue.record("timed out waiting until \(what)")
}
