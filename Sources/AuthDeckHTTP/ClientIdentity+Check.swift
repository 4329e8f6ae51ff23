import Foundation
import AuthDeckCore
import CCurl

extension ClientIdentity {
    /// Checks the identity at `now` and returns when its certificate expires: checked at
    /// import, a bad bundle is refused there instead of failing later as if the server had
    /// refused it.
    public func check(now: Instant) throws(ClientIdentityProblem) -> Instant {
        let (notBefore, notAfter) = try open()
        if notAfter <= now { throw .expired(notAfter) }
        if notBefore > now { throw .notYetValid(notBefore) }
        return notAfter
    }

    /// Opens the identity as libcurl will at request time: the certificate, the key, the key
    /// being the certificate's; returns the certificate's validity dates.
    public func open() throws(ClientIdentityProblem) -> (notBefore: Instant, notAfter: Instant) {
        var report = ad_identity_report()
        let status: Int32
        switch self {
        case .pem(let certificate, let key):
            let keyBytes = Array(key.exposedValue.utf8)
            status = certificate.withUnsafeBufferPointer { c in
                keyBytes.withUnsafeBufferPointer { k in
                    c.withMemoryRebound(to: CChar.self) { cc in
                        k.withMemoryRebound(to: CChar.self) { kc in
                            ad_identity_check_pem(cc.baseAddress, cc.count, kc.baseAddress, kc.count, &report)
                        }
                    }
                }
            }
        case .pkcs12(let bundle, let password):
            guard let der = Data(base64Encoded: bundle.exposedValue) else { throw .notPKCS12 }
            // Before libcrypto derives any key: a count past the cap would pin a CPU for hours.
            guard let iterations = PKCS12Iterations.largest(in: Array(der)) else { throw .notPKCS12 }
            if iterations > PKCS12Iterations.cap { throw .tooManyIterations(iterations) }
            status = der.withUnsafeBytes { raw in
                if let password { return ad_identity_check_pkcs12(raw.baseAddress, raw.count, password.exposedValue, &report) }
                return ad_identity_check_pkcs12(raw.baseAddress, raw.count, nil, &report)
            }
        }
        let detail = withUnsafeBytes(of: report.detail) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch status {
        case Int32(AD_IDENTITY_OK): break
        case Int32(AD_IDENTITY_UNAVAILABLE): throw .unavailable(detail)
        case Int32(AD_IDENTITY_NOT_PKCS12): throw .notPKCS12
        case Int32(AD_IDENTITY_BAD_PASSWORD): throw .wrongPassword
        case Int32(AD_IDENTITY_UNREADABLE): throw .unreadable(detail)
        case Int32(AD_IDENTITY_NO_CERTIFICATE): throw .noCertificate(detail)
        case Int32(AD_IDENTITY_NO_KEY): throw .noKey(detail)
        case Int32(AD_IDENTITY_KEY_MISMATCH): throw .keyMismatch
        default: throw .noValidity
        }
        return (Instant(secondsSinceEpoch: report.not_before), Instant(secondsSinceEpoch: report.not_after))
    }
}
