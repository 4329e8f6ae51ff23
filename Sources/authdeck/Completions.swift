import ArgumentParser
import Foundation
import AuthDeckStore
import AuthDeckConfig

/// Shell completion of ACCOUNT and PROVIDER words from the store and the config, as `gh`
/// and `kubectl` complete their own names.
///
/// Runs inside the completion call, so it never prompts, never creates a store, and answers
/// nothing rather than an error: a passphrase store or a broken config completes no words.
enum Completions {
    static let accounts = CompletionKind.custom { words, _, prefix in accountWords(words, prefix: prefix) }
    static let providers = CompletionKind.custom { words, _, prefix in providerWords(words, prefix: prefix) }

    static func accountWords(_ words: [String], prefix: String) -> [String] {
        let context = self.context(words)
        guard FileManager.default.fileExists(atPath: context.location.databasePath),
              let store = try? DeckStore.open(context.location, clock: context.clock),
              let rows = try? store.accountRows() else { return [] }
        var seen = Set<String>()
        let names = rows.flatMap { [$0.id, $0.username] }.filter { !$0.isEmpty && seen.insert($0).inserted }
        return names.filter { $0.hasPrefix(prefix) }.sorted()
    }

    static func providerWords(_ words: [String], prefix: String) -> [String] {
        guard let config = try? context(words).loadConfig() else { return [] }
        return config.providers.map(\.id).filter { $0.hasPrefix(prefix) }
    }

    /// The context the completed command line would run with (`--store`, `--config` on it).
    static func context(_ words: [String]) -> DeckContext {
        func value(_ flag: String) -> String? {
            for (i, word) in words.enumerated() {
                if word == flag, i + 1 < words.count { return words[i + 1] }
                if word.hasPrefix(flag + "=") { return String(word.dropFirst(flag.count + 1)) }
            }
            return nil
        }
        return DeckContext(storeFlag: value("--store"), configFlag: value("--config"))
    }
}
