import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckHTTP

/// Importing a client certificate for a provider's mutual TLS (a PEM certificate and key, or
/// a PKCS#12 bundle): checked as libcurl will open it, then sealed in the store in place of
/// any previous one, in one transaction. Read before the store is opened, so a wrong file
/// changes nothing.
public struct CertificateImport: Sendable {
    /// The provider secrets that hold the identity.
    let secrets: [String: Secret]
    /// Where it came from, for the event.
    let file: String
    /// When the certificate expires.
    public let expires: Instant

    /// Reads `file` (with the PEM key `keyFile` when given) and checks it at `now`. `password`
    /// is asked only for a PKCS#12 bundle that needs one.
    public init(file: String, keyFile: String?, now: Instant, password: () throws -> Secret) throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw Refusal.failure("\(file): cannot read the file") }
        var secrets: [String: Secret]
        let expires: Instant
        if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN") {
            guard let certificate = Self.block(text, containing: "CERTIFICATE") else {
                throw Refusal.failure("\(file): no PEM certificate (-----BEGIN CERTIFICATE-----) in the file")
            }
            let keyText = try keyFile.map { path -> String in
                guard let k = FileManager.default.contents(atPath: path).flatMap({ String(data: $0, encoding: .utf8) }) else {
                    throw Refusal.failure("\(path): cannot read the key file")
                }
                return k
            } ?? text
            guard let privateKey = Self.block(keyText, containing: "PRIVATE KEY") else {
                throw Refusal.failure("\(keyFile ?? file): no PEM private key (-----BEGIN … PRIVATE KEY-----); pass it with --key")
            }
            if privateKey.contains("ENCRYPTED") {
                throw Refusal.failure("\(keyFile ?? file): the private key is encrypted; decrypt it (openssl pkey) or import a PKCS#12 file")
            }
            expires = try Self.checked(.pem(certificate: Array(certificate.utf8), key: Secret(privateKey)), file: file, now: now)
            secrets = ["client.certificate": Secret(certificate), "client.key": Secret(privateKey)]
        } else {
            let bundle = Secret(data.base64EncodedString())
            // Opened without a password first: that tells a PKCS#12 bundle from anything else
            // before a password is asked for, and needs none for a bundle that has none.
            var given: Secret?
            do throws(ClientIdentityProblem) {
                _ = try ClientIdentity.pkcs12(bundle: bundle, password: nil).open()
            } catch .notPKCS12 {
                throw Refusal.failure("\(file): neither a PEM certificate (-----BEGIN CERTIFICATE-----) nor a PKCS#12 bundle; nothing was imported")
            } catch .wrongPassword {
                given = try password()
            } catch {
                throw Refusal.failure("\(file): \(error); nothing was imported")
            }
            expires = try Self.checked(.pkcs12(bundle: bundle, password: given), file: file, now: now)
            secrets = ["client.pkcs12": bundle]
            if let given, !given.isEmpty { secrets["client.pkcs12.password"] = given }
        }
        (self.secrets, self.file, self.expires) = (secrets, file, expires)
    }

    /// Seals the identity as `provider`'s, replacing everything of the previous one in the same
    /// transaction.
    public func save(provider: String, in store: DeckStore, at now: Instant) throws {
        try store.replaceProviderSecrets(prefix: "client.", with: secrets, provider: provider)
        try store.append(DeckEvent(at: now, kind: .imported, providerId: provider,
                                   detail: "client certificate from \(URL(fileURLWithPath: file).lastPathComponent), expires \(expires.iso8601)"))
    }

    /// The identity checked as libcurl will open it; a problem becomes the import's error.
    static func checked(_ identity: ClientIdentity, file: String, now: Instant) throws -> Instant {
        do { return try identity.check(now: now) } catch {
            throw Refusal.failure("\(file): \(error); nothing was imported")
        }
    }

    /// The first PEM block whose label contains `label`, with its armour lines.
    static func block(_ text: String, containing label: String) -> String? {
        var lines: [Substring] = []
        var inside = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !inside, line.hasPrefix("-----BEGIN"), line.contains(label) { inside = true }
            if inside { lines.append(line) }
            if inside, line.hasPrefix("-----END") { return lines.joined(separator: "\n") + "\n" }
        }
        return nil
    }
}
