import Dispatch
import Synchronization
import AuthDeckCore

/// One renewal's result, waiting to be committed (`DeckStore.commitRenewals`).
struct RenewalCommit: Sendable {
    var credentials: Credentials
    var accountId: String
    var expected: RefreshTokenStamp?
    var event: DeckEvent
}

/// Group commit for renewals that run at once (`refresh --all`, the deck, `watch`).
///
/// Why: each renewal's commit is durable — one fdatasync — before its token is used, and
/// SQLite writes one transaction at a time; 32 renewals at once queued on the writer, each
/// waiting for its own sync while holding one of the few threads of Swift's pool (two on a
/// two-core machine), so the network work of the others stalled too. Here a commit waits on a
/// serial queue of its own, and the commits that arrive while one group is being written go
/// together in the next transaction: one sync for the group. Each keeps its own generation
/// check and its own result, and none returns before its group is on disk.
final class RenewalCommits: Sendable {
    private struct Waiting {
        var commit: RenewalCommit
        var continuation: CheckedContinuation<Bool, any Error>
    }

    private let queue = DispatchQueue(label: "authdeck.renewal-commits")
    /// The commits not yet taken, and whether a drain is scheduled to take them.
    private let state = Mutex<(waiting: [Waiting], draining: Bool)>(([], false))

    /// Commits `commit` with the others waiting now; true when written, false when another
    /// writer rotated the refresh token first.
    func commit(_ commit: RenewalCommit, in store: DeckStore) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state in
                state.waiting.append(Waiting(commit: commit, continuation: continuation))
                defer { state.draining = true }
                return !state.draining
            }
            if start { queue.async { self.drain(store) } }
        }
    }

    /// Writes groups until none is waiting.
    private func drain(_ store: DeckStore) {
        while true {
            let group = state.withLock { state in
                defer { state.waiting = [] }
                if state.waiting.isEmpty { state.draining = false }
                return state.waiting
            }
            guard !group.isEmpty else { return }
            do {
                let results = try store.commitRenewals(group.map(\.commit))
                for (waiting, result) in zip(group, results) { waiting.continuation.resume(with: result) }
            } catch {
                for waiting in group { waiting.continuation.resume(throwing: error) }
            }
        }
    }
}
