import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckApp

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
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let config = try context.loadConfig()
        guard config.provider(provider) != nil else { throw CLIError.unknownProvider(provider, in: config) }
        let certificate = try CertificateImport(file: file, keyFile: key, now: context.clock.now()) {
            try PasswordReader.read(file: passwordFile, environment: context.environment,
                                    prompt: "Password of \(URL(fileURLWithPath: file).lastPathComponent): ")
        }
        let expires = certificate.expires
        if expires - context.clock.now() < .days(30) {
            context.output.note("The certificate expires on \(expires.iso8601), within 30 days: ask for a new one soon.")
        }
        try certificate.save(provider: provider, in: try context.openStore(creating: true), at: context.clock.now())
        context.output.raw("Imported the client certificate for \(provider) (expires \(expires.iso8601)); it replaces any previous one, is sealed in the store and presented for mutual TLS.\n")
    }
}
