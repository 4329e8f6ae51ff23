import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckApp
import AuthDeckTestSupport

/// `CertificateImport` below the binary, with identities made by real openssl: what is sealed
/// for a PEM pair and for a PKCS#12 bundle, when a password is asked, and that a wrong file is
/// refused by name before the store changes.
@Suite struct CertificateImportTests {
    let dir = TempDirectory("authdeck-certimport")
    let now = Instant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))

    func openssl(_ arguments: [String]) throws {
        let r = try BinaryRunner(executable: "/usr/bin/openssl", environment: ["PATH": "/usr/bin:/bin"]).run(arguments)
        try #require(r.status == 0, "openssl \(arguments.first ?? ""): \(r.stderr)")
    }

    /// A self-signed identity valid for 30 days: `id.key`, `id.crt`.
    func makeIdentity() throws {
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "30",
                     "-subj", "/CN=authdeck-test", "-keyout", dir.file("id.key"), "-out", dir.file("id.crt")])
    }

    func store() throws -> DeckStore {
        try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: SystemClock())
    }

    @Test func aPEMPairIsSealedWithItsExpiryAndAnEvent() throws {
        try makeIdentity()
        let imported = try CertificateImport(file: dir.file("id.crt"), keyFile: dir.file("id.key"), now: now) {
            Issue.record("a PEM pair needs no password")
            return Secret("")
        }
        let days = (imported.expires.secondsSinceEpoch - now.secondsSinceEpoch) / 86_400
        #expect((29...30).contains(days), "\(days)")
        let store = try store()
        try imported.save(provider: "work", in: store, at: now)
        #expect(try store.providerSecret("client.certificate", provider: "work")?.exposedValue.hasPrefix("-----BEGIN CERTIFICATE-----") == true)
        #expect(try store.providerSecret("client.key", provider: "work")?.exposedValue.contains("PRIVATE KEY") == true)
        #expect(try store.providerSecret("client.pkcs12", provider: "work") == nil)
        let event = try #require(try store.events(since: nil, accountId: nil, limit: 1).first)
        #expect(event.kind == .imported && event.detail == "client certificate from id.crt, expires \(imported.expires.iso8601)")
    }

    /// A bundle with a password: opened without one first, then the password is asked once and
    /// sealed beside it; a later import replaces every part of the previous identity.
    @Test func aPKCS12BundleAsksItsPasswordOnceAndReplacesAPEMIdentity() throws {
        try makeIdentity()
        try openssl(["pkcs12", "-export", "-inkey", dir.file("id.key"), "-in", dir.file("id.crt"), "-passout", "pass:bundle-pw",
                     "-out", dir.file("id.p12")])
        let store = try store()
        try CertificateImport(file: dir.file("id.crt"), keyFile: dir.file("id.key"), now: now) { Secret("") }
            .save(provider: "work", in: store, at: now)
        var asked = 0
        let bundle = try CertificateImport(file: dir.file("id.p12"), keyFile: nil, now: now) {
            asked += 1
            return Secret("bundle-pw")
        }
        #expect(asked == 1)
        try bundle.save(provider: "work", in: store, at: now)
        #expect(try store.providerSecret("client.pkcs12.password", provider: "work") == Secret("bundle-pw"))
        #expect(try store.providerSecret("client.pkcs12", provider: "work") != nil)
        #expect(try store.providerSecret("client.certificate", provider: "work") == nil, "the PEM identity is replaced, not kept beside")
        #expect(throws: Refusal.self) {
            try CertificateImport(file: dir.file("id.p12"), keyFile: nil, now: now) { Secret("wrong-pw") }
        }
    }

    @Test func aFileThatIsNoIdentityIsRefusedByName() throws {
        try makeIdentity()
        try "not a certificate\n".write(toFile: dir.file("notes.txt"), atomically: true, encoding: .utf8)
        func refusal(_ file: String, key: String? = nil) -> String? {
            do {
                _ = try CertificateImport(file: file, keyFile: key, now: now) { Secret("") }
                return nil
            } catch let r as Refusal {
                return r.message
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal(dir.file("notes.txt"))
                == "\(dir.file("notes.txt")): neither a PEM certificate (-----BEGIN CERTIFICATE-----) nor a PKCS#12 bundle; nothing was imported")
        #expect(refusal(dir.file("missing.crt")) == "\(dir.file("missing.crt")): cannot read the file")
        #expect(refusal(dir.file("id.crt")) == "\(dir.file("id.crt")): no PEM private key (-----BEGIN … PRIVATE KEY-----); pass it with --key")
        try openssl(["pkey", "-in", dir.file("id.key"), "-aes256", "-passout", "pass:k", "-out", dir.file("enc.key")])
        #expect(refusal(dir.file("id.crt"), key: dir.file("enc.key"))?.contains("the private key is encrypted") == true)
        #expect(!FileManager.default.fileExists(atPath: dir.file("s.db")), "nothing was opened, nothing changed")
    }
}
