import Testing
import Foundation
import AuthDeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 39, item 7: the README's docker paragraph, reproduced from `demo --seed-only` alone —
/// the emulator's registry over TLS with the demo's own CA, and the real docker CLI reaching it
/// through `docker-credential-authdeck` by the very lines the seed printed.
@Suite(.serialized) struct DemoRegistryTests {
    let home = TempDirectory("authdeck-demo-registry")
    var environment: [String: String] {
        ["HOME": home.path, "XDG_DATA_HOME": home.file("data"), "XDG_CONFIG_HOME": home.file("config"), "TMPDIR": home.file("tmp"),
         "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"]
    }

    init() throws {
        try FileManager.default.createDirectory(atPath: home.file("tmp"), withIntermediateDirectories: true)
    }

    /// A seeded demo: its printed lines and the emulator's pid (stopped by the caller).
    func seed() throws -> (lines: [String], emulator: Int32, directory: String) {
        let r = try BinaryRunner(product: "authdeck", environment: environment).run(["demo", "--seed-only"], timeout: 90)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let words = try #require(lines.first { $0.hasPrefix("emulator ") }?.split(separator: " "), "\(r.stdout) \(r.stderr)")
        let pid = try #require(words.count == 4 ? Int32(words[3]) : nil, "\(r.stdout)")
        #expect(r.status == 0, "\(r.stderr)")
        let store = try #require(lines.first { $0.hasPrefix("store ") }?.dropFirst("store ".count))
        return (lines, pid, (String(store) as NSString).deletingLastPathComponent)
    }

    func shell(_ script: String) throws -> BinaryRunner.Result {
        try BinaryRunner(executable: "/bin/sh", environment: environment).run(["-c", script], timeout: 90)
    }

    /// The lines the seed printed for a person to type (`try …`), without the word.
    func tries(_ lines: [String]) -> [String] { lines.filter { $0.hasPrefix("try ") }.map { String($0.dropFirst(4)) } }

    @Test(.enabled(if: DockerCLI.path != nil, "SKIPPED: the docker CLI is missing"))
    func dockerInspectsTheDemoRegistryByThePrintedLines() throws {
        let (lines, emulator, directory) = try seed()
        defer { kill(emulator, SIGTERM); try? FileManager.default.removeItem(atPath: directory) }
        let export = try #require(lines.first { $0.hasPrefix("export ") })
        let steps = tries(lines)
        let docker = try #require(steps.first { $0.hasPrefix("docker ") }, "\(lines)")
        #expect(steps.first?.hasPrefix("export DOCKER_CONFIG=") == true, "\(steps)")
        // Exactly what was printed, in its order, after the store's variables.
        let r = try shell(([export] + steps.filter { $0.hasPrefix("export ") } + [docker]).joined(separator: "\n"))
        #expect(r.status == 0 && r.stdout.contains("application/vnd.docker.distribution.manifest.v2+json"), "\(r.stdout) \(r.stderr)")
        // docker asked the helper, and the helper exchanged taro's token at the registry over
        // TLS it verified with the demo's CA (an unverified registry would get nothing).
        let registry = try #require(lines.first { $0.hasPrefix("registry ") }?.split(separator: " "))
        let host = String(registry[1].dropFirst("https://".count))
        let get = try shell(([export] + steps.filter { $0.hasPrefix("export ") } + ["echo \(host) | docker-credential-authdeck get"])
            .joined(separator: "\n"))
        #expect(get.status == 0 && get.stdout.contains("acr-rt."), "\(get.stdout) \(get.stderr)")
    }

    /// The registry's address and CA are printed, its certificate verifies with that CA alone
    /// (the printed curl line), and the TLS port answers plain http with a clear 400 instead of
    /// garbage — and goes on serving TLS.
    @Test func theDemoRegistryIsTLSWithTheDemoCA() throws {
        let (lines, emulator, directory) = try seed()
        defer { kill(emulator, SIGTERM); try? FileManager.default.removeItem(atPath: directory) }
        let registry = try #require(lines.first { $0.hasPrefix("registry ") }?.split(separator: " ").map(String.init), "\(lines)")
        #expect(registry.count == 4 && registry[0] == "registry" && registry[2] == "ca", "\(registry)")
        let (url, ca) = (registry[1], registry[3])
        #expect(url.hasPrefix("https://127.0.0.1:") && ca == directory + "/ca.pem", "\(registry)")
        var st = stat()
        #expect(stat(directory + "/registry.key", &st) == 0 && st.st_mode & 0o777 == 0o600, "the server key is private")
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).contains { $0.hasPrefix("ca") && $0.hasSuffix(".key") },
                "the CA's key is never written")
        let config = try String(contentsOfFile: directory + "/config.toml", encoding: .utf8)
        #expect(config.contains("url = \"\(url)\"") && config.contains("ca_file = \"\(ca)\""), "\(config)")

        let curl = try #require(tries(lines).first { $0.hasPrefix("curl ") }, "\(lines)")
        let verified = try shell(curl + " -sS -i")
        #expect(verified.status == 0 && verified.stdout.hasPrefix("HTTP/1.1 401"), "\(verified.stdout) \(verified.stderr)")
        #expect(verified.stdout.contains("realm=\"\(url)/oauth2/token\""), "the token realm is the https address: \(verified.stdout)")
        let unverified = try shell("curl -sS \(url)/v2/")
        #expect(unverified.status == 60, "without the demo's CA the certificate is not trusted: \(unverified.stderr)")

        let plain = try shell("curl -sS -i http://\(url.dropFirst("https://".count))/v2/")
        #expect(plain.status == 0 && plain.stdout.hasPrefix("HTTP/1.1 400"), "\(plain.stdout) \(plain.stderr)")
        #expect(plain.stdout.contains("this port speaks https (TLS) and the request came as plain http; use \(url)/"), "\(plain.stdout)")
        #expect(try shell(curl + " -sS -o /dev/null -w '%{http_code}'").stdout == "401", "TLS still served after a plain request")
    }

    /// Certificate options that cannot serve are refused at start, naming the option and file.
    @Test func theEmulatorNamesABadCertificate() throws {
        let idp = BinaryRunner(product: "authdeck-idp", environment: environment)
        let missing = try idp.run(["--tls-cert", home.file("none.pem"), "--tls-key", home.file("none.key")])
        #expect(missing.status == 2 && missing.stderr.contains("--tls-cert \(home.file("none.pem")): not a readable PEM certificate"),
                "\(missing.stderr)")
        let alone = try idp.run(["--tls-cert", home.file("none.pem")])
        #expect(alone.status == 2 && alone.stderr.contains("--tls-cert and --tls-key go together"), "\(alone.stderr)")
    }
}
