import Foundation
import Synchronization

/// The deck's background work that has not ended yet, so leaving can wait for it.
///
/// Why: a renewal the provider has answered must be saved before the process ends — with
/// rotating refresh tokens the old one is spent by then, and a deck that left at once would
/// lose the account — and the demo removes its store as soon as the deck closes.
final class RunningWork: Sendable {
    /// Work under way by ticket, and the last ticket given.
    private let work = Mutex((running: [UInt64: String](), next: UInt64(0)))
    /// Wakes `waitUntilIdle` when work ends (changes are made holding it, so none is missed).
    private let ended = NSCondition()

    /// Records work of the kind `label` ("renewal", "sign-in", "sign-out") as started.
    func begin(_ label: String) -> UInt64 {
        work.withLock { w in
            w.next += 1
            w.running[w.next] = label
            return w.next
        }
    }

    func end(_ ticket: UInt64) {
        ended.lock(); defer { ended.unlock() }
        work.withLock { _ = $0.running.removeValue(forKey: ticket) }
        ended.broadcast()
    }

    /// What is still running, for a person: "1 renewal", "2 renewals and 1 sign-out".
    func summary() -> String {
        let labels = work.withLock { Array($0.running.values) }
        let counts = Dictionary(labels.map { ($0, 1) }, uniquingKeysWith: +)
        let parts = counts.keys.sorted().map { "\(counts[$0]!) \($0)\(counts[$0]! == 1 ? "" : "s")" }
        return parts.count < 2 ? parts.joined() : parts.dropLast().joined(separator: ", ") + " and " + parts.last!
    }

    /// Waits until nothing is running or `deadline` passes; whether nothing is running.
    func waitUntilIdle(before deadline: Date) -> Bool {
        ended.lock(); defer { ended.unlock() }
        while !idle {
            if !ended.wait(until: deadline) { return idle }
        }
        return true
    }

    private var idle: Bool { work.withLock { $0.running.isEmpty } }
}
