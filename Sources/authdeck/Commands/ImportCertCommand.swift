import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckStore

/// `authdeck import cert FILE --provider ID`: a client certificate for mutual TLS, sealed in
/// the store and presented to the provider's server from memory.
struct ImportCertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cert", abstract: "Import a client certificate (PEM certificate + key, or PKCS#12) for a provider's mutual TLS.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A PEM file with the certificate (and the key, unless --key), or a PKCS#12 (.p12/.pfx) file.") var file: String
    @Option(name: .long, help: ArgumentHelp("The provider that presents it.", valueName: "id")) var provider: String
    @Option(name: .long, help: ArgumentHelp("The PEM private key, when FILE holds only the certificate.", valueName: "path")) var key: String?
    @Option(name: .long, help: ArgumentHelp("PKCS#12: read its password from this file (else AUTHDECK_PASSWORD, else a prompt).", valueName: "path"))
    var passwordFile: String?

    func run() async throws {
        let context = DeckContext(global)
        let config = try context.loadConfig()
        guard config.provider(provider) != nil else { throw CLIError.usage("no provider \"\(TerminalText.inert(provider))\" in \(config.path)") }
        guard let data = FileManager.default.contents(atPath: file) else { throw CLIError.failure("\(file): cannot read the file") }
        let store = try context.openStore()
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
            try store.setProviderSecret(Secret(certificate), name: "client.certificate", provider: provider)
            try store.setProviderSecret(Secret(privateKey), name: "client.key", provider: provider)
            try store.setProviderSecret(nil, name: "client.pkcs12", provider: provider)
        } else {
            let password = try PasswordReader.read(file: passwordFile, environment: context.environment,
                                                   prompt: "Password of \(URL(fileURLWithPath: file).lastPathComponent): ")
            try store.setProviderSecret(Secret(data.base64EncodedString()), name: "client.pkcs12", provider: provider)
            try store.setProviderSecret(password.isEmpty ? nil : password, name: "client.pkcs12.password", provider: provider)
            try store.setProviderSecret(nil, name: "client.certificate", provider: provider)
            try store.setProviderSecret(nil, name: "client.key", provider: provider)
        }
        try store.append(DeckEvent(at: context.clock.now(), kind: .imported, providerId: provider,
                                   detail: "client certificate from \(URL(fileURLWithPath: file).lastPathComponent)"))
        Output.raw("Imported the client certificate for \(provider); it is sealed in the store and presented for mutual TLS.\n")
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
