import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckUI
import AuthDeckTerminal
import AuthDeckPlatform

/// `authdeck deck` — and `authdeck` alone on a terminal: the full-screen deck.
struct DeckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deck", abstract: "Open the full-screen deck (the default on a terminal).")

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: "Start with this theme.") var theme: String?

    func run() async throws {
        try await Self.open(DeckContext(global), theme: theme)
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
        let store = try context.openStore(creating: true)
        let firstRead = FirstRead(store) { try DeckRuntime.load(context: context, store: store, config: config, selected: nil) }
        let noColor = !(context.environment["NO_COLOR"] ?? "").isEmpty || context.environment["TERM"] == "dumb"
        var themes = noColor ? [Theme.monochrome] : ThemeCatalog.load(environment: context.environment)
        if let theme {
            guard let i = themes.firstIndex(where: { $0.name == theme }) else {
                throw CLIError.usage("no theme \"\(theme)\" (themes: \(themes.map(\.name).joined(separator: ", ")))")
            }
            themes.insert(themes.remove(at: i), at: 0)
        }
        let runtime = DeckRuntime(context: context, config: config, store: store, themes: themes, ascii: !TerminalProbe.localeIsUTF8())
        if let signal = runtime.run(screen: CursesScreen(color: !noColor), firstRead: firstRead) {
            throw CLIError.endedBy(signal: signal)
        }
    }
}

/// The themes on offer: the shipped `themes/*.toml` (found beside the binary's checkout or
/// install prefix) and the user's `$XDG_CONFIG_HOME/authdeck/themes/*.toml`, which override a
/// shipped theme of the same name. A broken file is reported and skipped, never fatal.
enum ThemeCatalog {
    static func load(environment: [String: String]) -> [Theme] {
        var byName: [String: Theme] = ["default": .standard, "monochrome": .monochrome]
        var order = ["default"]
        let dirs = InstallLayout.themeDirectories + [XDG.configHome(environment) + "/authdeck/themes"]
        for dir in dirs {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            for file in files.sorted() where file.hasSuffix(".toml") {
                do {
                    let theme = try ThemeLoader.load(dir + "/" + file)
                    if byName[theme.name] == nil || !order.contains(theme.name) { order.append(theme.name) }
                    byName[theme.name] = theme
                } catch {
                    Output.warning("\(error); using the default theme instead")
                }
            }
        }
        if !order.contains("monochrome") { order.append("monochrome") }
        return order.compactMap { byName[$0] }
    }
}
