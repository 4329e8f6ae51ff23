import AuthDeckCore

/// The sentence that tells a person what to do when an account cannot give a credential.
public enum Remedy {
    /// `remedy` said once of `account`: its id in front unless the remedy starts with it, and
    /// the command to sign in at the end unless the remedy already gives it. Why: messages read
    /// "oidc/573b: oidc/573b holds no refresh token; … `authdeck login oidc` (`authdeck login oidc`)".
    public static func signInAgain(_ remedy: String, account: Account) -> String {
        let said = remedy.hasPrefix(account.id + " ") || remedy.hasPrefix(account.id + ":") ? remedy : "\(account.id): \(remedy)"
        return said.contains("`authdeck login") ? said : said + " (`authdeck login \(account.providerId)`)"
    }

    public static func forMissingToken(_ stored: StoredAccount, scopes: [String], now: Instant, skew: TimeSpan) -> String {
        let a = stored.account
        let c = stored.credentials
        if let error = a.lastError, error.errorClass == .needsInteraction {
            return signInAgain(error.remedy, account: a)
        }
        if !scopes.isEmpty, c.usableAccessToken(for: [], at: now, skew: skew) != nil {
            return "\(a.id) has no valid token for scope \(scopes.joined(separator: " ")); sign in with it: `authdeck login \(a.providerId)`"
        }
        if c.accessTokens.isEmpty && c.refreshToken == nil {
            return "\(a.id) holds no access token; sign in: `authdeck login \(a.providerId)`"
        }
        if c.refreshToken != nil {
            return "the access token of \(a.id) has expired; renew it with `authdeck refresh \(a.id)`"
        }
        return "the access token of \(a.id) has expired and there is no refresh token; sign in again: `authdeck login \(a.providerId)`"
    }
}
