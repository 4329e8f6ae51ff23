import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckPlatform

/// `authdeck setup-git [URL…]`: writes `credential.<URL>.helper` (and `useHttpPath` for a URL
/// with a path) into the user's git config, for each URL given or each `[[credential]]` entry;
/// idempotent; `--remove` takes authdeck's lines out again and leaves other helpers alone.
struct SetupGitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup-git", abstract: "Make git ask authdeck for the credentials of URL (default: every [[credential]] url).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The URLs (default: the url of every [[credential]] entry).") var urls: [String] = []
    @Flag(name: .long, help: "Remove authdeck from git's config for these URLs instead.") var remove = false
    @Flag(name: .long, help: "Print JSON: the URLs configured (or removed) and the helper git runs.") var json = false

    /// The `--json` answer: what git's config now says for authdeck.
    struct SetupJSON: Encodable {
        /// "configured", or "removed" with --remove.
        var action: String
        var urls: [String]
        /// The `credential.<url>.helper` value written (absent with --remove).
        var helper: String?
        /// The URLs that also got `useHttpPath = true` (a path in the URL).
        var use_http_path: [String]
    }

    /// What identifies authdeck's helper lines among others (a git value pattern).
    static let ours = "authdeck[^ ]* git-credential$"

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        // A registry's entry is docker's: git is never pointed at it.
        // On a machine reached over SSH the routes are the agent's (RemoteMode), not a local config's.
        let targets = urls.isEmpty ? try (RemoteMode.routes(context.environment) ?? context.loadConfig().credentials).filter { !$0.isDockers }.map(\.url)
                                   : urls.map(CredentialRoute.normalized)
        guard !targets.isEmpty else {
            let whose = AgentSocket.forwarded(context.environment).map { "the config of the agent at \($0) (on the machine it runs on)" } ?? context.configPath
            throw CLIError.usage("no URL given and no git [[credential]] entry (one without registry) in \(whose): add one (see authdeck(1), GIT, KUBECTL AND DOCKER)")
        }
        for url in targets {
            guard url.hasPrefix("https://") || url.hasPrefix("http://") else { throw CLIError.usage("\"\(TerminalText.inert(url))\" is not an http(s) URL") }
        }
        let front = Self.frontPath
        let helper = Self.helper(front)
        if !remove, front.contains("/.build/") {
            // A build directory changes and goes away with `swift build` or a clean: say where git
            // will look, and how to keep it working.
            context.output.note("authdeck: git will run \(TerminalText.inert(front)) from a build directory of a checkout; "
                                + "after `scripts/install`, run the installed `authdeck setup-git` again so git uses the installed binary")
        }
        var withPath: [String] = []
        for url in targets {
            let hasPath = url.dropFirst(url.hasPrefix("https://") ? 8 : 7).contains("/")
            if hasPath { withPath.append(url) }
            if remove {
                _ = try Self.git(["config", "--global", "--unset-all", "credential.\(url).helper", Self.ours], okStatuses: [0, 5], environment: context.environment)
                if hasPath { _ = try Self.git(["config", "--global", "--unset-all", "credential.\(url).useHttpPath"], okStatuses: [0, 5], environment: context.environment) }
                if !json { context.output.raw("git no longer asks authdeck for \(TerminalText.inert(url))\n") }
            } else {
                _ = try Self.git(["config", "--global", "--replace-all", "credential.\(url).helper", helper, Self.ours], okStatuses: [0], environment: context.environment)
                if hasPath { _ = try Self.git(["config", "--global", "credential.\(url).useHttpPath", "true"], okStatuses: [0], environment: context.environment) }
                if !json { context.output.raw("git asks authdeck for \(TerminalText.inert(url))\n") }
            }
        }
        if json {
            try context.output.json(SetupJSON(action: remove ? "removed" : "configured", urls: targets, helper: remove ? nil : helper, use_http_path: withPath))
        }
    }

    /// The `authdeck` front beside this binary or in the install's bin/, else this binary
    /// (which serves git-credential as well).
    static var frontPath: String {
        let dir = InstallPaths.binaryDirectory
        for candidate in ["\(dir)/authdeck", "\(dir)/../../bin/authdeck"] where FileManager.default.isExecutableFile(atPath: candidate) {
            return URL(fileURLWithPath: candidate).standardizedFileURL.path
        }
        return CommandLine.arguments[0].hasPrefix("/") ? CommandLine.arguments[0] : dir + "/authdeck-full"
    }

    /// The `credential.helper` value that runs `path git-credential`, as git reads it: git runs
    /// an absolute path through the shell as written, and anything else that does not start
    /// with `!` as `git credential-<value>` — so a quoted path (`'/my tools/authdeck'`) would
    /// never run. A path the shell would split or expand is therefore quoted after a `!`,
    /// which git hands to the shell whole.
    static func helper(_ path: String) -> String {
        let quoted = shellQuoted(path)
        return (quoted == path && path.hasPrefix("/") ? path : "!" + quoted) + " git-credential"
    }

    /// `text` as one word for sh: as it is when nothing in it is special, else in single
    /// quotes (a `'` inside written `'\''`).
    static func shellQuoted(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || "/._-+".contains($0) } ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs git in the command's `environment` (its HOME names the global config written);
    /// a status outside `okStatuses` is an error that quotes git.
    static func git(_ args: [String], okStatuses: [Int32], environment: [String: String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["git"] + args
        p.environment = environment
        let err = Pipe()
        p.standardError = err
        do { try p.run() } catch { throw CLIError.failure("cannot run git: \(error.localizedDescription)") }
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard okStatuses.contains(p.terminationStatus) else {
            throw CLIError.failure("git \(args.joined(separator: " ")) failed (exit \(p.terminationStatus)): \(TerminalText.inert(said.trimmingCharacters(in: .whitespacesAndNewlines)))")
        }
        return p.terminationStatus
    }
}
