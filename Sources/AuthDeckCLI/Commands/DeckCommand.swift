import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckUI
import AuthDeckDeck
import AuthDeckTerminal
import AuthDeckPlatform
import AuthDeckLook

/// `authdeck deck` — and `authdeck` alone on a terminal: the full-screen deck.
struct DeckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deck", abstract: "Open the full-screen deck (the default on a terminal).")

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: "Start with this theme.") var theme: String?

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does.
    func run(in context: DeckContext) async throws {
        try await Self.open(context, theme: theme)
    }

    /// The deck itself (what `run` and `FastArguments` both call). Async, as `run` is, so it
    /// runs off the main thread whoever calls it: the deck's loop blocks its thread, and work
    /// the runtime hands to the main queue must still run.
    static func open(_ context: DeckContext, theme: String?) async throws {
        guard TerminalProbe.isInteractive else {
            throw CLIError.usage("the deck needs a terminal; use `authdeck status` or `authdeck accounts` in scripts")
        }
        // The first read's heap, faulted in on the other core meanwhile (see `prefault`); the
        // read takes about twice the store file's size.
        MallocTuning.prefault(min(2 * context.location.storeBytes, 32 << 20))
        let config = try context.loadConfig()
        let noColor = !(context.environment["NO_COLOR"] ?? "").isEmpty || context.environment["TERM"] == "dumb"
        let catalog = noColor ? ThemeCatalog(themes: [Theme.monochrome], problems: []) : ThemeCatalog.load(environment: context.environment)
        var themes = catalog.themes
        if let theme {
            guard let i = themes.firstIndex(where: { $0.name == theme }) else {
                // A theme whose file is broken is named with its error, not as missing.
                let broken = catalog.problems.first { $0.file.hasSuffix("/\(theme).toml") }
                throw CLIError.usage(broken.map { "theme \"\(theme)\" cannot be used: \($0.problem)" }
                    ?? "no theme \"\(theme)\" (themes: \(themes.map(\.name).joined(separator: ", ")))")
            }
            themes.insert(themes.remove(at: i), at: 0)
        }
        // After the theme is known good: a mistyped --theme creates no store.
        let store = try context.openStore(creating: true)
        let firstRead = FirstRead(store) { try DeckWork.load(store: store, config: config, now: context.clock.now(), selected: nil) }
        let (wiring, environment, note, ascii, output) = (context.wiring(store), context.environment, catalog.note, !TerminalProbe.localeIsUTF8(),
                                                   context.output)
        let signal = await MainActor.run { [themes] in
            let runtime = DeckRuntime(wiring: wiring, config: config, environment: environment, themes: themes,
                                      ascii: ascii, servesAgent: true, notify: { output.stderr($0) })
            if let note { runtime.state.message = note }
            return runtime.run(screen: CursesScreen(color: !noColor), firstRead: firstRead)
        }
        if let signal { throw CLIError.endedBy(signal: signal) }
    }
}

/// The themes on offer: the shipped `themes/*.toml` (found beside the binary's checkout or
/// install prefix) and the user's `$XDG_CONFIG_HOME/authdeck/themes/*.toml`, which override a
/// shipped theme of the same name. A broken file is left out and named, never fatal.
///
/// Why the problems are returned, not printed: a warning printed as the deck opened went
/// behind the alternate screen, so a broken theme silently vanished from `t`; the deck says
/// it on its status line instead.
struct ThemeCatalog {
    /// A theme file left out, and why.
    struct Problem {
        let file: String
        let problem: String
    }

    let themes: [Theme]
    let problems: [Problem]

    /// What the deck's status line says of the files left out, if any.
    var note: String? {
        guard let first = problems.first else { return nil }
        let more = problems.count > 1 ? " (and \(problems.count - 1) more theme file\(problems.count == 2 ? "" : "s"))" : ""
        return "Theme left out of t: \(first.problem)\(more)."
    }

    static func load(environment: [String: String]) -> ThemeCatalog {
        var byName: [String: Theme] = ["default": .standard, "monochrome": .monochrome]
        var order = ["default"]
        var problems: [Problem] = []
        let dirs = InstallLayout.themeDirectories + [XDG.configHome(environment) + "/authdeck/themes"]
        for dir in dirs {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            for file in files.sorted() where file.hasSuffix(".toml") {
                do {
                    let theme = try ThemeLoader.load(dir + "/" + file, home: XDG.home(environment))
                    if byName[theme.name] == nil || !order.contains(theme.name) { order.append(theme.name) }
                    byName[theme.name] = theme
                } catch {
                    // The status line has one row: the file's name, not its whole path.
                    let said = (error as? ConfigError).map { [$0.location, $0.problem].compactMap { $0 }.joined(separator: ": ") } ?? "\(error)"
                    problems.append(Problem(file: dir + "/" + file, problem: TerminalText.inert("\(file): \(said)")))
                }
            }
        }
        if !order.contains("monochrome") { order.append("monochrome") }
        return ThemeCatalog(themes: order.compactMap { byName[$0] }, problems: problems)
    }
}
