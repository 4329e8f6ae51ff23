import AuthDeckCore

/// An event as the detail pane says it: a sentence ("renewal failed: sign in again — …"),
/// never its stored kind and raw detail (`refresh_failed needs_interaction …`).
public enum EventSentence {
    public static func of(_ e: DeckEvent) -> String {
        let detail = e.detail
        switch e.kind {
        case .refreshFailed:
            // Written by the renewal as "<class> <code>: <remedy>" (the class in either spelling).
            let words = detail.split(separator: " ", maxSplits: 1).map(String.init)
            guard words.count == 2, let cls = ErrorClass(named: words[0]) else { return joined("renewal failed", detail) }
            let code = words[1].split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            let remedy = words[1].dropFirst(code.count + 1).trimmingLeadingSpaces
            // What the class asks only when the remedy does not say it already ("renewal
            // failed: sign in again — … sign in again: `authdeck login …`").
            let asks = remedy.lowercased().contains(what(cls)) ? "" : "\(what(cls)) — "
            return "renewal failed: \(asks)\(remedy.isEmpty ? code : "\(remedy) (\(code))")"
        case .refreshed: return detail == "renewed" ? "renewed" : joined("renewed", detail.replacingPrefix("renewed; ", with: ""))
        case .restored: return "restored from quarantine"
        case .pruned: return joined("pruned to the quarantine", detail)
        case .purged: return joined("deleted from the quarantine", detail)
        case .signInSucceeded: return detail == "signed in again" ? "signed in again" : joined("signed in", detail)
        case .signInFailed: return joined("sign-in failed", detail)
        case .signInStarted: return joined("sign-in started", detail)
        case .accountAdded: return joined("added", detail)
        case .logout: return joined("signed out", detail)
        case .imported: return joined("imported", detail)
        case .keyCreated: return joined("store key created", detail)
        case .keyMigrated: return joined("store key moved", detail)
        case .tampered: return joined("edited without the key", detail)
        case .agentAnswered, .agentRefused:
            return AgentHandOut(detail: detail).map { $0.sentence(refused: e.kind == .agentRefused) } ?? joined(e.kind == .agentAnswered ? "agent answered" : "agent refused", detail)
        case .other: return joined("event", detail)
        }
    }

    /// What an error class asks of the person reading.
    static func what(_ c: ErrorClass) -> String {
        switch c {
        case .transient: return "will retry"
        case .needsInteraction: return "sign in again"
        case .misconfigured: return "check the provider's settings"
        case .declined: return "the sign-in was declined"
        }
    }

    static func joined(_ head: String, _ detail: String) -> String { detail.isEmpty || detail == head ? head : "\(head): \(detail)" }
}

extension StringProtocol {
    var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }

    func replacingPrefix(_ prefix: String, with other: String) -> String {
        hasPrefix(prefix) ? other + dropFirst(prefix.count) : String(self)
    }
}
