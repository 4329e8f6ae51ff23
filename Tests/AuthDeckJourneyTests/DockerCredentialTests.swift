import Testing
import Foundation
import AuthDeckTestSupport

/// The real docker CLI (no daemon: `docker manifest inspect` talks to the registry itself) with
/// `credHelpers` naming authdeck, against the emulator's Azure Container Registry behind a TLS
/// front (issue 28): docker runs `docker-credential-authdeck`, which exchanges the account's
/// Entra token for a registry refresh token; a token for another audience is refused.
/// Where the docker CLI is (the image has it in /usr/local/bin).
enum DockerCLI {
    static var path: String? { ["/usr/local/bin/docker", "/usr/bin/docker"].first { FileManager.default.isExecutableFile(atPath: $0) } }
}

@Suite(.serialized, .enabled(if: DockerCLI.path != nil, "SKIPPED: the docker CLI is missing"))
struct DockerCredentialTests {
    let home = TempDirectory("authdeck-docker")
    let idp: EmulatorProcess
    let front: LiveProcess
    let port: Int
    let runner: BinaryRunner

    init() throws {
        idp = try EmulatorProcess()
        let tls = try TLSFront(upstream: idp.url, in: home, name: "registry")
        front = tls.process
        port = Int(tls.port)
        // docker finds the helper on PATH by its name: a link to the front, as scripts/install makes.
        let bin = home.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let authdeck = BinaryRunner(product: "authdeck", environment: [:]).executable
        try FileManager.default.createSymbolicLink(atPath: bin + "/docker-credential-authdeck", withDestinationPath: authdeck)
        runner = BinaryRunner.authdeck(home: home, ["PATH": "\(bin):/usr/bin:/bin", "DOCKER_CONFIG": home.file("docker")])
        try FileManager.default.createDirectory(atPath: home.file("docker"), withIntermediateDirectories: true)
        try #"{"credHelpers": {"127.0.0.1:\#(port)": "authdeck"}}"#.write(toFile: home.file("docker/config.json"), atomically: true, encoding: .utf8)
        try home.writeConfig(idp.workAndIntranetTOML())
        let login = try runner.run(["login", "work", "--password", "--username", "taro@contoso.com"], env: ["AUTHDECK_PASSWORD": "taro-pass-123"])
        try #require(login.status == 0, "\(login.stderr)")
    }

    func config(scope: String) throws {
        try home.writeConfig(idp.workAndIntranetTOML() + """
            [[credential]]
            url = "https://127.0.0.1:\(port)"
            account = "work"
            scopes = ["\(scope)"]
            registry = "acr"
            ca_file = "\(home.file("registry.pem"))"

            """)
    }

    func docker(_ args: String...) throws -> BinaryRunner.Result {
        try BinaryRunner(executable: DockerCLI.path!, environment: runner.environment).run(args, timeout: 60)
    }

