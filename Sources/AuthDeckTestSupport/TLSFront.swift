import Foundation

/// An HTTPS front (`Tests/harness/tls-proxy`, no client certificate asked) before a loopback
/// server, with a certificate for 127.0.0.1 that openssl makes for it and that is its own CA:
/// tests name it as `ca_file`, so TLS is verified as it is against a real server. The front
/// lives as long as `process`.
public struct TLSFront {
    public let process: LiveProcess
    public let port: UInt16
    /// The front's certificate (PEM), which is also the CA that issued it.
    public let certificate: String

    /// Starts a front for `upstream` with `<name>.pem` and `<name>.key` made in `home`.
    public init(upstream: String, in home: TempDirectory, name: String) throws {
        let cert = home.file("\(name).pem"), key = home.file("\(name).key")
        let openssl = try BinaryRunner(executable: "/usr/bin/openssl", environment: ["PATH": "/usr/bin:/bin"]).run(
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
        guard openssl.status == 0 else {
            throw NSError(domain: "TLSFront", code: Int(openssl.status), userInfo: [NSLocalizedDescriptionKey: "openssl: \(openssl.stderr)"])
        }
        port = FreePort.pick()
        let harness = URL(fileURLWithPath: GlewlwydServer.harness).deletingLastPathComponent().appendingPathComponent("tls-proxy").path
        process = try LiveProcess(harness, [String(port), upstream, cert, key, "none"], environment: ["PATH": "/usr/bin:/bin"])
        _ = try process.waitFor("the TLS front for \(name)") { $0.contains("ready") ? true : nil }
        certificate = cert
    }

    public var url: String { "https://127.0.0.1:\(port)" }
}
