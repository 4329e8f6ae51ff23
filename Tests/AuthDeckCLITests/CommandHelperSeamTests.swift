import Testing
import Foundation
import ArgumentParser
import AuthDeckCore
import AuthDeckStore
import AuthDeckHTTP
import AuthDeckConfig
import AuthDeckTestSupport
@testable import AuthDeckCLI

/// The credential helpers — `git-credential`, `kube-credential`, `docker-credential` — run
/// in-process: their caller's request on the context's input, the real adapters over a
/// scripted network, a real store in a temporary home, and the answer their tool reads on stdout.
struct CommandHelperSeamTests {
    let seam = SeamHome()

    /// The fixture's config with its Azure AD authority scripted, and these `[[credential]]` entries.
    func config(_ credentials: String) throws -> DeckConfig {
        try seam.config(SeamHome.scriptedAzureTOML + "\n" + credentials)
    }

    static let gitRoutes = """
        [[credential]]
        url = "https://git.test/org"
        account = "work/0000a001"

        [[credential]]
        url = "https://git.test/hanako"
        account = "work/0000a003"

        [[credential]]
        url = "https://git.test/mfa"
        account = "work/0000a005"
        """

    /// git's request for a routed URL gets the account's token as the password and its expiry,
    /// with no request while the token is good; an expired one is renewed over the given
    /// network first, and the rotated refresh token is in the store.
    @Test func gitCredentialAnswersWithTheRoutedToken() async throws {
        let store = try seam.seed()
        let fixture = DeckFixture(now: seam.clock.now())
        let http = ScriptedHTTPClient()
        http.on("POST", SeamHome.workTokenURL) { _ in ScriptedHTTPClient.json(200, CommandNetworkSeamTests.renewed) }
        let config = try config(Self.gitRoutes)
        let valid = CapturedOutput()
        try await GitCredentialCommand.parse(["get"]).run(in: seam.context(valid, http: http, config: config,
                                                                          stdin: "protocol=https\nhost=git.test\npath=org/repo.git\n\n"))
        let expiry = try #require(fixture.accounts[0].credentials.accessTokens.first?.expiresAt)
        #expect(valid.out == "username=taro@contoso.com\npassword=\(fixture.validTokenValue)\npassword_expiry_utc=\(expiry.secondsSinceEpoch)\n",
                "\(valid.out)\(valid.err)")
        #expect(valid.err.isEmpty && http.requests.isEmpty)
        let renewed = CapturedOutput()
        try await GitCredentialCommand.parse(["get"]).run(in: seam.context(renewed, http: http, config: config,
                                                                            stdin: "protocol=https\nhost=git.test\npath=hanako/x.git\n"))
        #expect(renewed.out.hasPrefix("username=hanako@contoso.com\npassword=at-renewed-Zq8\n"), "\(renewed.out)\(renewed.err)")
        #expect(http.requests.count == 1)
        #expect(try store.account(id: "work/0000a003")?.credentials.refreshToken?.value.exposedValue == "rt-renewed-Zq8")
    }

    /// What git must not be given: a URL no entry covers (nothing, so git asks its next
    /// helper), a dot segment, an account that needs a person — nothing on stdout, the reason on
    /// stderr, exit 0; `store` and `erase` change nothing; another operation is a usage error.
    @Test func gitCredentialGivesNothingItMustNot() async throws {
        let store = try seam.seed()
        let before = try store.account(id: "work/0000a005")
        let http = ScriptedHTTPClient()
        let config = try config(Self.gitRoutes)
        func get(_ request: String) async throws -> CapturedOutput {
            let output = CapturedOutput()
            try await GitCredentialCommand.parse(["get"]).run(in: seam.context(output, http: http, config: config, stdin: request))
            #expect(output.out.isEmpty, "\(output.out)")
            return output
        }
        #expect(try await get("protocol=https\nhost=elsewhere.test\npath=org\n").err.isEmpty)
        let climbing = try await get("protocol=https\nhost=git.test\npath=org/%2e%2e/hanako\n")
        #expect(climbing.err.hasPrefix("authdeck: git-credential for https://git.test/org/%2e%2e/hanako: the path holds a dot segment"), "\(climbing.err)")
        let mfa = try await get("protocol=https\nhost=git.test\npath=mfa\n")
        #expect(mfa.err.hasPrefix("authdeck: git-credential for https://git.test/mfa: "), "\(mfa.err)")
        #expect(mfa.err.contains("sign in"), "\(mfa.err)")
        #expect(try store.account(id: "work/0000a005") == before)
        let erased = CapturedOutput()
        try await GitCredentialCommand.parse(["erase"]).run(in: seam.context(erased, http: http, config: config,
                                                                            stdin: "protocol=https\nhost=git.test\npath=org\npassword=x\n"))
        #expect(erased.out.isEmpty && erased.err.isEmpty)
        #expect(try store.account(id: "work/0000a001") != nil)
        let wrong = await #expect(throws: CLIError.self) {
            try await GitCredentialCommand.parse(["fetch"]).run(in: seam.context(CapturedOutput(), config: config))
        }
        #expect(wrong?.status == ExitStatus.usage)
        #expect(http.requests.isEmpty)
    }

    /// kubectl gets an ExecCredential in the API version `KUBERNETES_EXEC_INFO` asks for, with
    /// the token and its expiry; an expired token is renewed over the given network first.
    @Test func kubeCredentialAnswersAnExecCredential() async throws {
        _ = try seam.seed()
        let fixture = DeckFixture(now: seam.clock.now())
        let http = ScriptedHTTPClient()
        http.on("POST", SeamHome.workTokenURL) { _ in ScriptedHTTPClient.json(200, CommandNetworkSeamTests.renewed) }
        let config = try config("")
        let v1 = CapturedOutput()
        try await KubeCredentialCommand.parse(["work/0000a001"]).run(in: seam.context(v1, http: http, config: config))
        let expiry = try #require(fixture.accounts[0].credentials.accessTokens.first?.expiresAt)
        #expect(v1.out == #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"expirationTimestamp":""#
                + expiry.iso8601 + #"","token":""# + fixture.validTokenValue + "\"}}\n", "\(v1.out)\(v1.err)")
        #expect(http.requests.isEmpty)
        let info = #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":false}}"#
        let beta = CapturedOutput()
        try await KubeCredentialCommand.parse(["hanako@contoso.com"]).run(in: seam.context(beta, http: http, config: config,
                                                                                           variables: ["KUBERNETES_EXEC_INFO": info]))
        let json = try #require(JSONSerialization.jsonObject(with: Data(beta.out.utf8)) as? [String: Any], "\(beta.out)\(beta.err)")
        #expect(json["apiVersion"] as? String == "client.authentication.k8s.io/v1beta1")
        #expect((json["status"] as? [String: Any])?["token"] as? String == "at-renewed-Zq8" && http.requests.count == 1)
    }

    /// Not interactive (kubectl says so), an account that needs a person is exit 3 with the
    /// remedy and no sign-in; a cluster server over plain http is refused before anything is read.
    @Test func kubeCredentialRefusesWithoutAPerson() async throws {
        let store = try seam.seed()
        let before = try store.account(id: "work/0000a005")
        let http = ScriptedHTTPClient()
        let config = try config("")
        let quiet = #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false}}"#
        let output = CapturedOutput()
        var thrown: (any Error)?
        do {
            try await KubeCredentialCommand.parse(["work/0000a005"]).run(in: seam.context(output, http: http, config: config,
                                                                                          variables: ["KUBERNETES_EXEC_INFO": quiet]))
        } catch { thrown = error }
        let reported = try #require(thrown as? any ReportedError, "\(String(describing: thrown))")
        #expect(reported.exitStatus == ExitStatus.needsSignIn && output.out.isEmpty, "\(reported.sentence)")
        #expect(!output.err.contains("Signing in"))
        #expect(try store.account(id: "work/0000a005") == before)
        let plain = #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"cluster":{"server":"http://cluster.test"}}}"#
        let refused = await #expect(throws: CLIError.self) {
            try await KubeCredentialCommand.parse(["work/0000a001"]).run(in: seam.context(CapturedOutput(), http: http, config: config,
                                                                                          variables: ["KUBERNETES_EXEC_INFO": plain]))
        }
        #expect(refused?.message.hasPrefix("kube-credential for http://cluster.test: ") == true, "\(String(describing: refused))")
        #expect(http.requests.isEmpty)
    }

    static let dockerRoutes = """
        [[credential]]
        url = "https://myreg.azurecr.io"
        account = "work/0000a001"

        [[credential]]
        url = "https://registry.test"
        account = "work/0000a001"
        registry = "docker"
        username = "robot"
        """

    /// docker's `get`: an Azure Container Registry's answer is the account's token exchanged
    /// at the registry (over the given network) for a refresh token, with ACR's user; another
    /// registry's is the token itself with the entry's username. `list` names both entries.
    @Test func dockerCredentialAnswersEachRegistry() async throws {
        _ = try seam.seed()
        let fixture = DeckFixture(now: seam.clock.now())
        let http = ScriptedHTTPClient()
        http.on("POST", "https://myreg.azurecr.io/oauth2/exchange") { _ in ScriptedHTTPClient.json(200, #"{"refresh_token":"acr-refresh-Zq8"}"#) }
        let config = try config(Self.dockerRoutes)
        let acr = CapturedOutput()
        try await DockerCredentialCommand.parse(["get"]).run(in: seam.context(acr, http: http, config: config, stdin: "myreg.azurecr.io\n"))
        #expect(acr.out == #"{"Secret":"acr-refresh-Zq8","ServerURL":"myreg.azurecr.io","Username":"00000000-0000-0000-0000-000000000000"}"# + "\n",
                "\(acr.out)\(acr.err)")
        let exchange = try #require(http.requests.first)
        #expect(ScriptedHTTPClient.form(exchange) == ["grant_type": "access_token", "service": "myreg.azurecr.io",
                                                      "access_token": fixture.validTokenValue])
        let plain = CapturedOutput()
        try await DockerCredentialCommand.parse(["get"]).run(in: seam.context(plain, http: http, config: config, stdin: "registry.test"))
        #expect(plain.out == #"{"Secret":""# + fixture.validTokenValue + #"","ServerURL":"registry.test","Username":"robot"}"# + "\n", "\(plain.out)")
        #expect(http.requests.count == 1)
        let list = CapturedOutput()
        try await DockerCredentialCommand.parse(["list"]).run(in: seam.context(list, http: http, config: config))
        #expect(list.out == #"{"myreg.azurecr.io":"00000000-0000-0000-0000-000000000000","registry.test":"robot"}"# + "\n", "\(list.out)")
    }

    /// A registry no entry covers gets docker's own "not found" words and exit 1; the
    /// registry's outage is transient (exit 4) and names the entry's account, no token shown.
    @Test func dockerCredentialSaysWhatItHoldsNot() async throws {
        _ = try seam.seed()
        let http = ScriptedHTTPClient()
        http.on("POST", "https://myreg.azurecr.io/oauth2/exchange") { _ in ScriptedHTTPClient.json(503, "{}") }
        let config = try config(Self.dockerRoutes)
        let missing = CapturedOutput()
        let exit = await #expect(throws: ExitCode.self) {
            try await DockerCredentialCommand.parse(["get"]).run(in: seam.context(missing, http: http, config: config, stdin: "other.test"))
        }
        #expect(exit?.rawValue == 1 && missing.out == "credentials not found in native keychain\n")
        let down = CapturedOutput()
        var thrown: (any Error)?
        do {
            try await DockerCredentialCommand.parse(["get"]).run(in: seam.context(down, http: http, config: config, stdin: "myreg.azurecr.io"))
        } catch { thrown = error }
        let reported = try #require(thrown as? any ReportedError, "\(String(describing: thrown))")
        #expect(reported.exitStatus == ExitStatus.transient && down.out.isEmpty, "\(reported.sentence)")
        #expect(reported.sentence.contains("work/0000a001") && !reported.sentence.contains(DeckFixture(now: seam.clock.now()).validTokenValue),
                "\(reported.sentence)")
    }
}
