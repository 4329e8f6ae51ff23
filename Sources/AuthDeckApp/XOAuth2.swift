import Foundation

/// The SASL XOAUTH2 initial response mail clients send to IMAP and SMTP servers (Gmail,
/// Outlook) in place of a password, as pizauth prints it.
///
/// It holds the access token in a reversible encoding, so it is a secret exactly as the
/// token is: printed to stdout only, never logged.
public enum XOAuth2 {
    /// base64("user=" + username + ^A + "auth=Bearer " + token + ^A^A), per Google's and
    /// Microsoft's XOAUTH2 documentation.
    public static func initialResponse(username: String, token: String) -> String {
        Data("user=\(username)\u{1}auth=Bearer \(token)\u{1}\u{1}".utf8).base64EncodedString()
    }
}
