/// Resolves what a user typed for ACCOUNT to exactly one account, or says why it cannot.
///
/// Accepted, in order: an exact id; `provider/username`; an exact username
/// (case-insensitive); a provider id (its only account); a unique prefix of an id or a
/// username; `provider/` and a unique prefix of a username of that provider (`work/taro`
/// for `work/taro@contoso.com`).
public enum AccountMatcher {
    public enum Outcome: Equatable, Sendable {
        case found(Account)
        case ambiguous([Account])
        case notFound
        /// `query` is a provider id whose recorded default (`authdeck use`) names an account that
        /// is not among `accounts`. Why not fall through to the provider's other account: a
        /// writer of the store without the key can delete the default's row, and the provider id
        /// must then answer nothing rather than another person's account.
        case defaultMissing(provider: String, id: String)
    }

    /// - Parameter defaultAccount: a provider's default account id (`authdeck use`), asked
    ///   only when the query is a provider id with accounts: a default naming none of them is
    ///   `.defaultMissing`, never the provider's remaining account.
    public static func resolve(_ query: String, in accounts: [Account], defaultAccount: (String) -> String? = { _ in nil }) -> Outcome {
        let q = query.trimmingWhitespace()
        guard !q.isEmpty else { return .notFound }
        if let exact = accounts.first(where: { $0.id == q }) { return .found(exact) }
        let lower = q.lowercased()
        if let slash = lower.firstIndex(of: "/") {
            let provider = String(lower[..<slash])
            let user = String(lower[lower.index(after: slash)...])
            let hits = accounts.filter { $0.providerId.lowercased() == provider && $0.username.lowercased() == user }
            if let outcome = decide(hits) { return outcome }
        }
        let byUser = accounts.filter { $0.username.lowercased() == lower }
        if let outcome = decide(byUser) { return outcome }
        let byProvider = accounts.filter { $0.providerId.lowercased() == lower }
        if let provider = byProvider.first?.providerId, let chosen = defaultAccount(provider) {
            guard let account = byProvider.first(where: { $0.id == chosen }) else { return .defaultMissing(provider: provider, id: chosen) }
            return .found(account)
        }
        if let outcome = decide(byProvider) { return outcome }
        let byPrefix = accounts.filter { $0.id.lowercased().hasPrefix(lower) || $0.username.lowercased().hasPrefix(lower) }
        // A provider whose every account was deleted still has its default recorded: its id is
        // no prefix of another provider's username (`work` is not `workshop@…`).
        if !byPrefix.isEmpty, let chosen = defaultAccount(q) { return .defaultMissing(provider: q, id: chosen) }
        if let outcome = decide(byPrefix) { return outcome }
        // `provider/` and the start of a username: what a person types after seeing both.
        if let slash = lower.firstIndex(of: "/") {
            let provider = String(lower[..<slash])
            let user = String(lower[lower.index(after: slash)...])
            let hits = accounts.filter { $0.providerId.lowercased() == provider && !user.isEmpty && $0.username.lowercased().hasPrefix(user) }
            if let outcome = decide(hits) { return outcome }
        }
        return .notFound
    }

    static func decide(_ hits: [Account]) -> Outcome? {
        switch hits.count {
        case 0: return nil
        case 1: return .found(hits[0])
        default: return .ambiguous(hits.sorted { $0.id < $1.id })
        }
    }
}
