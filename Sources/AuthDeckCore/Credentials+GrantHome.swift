/// Where an account's grant was made, for the grants that hold no refresh token to carry it.
extension Credentials {
    /// The extra that records the home of a grant without a refresh token (client credentials,
    /// a Facebook app's token): sealed with the account like every extra.
    public static let grantHomeExtra = "grant.home"

    /// The grant's home: its refresh token's, else the recorded extra's; nil for a grant
    /// recorded before homes were (held to the transport rule alone until it is renewed).
    public var grantHome: GrantHome? {
        if let home = refreshToken?.home { return home }
        guard let recorded = extras[Self.grantHomeExtra], !recorded.isUnopened else { return nil }
        return GrantHome(encoded: recorded.exposedValue)
    }

    /// These credentials with `home` recorded for a grant that has no refresh token to carry it.
    public func recordingHome(_ home: GrantHome?) -> Credentials {
        guard let home, refreshToken == nil else { return self }
        var out = self
        out.extras[Self.grantHomeExtra] = Secret(home.encoded)
        return out
    }
}
