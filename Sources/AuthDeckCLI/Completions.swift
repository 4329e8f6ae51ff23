import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckConfig

/// Shell completion of ACCOUNT and PROVIDER words from the store and the config, as `gh`
/// and `kubectl` complete their own names.
///
/// Runs inside the completion call, so it never prompts, never creates a store, and answers
/// nothing rather than an error: a passphrase store or a broken config completes no words.
enum Completions {
    static let accounts = CompletionKind.custom { words, _, prefix in accountWords(words, prefix: prefix) }
    /// Accounts that hold tokens (`token`, `exec`): not SharePoint's, which hold cookies.
    static let tokenAccounts = CompletionKind.custom { words, _, prefix in accountWords(words, prefix: prefix) { $0 != .sharepoint } }
    /// Accounts that hold cookies (`cookies`): SharePoint's.
    static let cookieAccounts = CompletionKind.custom { words, _, prefix in accountWords(words, prefix: prefix) { $0 == .sharepoint } }
    /// Accounts in the quarantine (`prune --undo`), by id.
    static let quarantined = CompletionKind.custom { words, _, prefix in quarantinedWords(words, prefix: prefix) }
    static let providers = CompletionKind.custom { words, _, prefix in providerWords(words, prefix: prefix) }
    static let pruneReasons = CompletionKind.list(PruneReason.allKeys)
    /// `exec`'s accounts, up to `--`; the command after it is not an account.
    static let execAccounts = CompletionKind.custom { words, index, prefix in
        words.prefix(index).contains("--") ? [] : accountWords(words, prefix: prefix)
    }

    /// Every account's id, and the shortest other name that finds it alone: its username when
    /// no other account has it, else `provider/username` (a bare shared username is ambiguous,
    /// and the command would refuse it). `kinds` keeps the accounts of the providers it accepts.
    static func accountWords(_ words: [String], prefix: String, kinds: ((ProviderKind) -> Bool)? = nil) -> [String] {
        let context = self.context(words)
        guard FileManager.default.fileExists(atPath: context.location.databasePath),
              let store = try? DeckStore.open(context.location, clock: context.clock),
              var rows = try? store.accountRows() else { return [] }
        if let kinds {
            guard let config = try? context.loadConfig() else { return [] }
            rows = rows.filter { row in config.provider(row.providerId).map { kinds($0.kind) } ?? false }
        }
        let all = (try? store.accountRows()) ?? rows
        var users: [String: Int] = [:], qualified: [String: Int] = [:]
        for row in all {
            users[row.username, default: 0] += 1
            qualified["\(row.providerId)/\(row.username)", default: 0] += 1
        }
        var seen = Set<String>()
        var names: [String] = []
        for row in rows {
            names.append(row.id)
            guard !row.username.isEmpty else { continue }
            let full = "\(row.providerId)/\(row.username)"
            if users[row.username] == 1 { names.append(row.username) } else if qualified[full] == 1 { names.append(full) }
        }
        return names.filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }.sorted()
    }

    static func quarantinedWords(_ words: [String], prefix: String) -> [String] {
        let context = self.context(words)
        guard FileManager.default.fileExists(atPath: context.location.databasePath),
              let store = try? DeckStore.open(context.location, clock: context.clock),
              let rows = try? store.accountRows(includeQuarantined: true) else { return [] }
        return rows.filter { $0.quarantinedAt != nil && $0.id.hasPrefix(prefix) }.map(\.id).sorted()
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
