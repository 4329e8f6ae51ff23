import AuthDeckCore

/// Why a client certificate cannot be presented, found before it is stored or sent.
///
/// Each case names the cause, so a message never blames the server for a local file.
public enum ClientIdentityProblem: Error, Equatable, CustomStringConvertible {
    /// libcrypto could not be loaded, so nothing could be checked.
    case unavailable(String)
    case notPKCS12
    case wrongPassword
    /// The bundle opened but its contents did not parse (libcrypto's reason).
    case unreadable(String)
    case noCertificate(String)
    case noKey(String)
    case keyMismatch
    case noValidity
    /// The certificate is past its notAfter date.
    case expired(Instant)
    /// The certificate's notBefore date is still ahead.
    case notYetValid(Instant)
    /// The bundle asks for more key-derivation iterations than `PKCS12Iterations.cap`.
    case tooManyIterations(Int)

    public var description: String {
        switch self {
        case .unavailable(let m): return m
        case .notPKCS12: return "not a PKCS#12 bundle"
        case .wrongPassword: return "the password does not open the PKCS#12 bundle"
        case .unreadable(let m): return "the PKCS#12 bundle opened but could not be read" + Self.because(m)
        case .noCertificate(let m): return "no certificate could be read" + Self.because(m)
        case .noKey(let m): return "no private key could be read" + Self.because(m)
        case .keyMismatch: return "the private key does not belong to the certificate"
        case .noValidity: return "the certificate's validity dates cannot be read"
        case .expired(let at): return "the certificate expired on \(at.iso8601)"
        case .notYetValid(let at): return "the certificate is not valid before \(at.iso8601)"
        case .tooManyIterations(let n):
            let count = n == Int.max ? "more than 2^56" : Self.grouped(n)
            return "the PKCS#12 bundle asks for \(count) key-derivation iterations, more than the \(Self.grouped(PKCS12Iterations.cap)) authdeck allows "
                + "(opening it would keep a CPU busy for minutes or hours); export it again with fewer (OpenSSL's default is 2,048)"
        }
    }

    /// `n` with a comma every three digits, as a person reads a count.
    static func grouped(_ n: Int) -> String {
        var digits = Array(String(n))
        var out: [Character] = []
        while digits.count > 3 {
            out = [","] + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return String(digits + out)
    }

    static func because(_ detail: String) -> String { detail.isEmpty ? "" : " (\(detail))" }
}
