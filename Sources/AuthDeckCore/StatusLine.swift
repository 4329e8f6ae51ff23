/// The one short line of `authdeck status --short`: what needs the person, for a shell prompt
/// or tmux's status bar, and nothing when all is well.
///
/// Why one function in Core: the front answers from the store and `authdeck-full` from its
/// own reading, and the two must print the same line for the same store. Only states a person
/// must act on count: renewals authdeck does silently (`renew_due`, a renewable `expired`)
/// are not the person's business. The soonest expiry is given in whole minutes (seconds under
/// one), so a prompt drawn every second does not flicker. ASCII only: a prompt may be drawn
/// under `LANG=C`.
public enum StatusLine {
    /// The line without its newline, or "" when nothing needs the person.
    public static func short(_ assessment: DeckAssessment) -> String {
        var expiring = 0, signIn = 0, failed = 0, stale = 0
        var soonest: Instant?
        for entry in assessment.entries {
            switch entry.state {
            case .expiringSoon:
                expiring += 1
                if let at = entry.expiry, at < soonest ?? at + .seconds(1) { soonest = at }
            case .needsSignIn, .expired(renewable: false): signIn += 1
            case .failed: failed += 1
            case .stale: stale += 1
            case .signedIn, .renewDue, .expired(renewable: true): break
            }
        }
        var parts: [String] = []
        if expiring > 0 {
            parts.append("\(expiring) expiring" + (soonest.map { " in " + Self.coarse($0 - assessment.now) } ?? ""))
        }
        if signIn > 0 { parts.append("\(signIn) to sign in") }
        if failed > 0 { parts.append("\(failed) failed") }
        if stale > 0 { parts.append("\(stale) stale") }
        return parts.isEmpty ? "" : "authdeck: " + parts.joined(separator: ", ")
    }

    /// `45s`, `4m`, `2h`, `3d`: a span rounded down to its largest unit.
    static func coarse(_ span: TimeSpan) -> String {
        let s = max(span.seconds, 0)
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m" }
        if s < 86_400 { return "\(s / 3600)h" }
        return "\(s / 86_400)d"
    }
}
