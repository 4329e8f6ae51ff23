import Foundation
import Synchronization
import AuthDeckCore
import AuthDeckApp
import AuthDeckUI

/// The open deck's say over what the agent hands to a host (`AgentConfirming`): each ask is
/// posted to the loop as a window, and the request waits here until the person answers it.
///
/// Why a place of its own: the request waits on the agent server's thread while the answer
/// comes from the loop's keys, as `PasswordAnswers` does for a sign-in's password. The reducer
/// closes an ask whose deadline passed (saying so); the timer here is the bound if the loop
/// cannot (a deck stopping), so a remote command never hangs on a deck.
final class DeckAgentConfirmer: AgentConfirming {
    private struct Waits {
        var next = 0
        var waiting: [Int: CheckedContinuation<AgentDecision, Never>] = [:]
        /// The deck is closing: every ask is denied, new ones at once.
        var closed = false
    }

    private let waits = Mutex(Waits())
    let inbox: Inbox
    let clock: any WallClock

    init(inbox: Inbox, clock: any WallClock) {
        self.inbox = inbox
        self.clock = clock
    }

    func confirm(_ ask: AgentAsk, timeout: Double) async -> AgentDecision {
        let ticket = waits.withLock { w in
            w.next += 1
            return w.next
        }
        let seconds = max(1, Int64(timeout.rounded(.up)))
        let shown = DeckAgentAsk(ticket: ticket, host: ask.host, hostClaimed: ask.hostClaimed, accountId: ask.accountId, account: ask.accountName,
                                 audience: ask.audience, client: ask.client, deadline: clock.now() + .seconds(seconds))
        // The bound: a second past the deadline the loop should have closed the window by.
        // On `DeckAgentSignIns.deadlines` (a thread of its own, not the shared pool); once the
        // ask is answered it finds nobody waiting.
        DeckAgentSignIns.deadlines.asyncAfter(deadline: .now() + .seconds(Int(seconds) + 1)) { [weak self] in
            self?.answer(ticket, .deny)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<AgentDecision, Never>) in
                let closed = waits.withLock { w in
                    if !w.closed { w.waiting[ticket] = c }
                    return w.closed
                }
                if closed { return c.resume(returning: .deny) }
                inbox.post(.agentAsked(shown))
                if Task.isCancelled { end(ticket) }
            }
        } onCancel: {
            end(ticket)
        }
    }

    /// Hands the person's `decision` to the request waiting under `ticket`, if it still waits.
    func answer(_ ticket: Int, _ decision: AgentDecision) {
        waits.withLock { $0.waiting.removeValue(forKey: ticket) }?.resume(returning: decision)
    }

    /// The request of `ticket` stopped waiting (its client hung up): denied, its window closed.
    private func end(_ ticket: Int) {
        guard let c = waits.withLock({ $0.waiting.removeValue(forKey: ticket) }) else { return }
        c.resume(returning: .deny)
        inbox.post(.agentAskEnded(ticket: ticket))
    }

    /// The deck is closing: every waiting request is denied, and any later one at once.
    func close() {
        let all = waits.withLock { w in
            w.closed = true
            defer { w.waiting.removeAll() }
            return Array(w.waiting.values)
        }
        for c in all { c.resume(returning: .deny) }
    }

    /// How many requests wait for an answer (for tests).
    var waitingCount: Int { waits.withLock { $0.waiting.count } }
}

extension DeckAgentAsk.Answer {
    /// The agent's decision for the person's answer.
    var decision: AgentDecision {
        switch self {
        case .once: .once
        case .connection: .connection
        case .deny: .deny
        }
    }
}
