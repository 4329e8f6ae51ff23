import CTLS

/// A private certificate authority made for one demo, and the emulator's certificate under it.
///
/// Why: docker's credential helper sends a token only to a registry whose certificate it can
/// verify, and a demo must show that with nothing but authdeck installed (no `openssl` CLI, no
/// Python). The CA's key is thrown away once it has signed the one server certificate, so
/// trusting the CA file trusts that certificate and nothing else.
public enum LocalAuthority {
    /// Writes the CA certificate to `caFile`, and a certificate for 127.0.0.1 and localhost
    /// with its key (0600) to `certificateFile` and `keyFile`; each file is created anew.
    public static func issue(caFile: String, certificateFile: String, keyFile: String, days: Int = 30) throws {
        var reason = [CChar](repeating: 0, count: 512)
        guard ad_tls_issue(caFile, certificateFile, keyFile, Int32(days), &reason, reason.count) == 0 else {
            throw EmulatorTLSError(message: String(cString: reason))
        }
    }
}
