import AuthDeckCore

/// The sentence that tells a person what to do when an account cannot give a credential.
public enum Remedy {
    public static func forMissingToken(_ stored: StoredAccount, scopes: [String], now: Instant, skew: TimeSpan) -> String {
        let a = stored.account
        let c = stored.credentials
        if let error = a.lastError, error.errorClass == .needsInteraction {
            return "\(a.id): \(error.remedy) (`authdeck login \(a.providerId)`)"
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
