import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckHTTP

/// `authdeck import cert FILE --provider ID`: a client certificate for mutual TLS, sealed in
/// the store and presented to the provider's server from memory.
struct ImportCertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cert", abstract: "Import a client certificate (PEM certificate + key, or PKCS#12) for a provider's mutual TLS.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A PEM file with the certificate (and the key, unless --key), or a PKCS#12 (.p12/.pfx) file.") var file: String
    @Option(name: .long, help: ArgumentHelp("The provider that presents it.", valueName: "id"), completion: Completions.providers) var provider: String
    @Option(name: .long, help: ArgumentHelp("The PEM private key, when FILE holds only the certificate.", valueName: "path")) var key: String?
    @Option(name: .long, help: ArgumentHelp("PKCS#12: read its password from this file (else AUTHDECK_PASSWORD, else a prompt).", valueName: "path"))
    var passwordFile: String?

    func run() async throws {
        let context = DeckContext(global)
        let config = try context.loadConfig()
        guard config.provider(provider) != nil else { throw CLIError.unknownProvider(provider, in: config) }
        guard let data = FileManager.default.contents(atPath: file) else { throw CLIError.failure("\(file): cannot read the file") }
        let now = context.clock.now()
        var secrets: [String: Secret]
        let expires: Instant
        if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN") {
            guard let certificate = Self.block(text, containing: "CERTIFICATE") else {
                throw CLIError.failure("\(file): no PEM certificate (-----BEGIN CERTIFICATE-----) in the file")
            }
            let keyText = try key.map { path -> String in
                guard let k = FileManager.default.contents(atPath: path).flatMap({ String(data: $0, encoding: .utf8) }) else {
                    throw CLIError.failure("\(path): cannot read the key file")
                }
                return k
            } ?? text
            guard let privateKey = Self.block(keyText, containing: "PRIVATE KEY") else {
                throw CLIError.failure("\(key ?? file): no PEM private key (-----BEGIN … PRIVATE KEY-----); pass it with --key")
            }
            if privateKey.contains("ENCRYPTED") {
                throw CLIError.failure("\(key ?? file): the private key is encrypted; decrypt it (openssl pkey) or import a PKCS#12 file")
            }
            expires = try checked(.pem(certificate: Array(certificate.utf8), key: Secret(privateKey)), now: now)
            secrets = ["client.certificate": Secret(certificate), "client.key": Secret(privateKey)]
        } else {
            let bundle = Secret(data.base64EncodedString())
            // Opened without a password first: that tells a PKCS#12 bundle from anything else
            // before a password is asked for, and needs none for a bundle that has none.
            var password: Secret?
            do throws(ClientIdentityProblem) {
                _ = try ClientIdentity.pkcs12(bundle: bundle, password: nil).open()
            } catch .notPKCS12 {
                throw CLIError.failure("\(file): neither a PEM certificate (-----BEGIN CERTIFICATE-----) nor a PKCS#12 bundle; nothing was imported")
            } catch .wrongPassword {
                password = try PasswordReader.read(file: passwordFile, environment: context.environment,
                                                   prompt: "Password of \(URL(fileURLWithPath: file).lastPathComponent): ")
            } catch {
                throw CLIError.failure("\(file): \(error); nothing was imported")
            }
            expires = try checked(.pkcs12(bundle: bundle, password: password), now: now)
            secrets = ["client.pkcs12": bundle]
            if let password, !password.isEmpty { secrets["client.pkcs12.password"] = password }
        }
        if expires - now < .days(30) {
            Output.note("The certificate expires on \(expires.iso8601), within 30 days: ask for a new one soon.")
        }
        let store = try context.openStore()
        // Everything of the previous identity goes in the same transaction the new one is written.
        try store.replaceProviderSecrets(prefix: "client.", with: secrets, provider: provider)
        try store.append(DeckEvent(at: now, kind: .imported, providerId: provider,
                                   detail: "client certificate from \(URL(fileURLWithPath: file).lastPathComponent), expires \(expires.iso8601)"))
        Output.raw("Imported the client certificate for \(provider) (expires \(expires.iso8601)); it replaces any previous one, is sealed in the store and presented for mutual TLS.\n")
    }

    /// The identity checked as libcurl will open it; a problem becomes the import's error.
    func checked(_ identity: ClientIdentity, now: Instant) throws -> Instant {
        do { return try identity.check(now: now) } catch {
            throw CLIError.failure("\(file): \(error); nothing was imported")
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
