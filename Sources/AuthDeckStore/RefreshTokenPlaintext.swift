import AuthDeckCore

/// What is sealed for a refresh token: the token and, ahead of it, the home it was issued by
/// (`GrantHome`), so both are authenticated under the data key together.
///
/// Why inside the seal rather than in a column: a writer of the file without the key then can
/// neither move a grant's home nor strip it (the whole value stops opening), and no migration
/// is needed — a value sealed before homes were recorded opens as a token without one. A NUL
/// cannot occur in a refresh token (it travels in a form body), so the marker is unambiguous.
enum RefreshTokenPlaintext {
    static let marker = "\u{0}home\u{0}"

    /// The text to seal for `value` issued at `home`.
    static func sealed(_ value: Secret, home: GrantHome?) -> Secret {
        guard let home else { return value }
        return Secret(marker + home.encoded + "\u{0}" + value.exposedValue)
    }

    /// The token and home an opened value holds; an unopened value stays unopened, homeless.
    static func opened(_ secret: Secret) -> (value: Secret, home: GrantHome?) {
        guard !secret.isUnopened, secret.exposedValue.hasPrefix(marker) else { return (secret, nil) }
        let rest = secret.exposedValue.dropFirst(marker.count)
        guard let end = rest.firstIndex(of: "\u{0}"), let home = GrantHome(encoded: String(rest[..<end])) else { return (secret, nil) }
        return (Secret(String(rest[rest.index(after: end)...])), home)
    }
}