    /// Issue 39, item 8: a route is git's or docker's, and each helper serves its own — docker
    /// gets nothing for a repository host and lists only registries; git gets nothing for a
    /// registry and `setup-git` configures only repository URLs (saying when it points git at
    /// a build directory).
    @Test func gitAndDockerRoutesStayApart() throws {
        try home.writeConfig(idp.workAndIntranetTOML() + """
            [[credential]]
            url = "https://git.example.com/team"
            account = "work"

            [[credential]]
            url = "https://contoso.azurecr.io"
            account = "work"

            [[credential]]
            url = "https://registry.example.com"
            account = "work"
            registry = "docker"

            """)
        let list = try runner.run(["docker-credential", "list"])
        #expect(list.stdout.contains("contoso.azurecr.io") && list.stdout.contains("registry.example.com"), "\(list.stdout)")
        #expect(!list.stdout.contains("git.example.com"), "a repository host is not docker's: \(list.stdout)")
        let get = try runner.run(["docker-credential", "get"], stdin: "git.example.com\n")
        #expect(get.status == 1 && get.stdout.contains("credentials not found in native keychain"), "\(get.stdout)")
        #expect(try runner.run(["docker-credential", "get"], stdin: "registry.example.com\n").stdout.contains(#""Secret":"at."#))
        let git = try runner.run(["git-credential", "get"], stdin: "protocol=https\nhost=contoso.azurecr.io\n\n")
        #expect(git.status == 0 && git.stdout.isEmpty, "a registry is not git's: \(git.stdout)")
        #expect(try runner.run(["git-credential", "get"], stdin: "protocol=https\nhost=git.example.com\npath=team/app.git\n\n")
            .stdout.contains("password="))
        let setup = try runner.run(["setup-git"])
        #expect(setup.status == 0 && setup.stdout == "git asks authdeck for https://git.example.com/team\n", "\(setup.stdout) \(setup.stderr)")
        #expect(setup.stderr.contains("from a build directory of a checkout"), "\(setup.stderr)")
        let gitConfig = try String(contentsOfFile: home.file(".gitconfig"), encoding: .utf8)
        #expect(gitConfig.contains("git.example.com") && !gitConfig.contains("azurecr") && !gitConfig.contains("registry.example.com"), "\(gitConfig)")
    }

    @Test func dockerInspectsAnImageWithTheExchangedToken() throws {
        try config(scope: "https://management.azure.com/.default")
        let r = try docker("manifest", "inspect", "--insecure", "127.0.0.1:\(port)/app:latest")
        #expect(r.status == 0 && r.stdout.contains("application/vnd.docker.distribution.manifest.v2+json"), "\(r.stdout) \(r.stderr)")
        // The helper's own answer: the ACR user and a registry refresh token, never the Entra token.
        let get = try runner.run(["docker-credential", "get"], stdin: "127.0.0.1:\(port)\n")
        #expect(get.status == 0 && get.stdout.contains(#""Username":"00000000-0000-0000-0000-000000000000""#) && get.stdout.contains("acr-rt."),
                "\(get.stdout) \(get.stderr)")
        let other = try runner.run(["docker-credential", "get"], stdin: "registry.example\n")
        #expect(other.status == 1 && other.stdout.contains("credentials not found in native keychain"))
        #expect(try runner.run(["docker-credential", "list"]).stdout.contains("127.0.0.1:\(port)"))
    }

    /// A registry named over plain http gets no token (issue 38), as git answers only a
    /// route's own scheme; https, docker's bare `host`, and http to this machine still do.
    @Test func aRegistryOverPlainHTTPGetsNoToken() throws {
        try home.writeConfig(idp.workAndIntranetTOML() + """
            [[credential]]
            url = "https://registry.example.com"
            account = "work"
            registry = "docker"

            """)
        for server in ["http://registry.example.com", "HTTP://registry.example.com/v2/", "ftp://registry.example.com"] {
            let r = try runner.run(["docker-credential", "get"], stdin: server + "\n")
            #expect(r.status == 1 && r.stdout.isEmpty, "\(server): \(r.stdout)")
            #expect(r.stderr.contains("refusing to send the access token to ") && r.stderr.contains("nothing was given to docker"),
                    "\(server): \(r.stderr)")
        }
        for server in ["https://registry.example.com", "registry.example.com"] {
            let r = try runner.run(["docker-credential", "get"], stdin: server + "\n")
            #expect(r.status == 0 && r.stdout.contains(#""Secret":"at."#), "\(server): \(r.stdout) \(r.stderr)")
        }
        try config(scope: "https://management.azure.com/.default")
        let loopback = try runner.run(["docker-credential", "get"], stdin: "http://127.0.0.1:\(port)\n")
        #expect(loopback.status == 0 && loopback.stdout.contains("acr-rt."), "\(loopback.stdout) \(loopback.stderr)")
    }

    /// A trial found an Azure Container Registry entry on this machine's loopback named with
    /// `http://` (as the README allows) asked over https anyway, failing with a question about
    /// client certificates: the exchange goes over the entry's own scheme.
    @Test func aLoopbackRegistryNamedOverHttpIsAskedOverHttp() throws {
        let plain = idp.url.replacingOccurrences(of: "http://", with: "")
        try home.writeConfig(idp.workAndIntranetTOML() + """
            [[credential]]
            url = "\(idp.url)"
            account = "work"
            scopes = ["https://management.azure.com/.default"]
            registry = "acr"

            """)
        let get = try runner.run(["docker-credential", "get"], stdin: plain + "\n")
        #expect(get.status == 0 && get.stdout.contains("acr-rt."), "\(get.stdout) \(get.stderr)")
    }

    /// Issue 38: the entry's `ca_file` decides whom the Entra token is shown to; one others can
    /// write is refused before anything is sent, naming the file.
    @Test func aCAFileOthersCanWriteIsRefused() throws {
        try config(scope: "https://management.azure.com/.default")
        chmod(home.file("registry.pem"), 0o666)
        let get = try runner.run(["docker-credential", "get"], stdin: "127.0.0.1:\(port)\n")
        #expect(get.status == 1 && get.stdout.isEmpty, "\(get.stdout) \(get.stderr)")
        #expect(get.stderr.contains("ca_file \(home.file("registry.pem")): it is writable by group or others (mode 0666)"), "\(get.stderr)")
        #expect(get.stderr.contains("chmod go-w \(home.file("registry.pem"))") && get.stderr.contains("nothing was sent"), "\(get.stderr)")
        chmod(home.file("registry.pem"), 0o644)
        #expect(try runner.run(["docker-credential", "get"], stdin: "127.0.0.1:\(port)\n").status == 0)
    }

    @Test func aTokenForAnotherAudienceIsRefusedByTheRegistry() throws {
        try config(scope: "https://graph.microsoft.com/.default")
        let get = try runner.run(["docker-credential", "get"], stdin: "127.0.0.1:\(port)\n")
        #expect(get.status != 0 && get.stderr.contains("refused the token exchange"), "\(get.stdout) \(get.stderr)")
        let r = try docker("manifest", "inspect", "--insecure", "127.0.0.1:\(port)/app:latest")
        #expect(r.status != 0, "\(r.stdout)")
    }
}
