/// kubectl's `ExecCredential` for a token, written without a JSON library when no character
/// of it needs escaping.
///
/// Why: the front answers kubectl with FoundationEssentials only (no `JSONSerialization`),
/// and must print byte for byte what `authdeck-full kube-credential` prints (sorted keys,
/// unescaped slashes, no spaces). It therefore takes only texts that JSON writes as they are —
/// printable ASCII without `"` and `\` — and gives nil for anything else, which the full
/// binary then answers.
public enum ExecCredentialText {
    /// The API versions kubectl may ask for; anything else is answered as v1.
    public static let versions = ["client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"]

    /// `{"apiVersion":…,"kind":"ExecCredential","status":{"expirationTimestamp":…,"token":…}}`
    /// and a newline, or nil when a text would need escaping.
    public static func plain(apiVersion: String, token: String, expiresAt: Instant?) -> String? {
        let expiry = expiresAt?.iso8601
        guard versions.contains(apiVersion), !token.isEmpty, isPlain(token), expiry.map(isPlain) ?? true else { return nil }
        let status = (expiry.map { "\"expirationTimestamp\":\"\($0)\"," } ?? "") + "\"token\":\"\(token)\""
        return "{\"apiVersion\":\"\(apiVersion)\",\"kind\":\"ExecCredential\",\"status\":{\(status)}}\n"
    }

    /// Whether JSON writes `text` unchanged between quotes.
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }
}
