import Foundation
import AuthDeckEmulator
import AuthDeckPlatform

/// The demo's container registry: the emulator's Azure Container Registry on its https port,
/// with a private CA of the demo's own, and what docker needs to reach it through
/// `docker-credential-authdeck`.
///
/// Why: the README's docker paragraph must be reproducible with nothing but authdeck and the
/// docker CLI. The files live in the demo's directory and go with it: `ca.pem` (the CA the
/// registry's `[[credential]]` entry names as `ca_file`, so the helper shows the account's
/// token only to this registry), `registry.pem` and `registry.key` (0600) for the emulator,
/// `docker/config.json` (credHelpers naming authdeck) and `bin/docker-credential-authdeck`
/// (a link to the `authdeck` front, as `scripts/install` makes one).
struct DemoRegistry {
    let directory: String
    /// `https://127.0.0.1:PORT`, once the emulator listens.
    var url = ""

    var caFile: String { directory + "/ca.pem" }
    var certificateFile: String { directory + "/registry.pem" }
    var keyFile: String { directory + "/registry.key" }
    var dockerConfig: String { directory + "/docker" }
    var binDirectory: String { directory + "/bin" }
    /// `127.0.0.1:PORT`, as docker names a registry.
    var host: String { String(url.dropFirst("https://".count)) }

    /// Makes the CA and the registry's certificate in `directory` (the demo's, 0700).
    static func issue(in directory: String) throws -> DemoRegistry {
        let registry = DemoRegistry(directory: directory)
        do {
            try LocalAuthority.issue(caFile: registry.caFile, certificateFile: registry.certificateFile, keyFile: registry.keyFile)
        } catch {
            throw CLIError.failure("the demo could not make its registry's certificates: \(error)")
        }
        return registry
    }

    /// The `[[credential]]` entry that routes the registry to taro's work account.
    var credentialTOML: String {
        """

        # The emulator's container registry over TLS (docker's credential helper: see `demo --seed-only`).
        [[credential]]
        url = "\(url)"
        account = "work/taro@contoso.com"
        scopes = ["https://management.azure.com/.default"]
        registry = "acr"
        ca_file = "\(caFile)"

        """
    }

    /// Writes docker's config (credHelpers: the registry → authdeck) and links the helper into
    /// `bin/` when the `authdeck` front is found beside this binary (a build tree) or in the
    /// install's `bin/` (then the link is the one scripts/install made, by another path).
    func prepareDocker() throws {
        try FileManager.default.createDirectory(atPath: dockerConfig, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        try Data(#"{"credHelpers": {"\#(host)": "authdeck"}}"#.utf8).write(to: URL(fileURLWithPath: dockerConfig + "/config.json"))
        let dir = InstallPaths.binaryDirectory
        let fronts = ["\(dir)/authdeck", "\(dir)/../../bin/authdeck"].map { URL(fileURLWithPath: $0).standardized.path }
        guard let front = fronts.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return }
        try FileManager.default.createDirectory(atPath: binDirectory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(atPath: binDirectory + "/docker-credential-authdeck", withDestinationPath: front)
    }

    /// What `demo --seed-only` prints about the registry (no final newline): its address and
    /// CA, then the lines a person types (`try …`, in order, after the seed's `export` line).
    ///
    /// docker does not check the certificate of a registry on 127.0.0.0/8 (its default
    /// insecure range, so no CA is asked of it); the helper does, with `ca_file`, before it
    /// sends the token. The `curl` line shows the registry's TLS and the demo's CA at work.
    var seedLines: String {
        """
        registry \(url) ca \(caFile)
        try export DOCKER_CONFIG=\(dockerConfig) PATH=\(binDirectory):$PATH
        try docker manifest inspect \(host)/demo/app:latest
        try curl --cacert \(caFile) https://\(host)/v2/
        note docker itself does not check the certificate of a registry on 127.0.0.0/8; docker-credential-authdeck does (ca_file) before it sends a token
        """
    }
}
