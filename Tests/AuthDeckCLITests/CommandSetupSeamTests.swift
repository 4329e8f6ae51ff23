import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckTestSupport
@testable import AuthDeckCLI

/// `setup-git`, `setup-kube` and `key` run in-process: the real git and kubectl write their
/// configs under the temporary home the context's environment names (never the user's own),
/// and `key` reads and re-seals a real store there.
struct CommandSetupSeamTests {
    let seam = SeamHome()

    /// `git config --global ARGS` as the command's environment sees it; the values, one a line.
    func gitConfig(_ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        p.arguments = ["config", "--global"] + args
        p.environment = seam.environment
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return said
    }

    /// Written for each URL (`useHttpPath` only where the URL has a path), again without a
    /// second line, and taken out by `--remove` — leaving another helper of the same URL alone.
    @Test func setupGitWritesAndRemovesItsHelperLines() async throws {
        _ = try gitConfig(["credential.https://git.test.helper", "other-helper"])
        let helper = SetupGitCommand.helper(SetupGitCommand.frontPath)
        let urls = ["https://git.test/org/repo", "https://git.test"]
        for _ in 0..<2 {
            let output = CapturedOutput()
            try await SetupGitCommand.parse(urls).run(in: seam.context(output))
            #expect(output.out == "git asks authdeck for https://git.test/org/repo\ngit asks authdeck for https://git.test\n", "\(output.out)\(output.err)")
        }
        #expect(try gitConfig(["--get-all", "credential.https://git.test/org/repo.helper"]) == helper + "\n")
        #expect(try gitConfig(["--get-all", "credential.https://git.test/org/repo.useHttpPath"]) == "true\n")
        #expect(try gitConfig(["--get-all", "credential.https://git.test.helper"]) == "other-helper\n\(helper)\n")
        #expect(try gitConfig(["--get-all", "credential.https://git.test.useHttpPath"]).isEmpty)
        let removed = CapturedOutput()
        try await SetupGitCommand.parse(urls + ["--remove", "--json"]).run(in: seam.context(removed))
        let json = try #require(JSONSerialization.jsonObject(with: Data(removed.out.utf8)) as? [String: Any], "\(removed.out)")
        #expect(json["action"] as? String == "removed" && json["urls"] as? [String] == urls && json["helper"] == nil)
        #expect(try gitConfig(["--get-all", "credential.https://git.test/org/repo.helper"]).isEmpty)
        #expect(try gitConfig(["--get-all", "credential.https://git.test.helper"]) == "other-helper\n")
    }

