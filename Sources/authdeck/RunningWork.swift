import Foundation

/// The deck's background work that has not ended yet, so leaving can wait for it.
///
/// Why: a renewal the provider has answered must be saved before the process ends — with
/// rotating refresh tokens the old one is spent by then, and a deck that left at once lost the
/// account — and the demo removes its store as soon as the deck closes.
final class RunningWork: @unchecked Sendable {
    private let condition = NSCondition()
    private var running: [UInt64: String] = [:]
    private var next: UInt64 = 0

    /// Records work of the kind `label` ("renewal", "sign-in", "sign-out") as started.
    func begin(_ label: String) -> UInt64 {
        condition.lock(); defer { condition.unlock() }
        next += 1
        running[next] = label
        return next
    }

    func end(_ ticket: UInt64) {
        condition.lock(); defer { condition.unlock() }
        running[ticket] = nil
        condition.broadcast()
    }

    /// What is still running, for a person: "1 renewal", "2 renewals and 1 sign-out".
    func summary() -> String {
        condition.lock(); defer { condition.unlock() }
        let counts = Dictionary(running.values.map { ($0, 1) }, uniquingKeysWith: +)
        let parts = counts.keys.sorted().map { "\(counts[$0]!) \($0)\(counts[$0]! == 1 ? "" : "s")" }
        return parts.count < 2 ? parts.joined() : parts.dropLast().joined(separator: ", ") + " and " + parts.last!
    }

    /// Waits until nothing is running or `deadline` passes; whether nothing is running.
    func waitUntilIdle(before deadline: Date) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while !running.isEmpty {
            if !condition.wait(until: deadline) { return running.isEmpty }
        }
        return true
    }
}
