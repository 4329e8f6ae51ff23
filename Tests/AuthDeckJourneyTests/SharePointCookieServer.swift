import Foundation
import AuthDeckTestSupport

/// The fixture server (Tests/harness/http-fixture) over TLS as `contoso.sharepoint.com` and
/// `fabrikam.sharepoint.com`, with a test certificate: `/sharepoint-signin` sets FedAuth
/// host-only and rtFa for `.sharepoint.com` as SharePoint Online does, so curl and Chromium
/// store them as they would from the real site.
struct SharePointCookieServer {
    let cert: String
    let port: Int
    /// The certificate's SPKI hash, for Chromium's `--ignore-certificate-errors-spki-list`
    /// (trust this one test key, not every certificate).
    let spki: String
    let server: LiveProcess

    init(in home: TempDirectory) throws {
        let made = try Self.certificate(in: home)
        (cert, spki) = (made.cert, made.spki)
        let tools = ["PATH": "/usr/bin:/bin"]
        let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../harness/http-fixture").standardized.path
        port = Int(FreePort.pick())
        server = try LiveProcess(harness, [String(port), cert, made.key], environment: tools)
        _ = try server.waitFor("the fixture server") { $0.contains("ready") ? true : nil }
    }

    /// A test certificate for both sites made by openssl in `home`: its file, its key's file
    /// and its SPKI hash (what Chromium's `--ignore-certificate-errors-spki-list` pins).
    static func certificate(in home: TempDirectory) throws -> (cert: String, key: String, spki: String) {
        let cert = home.file("sp.pem"), key = home.file("sp.key")
        let tools = ["PATH": "/usr/bin:/bin"]
        let openssl = try BinaryRunner(executable: "/usr/bin/openssl", environment: tools).run(
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=contoso.sharepoint.com",
             "-addext", "subjectAltName=DNS:contoso.sharepoint.com,DNS:fabrikam.sharepoint.com"])
        guard openssl.status == 0 else { throw Failure(what: "openssl: \(openssl.stderr)") }
        let hash = try BinaryRunner(executable: "/bin/sh", environment: tools).run(["-c",
            "openssl x509 -pubkey -noout -in '\(cert)' | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"])
        return (cert, key, hash.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    struct Failure: Error, CustomStringConvertible { let what: String; var description: String { what } }
}