    /// Without URLs, the config's git entries are the targets (a registry's is docker's); with
    /// none, a usage error naming the config; a URL that is not http(s) is refused before git runs.
    @Test func setupGitTakesTheConfigsGitEntries() async throws {
        let config = try seam.config(DeckFixture.configTOML + """

            [[credential]]
            url = "https://git.test/team"
            account = "work"

            [[credential]]
            url = "https://myreg.azurecr.io"
            account = "work"
            """)
        let output = CapturedOutput()
        try await SetupGitCommand.parse([]).run(in: seam.context(output, config: config))
        #expect(output.out == "git asks authdeck for https://git.test/team\n", "\(output.out)")
        #expect(try gitConfig(["--get-regexp", "credential\\..*\\.helper"]) == "credential.https://git.test/team.helper \(SetupGitCommand.helper(SetupGitCommand.frontPath))\n")
        let none = await #expect(throws: CLIError.self) {
            try await SetupGitCommand.parse([]).run(in: seam.context(CapturedOutput(), config: try seam.config(DeckFixture.configTOML)))
        }
        #expect(none?.status == ExitStatus.usage && none?.message.hasPrefix("no URL given and no git [[credential]] entry") == true)
        let notHTTP = await #expect(throws: CLIError.self) {
            try await SetupGitCommand.parse(["ssh://git.test/org"]).run(in: seam.context(CapturedOutput()))
        }
        #expect(notHTTP?.message == "\"ssh://git.test/org\" is not an http(s) URL")
    }

    /// kubectl (when installed) writes the user into the kubeconfig the environment names, its
    /// exec stanza running `kube-credential ACCOUNT --scope S`; without kubectl the stanza is
    /// printed. An argument kubectl would split is refused and nothing is written.
    @Test func setupKubeWritesTheExecUser() async throws {
        let kubeconfig = seam.home.file("kubeconfig")
        let output = CapturedOutput()
        try await SetupKubeCommand.parse(["--user", "ci-user", "work/0000a001", "--scope", "api://cluster/.default"])
            .run(in: seam.context(output, variables: ["KUBECONFIG": kubeconfig]))
        let front = SetupGitCommand.frontPath
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/kubectl") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/kubectl") {
            #expect(output.out == "kubeconfig user ci-user now asks authdeck for work/0000a001's token\n", "\(output.out)")
            let written = try String(contentsOfFile: kubeconfig, encoding: .utf8)
            #expect(written.contains("- name: ci-user") && written.contains("command: \(front)"), "\(written)")
            #expect(written.contains("- kube-credential\n      - work/0000a001\n      - --scope\n      - api://cluster/.default\n"), "\(written)")
            #expect(written.contains("interactiveMode: IfAvailable"))
        } else {
            #expect(output.out.hasPrefix("kubectl is not installed; add this to your kubeconfig:\nusers:\n- name: \"ci-user\"\n"), "\(output.out)")
            #expect(output.out.contains(#"args: ["kube-credential", "work/0000a001", "--scope", "api://cluster/.default"]"#))
        }
        let other = seam.home.file("other-kubeconfig")
        let split = await #expect(throws: CLIError.self) {
            try await SetupKubeCommand.parse(["--user", "u", "work", "--scope", "x,--config,/tmp/evil.toml"])
                .run(in: seam.context(CapturedOutput(), variables: ["KUBECONFIG": other]))
        }
        #expect(split?.message.hasPrefix("setup-kube: --scope \"x,--config,/tmp/evil.toml\" holds a comma") == true)
        #expect(!FileManager.default.fileExists(atPath: other))
    }

    /// `key` before any store says none exists and creates none; after, it names the key file;
    /// `key migrate --to passphrase` re-seals the data key, after which the store opens with the
    /// passphrase and the accounts are all there.
    @Test func keyNamesTheSourceAndMigrateReseals() async throws {
        let empty = CapturedOutput()
        try await KeyCommand.parse([]).run(in: seam.context(empty))
        let location = StoreLocation.resolve(storeFlag: nil, environment: seam.environment)
        #expect(empty.out == "No store yet at \(location.databasePath): the first sign-in or import creates it, sealed with the key file \(location.keyFilePath).\n")
        #expect(!FileManager.default.fileExists(atPath: location.databasePath))
        let accounts = try seam.seed().accountRows(includeQuarantined: true).count
        let json = CapturedOutput()
        try await KeyCommand.parse(["--json"]).run(in: seam.context(json))
        let answer = try #require(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any], "\(json.out)")
        #expect(answer["store_exists"] as? Bool == true && answer["source"] as? String == "file" && answer["key_file_exists"] as? Bool == true)
        let passphrase = seam.home.file("passphrase")
        _ = FileManager.default.createFile(atPath: passphrase, contents: Data("correct horse battery staple\n".utf8), attributes: [.posixPermissions: 0o600])
        let migrated = CapturedOutput()
        try await KeyMigrateCommand.parse(["--to", "passphrase", "--passphrase-file", passphrase]).run(in: seam.context(migrated))
        #expect(migrated.out.hasPrefix("Data key re-wrapped: file → passphrase. Key source: passphrase"), "\(migrated.out)\(migrated.err)")
        let shown = CapturedOutput()
        try await KeyCommand.parse([]).run(in: seam.context(shown, variables: ["AUTHDECK_PASSPHRASE_FILE": passphrase]))
        #expect(shown.out.hasPrefix("store:      \(location.databasePath)\nkey source: passphrase"), "\(shown.out)")
        let reopened = try seam.context(CapturedOutput(), variables: ["AUTHDECK_PASSPHRASE_FILE": passphrase]).openStore()
        #expect(try reopened.accountRows(includeQuarantined: true).count == accounts)
        #expect(try reopened.account(id: "work/0000a001")?.credentials.accessTokens.first?.value.exposedValue
                == DeckFixture(now: seam.clock.now()).validTokenValue)
    }
}
