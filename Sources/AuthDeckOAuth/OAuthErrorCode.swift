import AuthDeckCore

/// The `error` code of a provider's answer as authdeck keeps it: printed, stored on the
/// account (`error_code`) and in the audit trail (`events.detail`), so it must be short,
/// inert and never a secret.
///
/// A hostile or broken endpoint can put anything in `error`: the refresh token it was sent,
/// the password, escape sequences, 900 KB. Only a code in RFC 6749's charset (§5.2:
/// %x20-21 / %x23-5B / %x5D-7E), at most `maximumLength` characters, and neither equal to nor
/// holding a secret that was sent is kept; anything else becomes one of authdeck's own words.
/// Every classifier of an OAuth error goes through `sanitized`, so no code path can forget it.
public enum OAuthErrorCode {
    /// Longer than any registered code (the longest in the IANA registry has 28 characters).
    public static let maximumLength = 64
    /// What replaces a code outside the charset, empty or too long.
    public static let malformed = "malformed_error"
    /// What replaces a code that is, or holds, a secret sent with the request.
    public static let redacted = "redacted_error"

    /// `raw` when it is a short RFC 6749 code that reveals none of `secrets`, else a stand-in.
    public static func sanitized(_ raw: String, redacting secrets: [String]) -> String {
        let scalars = raw.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= maximumLength, scalars.allSatisfy(isCodeCharacter) else { return malformed }
        // Equal to a secret of any length; holding one of four characters or more (shorter
        // ones occur inside ordinary words).
        if secrets.contains(where: { !$0.isEmpty && ($0 == raw || ($0.count >= 4 && raw.contains($0))) }) { return redacted }
        return raw
    }

    /// RFC 6749 §5.2: `error` = 1*( %x20-21 / %x23-5B / %x5D-7E ) — printable ASCII less `"` and `\`.
    static func isCodeCharacter(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x20...0x21, 0x23...0x5B, 0x5D...0x7E: true
        default: false
        }
    }
}
