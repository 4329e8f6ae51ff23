import Foundation
import Synchronization
import AuthDeckCore
import AuthDeckApp
import AuthDeckUI

/// Sign-ins a host's request needs, done by the open deck as Enter does them (`AgentSigningIn`):
/// the loop is asked to sign the account in (its device code window, its browser), and the
/// request waits here until that sign-in ends, or its own timeout passes.
///
/// Why the deck's own sign-in: the person is at the deck, and the refresh token the sign-in
/// gives stays on this machine; the host gets the access token after it.
final class DeckAgentSignIns: AgentSigningIn {
    private struct Waits {
        var next = 0
        /// Requests waiting for the sign-in of an account, by account id, then by ticket.
        var waiting: [String: [Int: CheckedContinuation<Bool, Never>]] = [:]
        var closed = false
    }

    private let waits = Mutex(Waits())
    let inbox: Inbox

    init(inbox: Inbox) {
        self.inbox = inbox
    }

    /// Where the hosts' deadlines fire (a serial queue gets a thread of its own when it has work).
    static let deadlines = DispatchQueue(label: "authdeck.deck.agent-sign-in-deadline")

    func signIn(_ stored: StoredAccount, timeout: Double) async -> Bool {
        let id = stored.account.id
        let ticket = waits.withLock { w in
            w.next += 1
            return w.next
        }
        // The deadline on a serial queue of its own, not a task's sleep or the global queue:
        // both wake only when a shared thread is free, which blocking work can hold for seconds
        // (45 s seen under the test suite). Firing after the sign-in ended does nothing (`end`
        // finds no one waiting).
        Self.deadlines.asyncAfter(deadline: .now() + max(0, min(timeout, 86_400))) { [weak self] in
            guard let self, self.end(id, ticket, ok: false) else { return }
            // The host stopped waiting: the deck's sign-in for it stops too.
            self.inbox.post(.agentSignInTimedOut(id: id))
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
                let closed = waits.withLock { w in
                    if !w.closed { w.waiting[id, default: [:]][ticket] = c }
                    return w.closed
                }
                if closed { return c.resume(returning: false) }
                inbox.post(.agentSignIn(id: id))
                if Task.isCancelled { _ = end(id, ticket, ok: false) }
            }
        } onCancel: {
            _ = end(id, ticket, ok: false)
        }
    }

    /// The deck's sign-in (or renewal) of `id` ended: every request waiting for it is told
    /// whether it succeeded.
    func finished(_ id: String, ok: Bool) {
        let all = waits.withLock { $0.waiting.removeValue(forKey: id) } ?? [:]
        for c in all.values { c.resume(returning: ok) }
    }

    /// Ends one request's wait; false when it no longer waited.
    @discardableResult
    private func end(_ id: String, _ ticket: Int, ok: Bool) -> Bool {
        let c = waits.withLock { w -> CheckedContinuation<Bool, Never>? in
            let c = w.waiting[id]?.removeValue(forKey: ticket)
            if w.waiting[id]?.isEmpty == true { w.waiting[id] = nil }
            return c
        }
        c?.resume(returning: ok)
        return c != nil
    }

    /// The deck is closing: every waiting request is told no, and any later one at once.
    func close() {
        let all = waits.withLock { w in
            w.closed = true
            defer { w.waiting.removeAll() }
            return w.waiting.values.flatMap(\.values)
        }
        for c in all { c.resume(returning: false) }
    }
}
