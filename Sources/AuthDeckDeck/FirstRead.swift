import Foundation
import Synchronization
import AuthDeckStore
import AuthDeckUI

/// The deck's first read of the store, started on a thread of its own as soon as the store is
/// open, so that it overlaps loading the themes and setting up the terminal.
///
/// Why: the read and the set-up beside it are what the first frame waits for, and on a machine
/// with two cores they can run side by side.
public final class FirstRead: Sendable {
    /// The store files' size and time just before the read began (what the deck compares
    /// later to notice changes made by other processes).
    let stamp: [String]
    private let done = DispatchSemaphore(value: 0)
    private let result = Mutex<DeckAction>(.failed("the first read did not finish"))

    public init(_ store: DeckStore, read: @escaping @Sendable () throws -> DeckAction) {
        stamp = DeckWork.stamp(store)
        Thread.detachNewThread { [self] in
            let action: DeckAction
            do { action = try read() } catch { action = .failed("\(error)") }
            result.withLock { $0 = action }
            done.signal()
        }
    }

    /// The rows read, or the failure to show; waits for the read to end.
    func wait() -> DeckAction {
        done.wait()
        return result.withLock { $0 }
    }
}
