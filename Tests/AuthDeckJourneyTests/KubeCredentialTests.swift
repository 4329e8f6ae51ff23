import Testing
import Foundation
import AuthDeckTestSupport

/// Real kubectl runs `kubectl get --raw /api` against a loopback HTTPS API stub with a
/// self-signed CA that checks the bearer (issue 28): the user `setup-kube` wrote asks
/// `authdeck kube-credential`; an account that needs a sign-in gives kubectl's own error and
/// our remedy; `KUBERNETES_EXEC_INFO` asking for v1beta1 gets v1beta1.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/kubectl"),
                             "SKIPPED: kubectl is missing (scripts/deps test installs kubernetes-client)"))
struct KubeCredentialTests {
    static let aks = "6dae42f8-4368-4678-94ff-3960e28e3630"
    let home = TempDirectory("authdeck-kube")
    let idp: EmulatorProcess
    let api: LiveProcess
    let port: Int
    let runner: BinaryRunner
    var kube: BinaryRunner {
        BinaryRunner(executable: "/usr/bin/kubectl", environment: [
            "HOME": home.path, "XDG_CONFIG_HOME": home.file("config"), "XDG_DATA_HOME": home.file("data"),
            "KUBECONFIG": home.file("kubeconfig"), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
        ])
    }

    init() throws {
        idp = try EmulatorProcess()
        let cert = home.file("api.pem"), key = home.file("api.key")
        let openssl = try BinaryRunner(executable: "/usr/bin/openssl", environment: ["PATH": "/usr/bin:/bin"]).run(
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
        try #require(openssl.status == 0, "\(openssl.stderr)")
        let harness = URL(fileURLWithPath: GlewlwydServer.harness).deletingLastPathComponent().appendingPathComponent("kube-api").path
        api = try LiveProcess(harness, [cert, key, idp.url, Self.aks], environment: ["PATH": "/usr/bin:/bin"])
        port = try api.readyPort("the API stub")
        runner = BinaryRunner.authdeck(home: home)
        try home.writeConfig("clock_skew = \"0s\"\n" + idp.workAndIntranetTOML())
    }

    /// Polls `accounts --json` until the account's token has expired.
    func waitUntilExpired() throws {
        try waitUntil("the access token expires", timeout: 20) {
            try runner.run(["accounts", "--json"]).stdout.contains("\"state\" : \"expired\"")
        }
    }

    func kubectl(_ args: String...) throws -> BinaryRunner.Result { try kube.run(args, timeout: 60) }

    @Test func kubectlGetsTheTokenFromAuthdeck() throws {
        try idp.admin("lifetimes", #"{"access_token":4}"#)
        let login = try runner.run(["login", "work", "--password", "--username", "taro@contoso.com"], env: ["AUTHDECK_PASSWORD": "taro-pass-123"])
        try #require(login.status == 0, "\(login.stderr)")
        #expect(try kubectl("config", "set-cluster", "test", "--server=https://127.0.0.1:\(port)", "--certificate-authority=\(home.file("api.pem"))").status == 0)
        let setup = try runner.run(["setup-kube", "--user", "dev", "work", "--scope", "\(Self.aks)/.default"], env: ["KUBECONFIG": home.file("kubeconfig")])
        #expect(setup.status == 0, "\(setup.stderr)")
        #expect(try kubectl("config", "set-context", "test", "--cluster=test", "--user=dev").status == 0)
        #expect(try kubectl("config", "use-context", "test").status == 0)
        let first = try kubectl("get", "--raw", "/api")
        #expect(first.status == 0 && first.stdout.contains("APIVersions"), "\(first.stdout) \(first.stderr)")
        // The 4-second token expires; kubectl asks again and authdeck renews on the way.
        try waitUntilExpired()
        let second = try kubectl("get", "--raw", "/api")
        #expect(second.status == 0 && second.stdout.contains("APIVersions"), "\(second.stderr)")
        // The grant is revoked and the token expires: no terminal, so no sign-in; kubectl fails
        // with our remedy.
        try idp.admin("revoke", #"{"username":"taro@contoso.com"}"#)
        try waitUntilExpired()
        let refused = try kubectl("get", "--raw", "/api")
        #expect(refused.status != 0, "\(refused.stdout)")
        #expect(refused.stderr.contains("authdeck login work"), "\(refused.stderr)")
    }

    /// kubectl splits `--exec-arg` at commas and kube-credential reads `--…` as its options:
    /// `--scope 'api://x/.default,--config,/tmp/evil.toml'` made every kubectl run take
    /// authdeck's config from that file (issue 38). Such values are refused before kubectl is
    /// run; the kubeconfig keeps exactly the arguments of a plain setup, which still works.
    @Test func setupKubeRefusesWhatKubectlWouldSplitOrReadAsAnOption() throws {
        let env = ["KUBECONFIG": home.file("kubeconfig")]
        let refused: [[String]] = [
            ["setup-kube", "--user", "dev", "work", "--scope", "api://x/.default,--config,\(home.file("evil.toml"))"],
            ["setup-kube", "--user", "dev", "work", "--scope=--config=\(home.file("evil.toml"))"],
            ["setup-kube", "--user", "dev", "--", "--config=\(home.file("evil.toml"))"],
            ["setup-kube", "--user", "dev", "work,--config,\(home.file("evil.toml"))"],
            ["setup-kube", "--user=--exec-command=/bin/sh", "work"],
            // The attack pass: YAML keeps NEL and U+2028 as line breaks that read back as spaces.
            ["setup-kube", "--user", "dev", "work", "--scope", "api://x/.default\u{85}--scope=evil"],
            ["setup-kube", "--user", "dev", "work", "--scope", "api://x/.default\u{2028}--scope=evil"],
            ["setup-kube", "--user", "dev", "work\u{200B}"],
        ]
        for args in refused {
            let r = try runner.run(args, env: env)
            #expect(r.status == 2 && r.stderr.contains("nothing was written"), "\(args): \(r.status) \(r.stderr)")
        }
        let written = try kubectl("config", "view", "-o", "jsonpath={.users}")
        #expect(!written.stdout.contains("--config") && !written.stdout.contains("/bin/sh"), "\(written.stdout)")
        let login = try runner.run(["login", "work", "--password", "--username", "taro@contoso.com"], env: ["AUTHDECK_PASSWORD": "taro-pass-123"])
        try #require(login.status == 0, "\(login.stderr)")
        let setup = try runner.run(["setup-kube", "--user", "dev", "work", "--scope", "\(Self.aks)/.default"], env: env)
        #expect(setup.status == 0, "\(setup.stderr)")
        let args = try kubectl("config", "view", "-o", #"jsonpath={.users[?(@.name=="dev")].user.exec.args}"#)
        #expect(args.stdout == #"["kube-credential","work","--scope","\#(Self.aks)/.default"]"#, "\(args.stdout)")
        #expect(try kubectl("config", "set-cluster", "test", "--server=https://127.0.0.1:\(port)", "--certificate-authority=\(home.file("api.pem"))").status == 0)
        #expect(try kubectl("config", "set-context", "test", "--cluster=test", "--user=dev").status == 0)
        #expect(try kubectl("config", "use-context", "test").status == 0)
        let api = try kubectl("get", "--raw", "/api")
        #expect(api.status == 0 && api.stdout.contains("APIVersions"), "\(api.stdout) \(api.stderr)")
    }

    @Test func v1beta1IsAnsweredWhenKubectlAsksForIt() throws {
        let login = try runner.run(["login", "work", "--password", "--username", "taro@contoso.com"], env: ["AUTHDECK_PASSWORD": "taro-pass-123"])
        try #require(login.status == 0)
        let info = #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":false}}"#
        let r = try runner.run(["kube-credential", "work"], env: ["KUBERNETES_EXEC_INFO": info])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["apiVersion"] as? String == "client.authentication.k8s.io/v1beta1" && json["kind"] as? String == "ExecCredential")
        let status = try #require(json["status"] as? [String: Any])
        #expect((status["token"] as? String)?.hasPrefix("at.") == true && (status["expirationTimestamp"] as? String)?.hasSuffix("Z") == true)
        let v1 = try runner.run(["kube-credential", "work"])
        #expect(v1.stdout.contains("\"client.authentication.k8s.io/v1\""))
    }
}
