import AuthDeckCore
import AuthDeckStore

/// Which hosts hold which of the agent's credentials, until when: the newest hand-out of each
/// (host, account, audience) that has not expired, read from the `agent_answered` events.
///
/// Why from the events: they are the record of what crossed the socket, kept whichever
/// process answered (`authdeck agent` or the open deck), so the deck shows the same view
/// after a restart.
public enum AgentHandOuts {
    /// One credential a host holds.
    public struct Held: Equatable, Sendable {
        public var handOut: AgentHandOut
        /// When it was handed.
        public var at: Instant
    }

    /// The hand-outs still alive at `now` (no expiry known counts as alive), soonest expiry
    /// first; `since` bounds how far back is read (default: a day, longer than any access token).
    public static func read(_ store: DeckStore, now: Instant, since: TimeSpan = .days(1)) throws -> [Held] {
        let events = try store.events(since: now - since, accountId: nil, kinds: [.agentAnswered], limit: nil)
        var newest: [String: Held] = [:]
        for event in events {
            guard let handOut = AgentHandOut(detail: event.detail) else { continue }
            let key = [handOut.host, handOut.hostClaimed ? "1" : "0", handOut.accountId ?? "", handOut.audience].joined(separator: "\u{0}")
            if let seen = newest[key], seen.at > event.at { continue }
            newest[key] = Held(handOut: handOut, at: event.at)
        }
        return newest.values
            .filter { $0.handOut.expiresAt.map { $0 > now } ?? true }
            .sorted { ($0.handOut.expiresAt ?? Instant(secondsSinceEpoch: .max), $0.handOut.host) < ($1.handOut.expiresAt ?? Instant(secondsSinceEpoch: .max), $1.handOut.host) }
    }
}
