import Foundation
import AuthDeckStore
import AuthDeckUI

/// The deck's first read of the store, started on a thread of its own as soon as the store is
/// open, so that it overlaps loading the themes and setting up the terminal.
///
/// Why: the read and the set-up beside it are what the first frame waits for, and on a machine
/// with two cores they can run side by side.
final class FirstRead: @unchecked Sendable {
    /// The store files' size and time just before the read began (what `DeckRuntime` compares
    /// later to notice changes made by other processes).
    let stamp: [String]
    private let done = DispatchSemaphore(value: 0)
    private var result: DeckAction = .failed("the first read did not finish")

    init(_ store: DeckStore, read: @escaping () throws -> DeckAction) {
        stamp = DeckRuntime.stamp(store)
        let box = UncheckedBox(read)
        Thread.detachNewThread { [self] in
            do { result = try box.value() } catch { result = .failed("\(error)") }
            done.signal()
        }
    }

    /// The rows read, or the failure to show; waits for the read to end.
    func wait() -> DeckAction {
        done.wait()
        return result
    }
}

/// Carries a value that is used by one thread at a time across a thread boundary.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
