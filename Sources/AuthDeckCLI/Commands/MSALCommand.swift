import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckProviders
import AuthDeckApp

/// `authdeck msal`: a doctor for other tools' MSAL token caches (Azure CLI's first).
struct MSALCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "msal", abstract: "Inspect and repair MSAL token caches (Azure CLI's msal_token_cache.json).",
        subcommands: [MSALInspectCommand.self, MSALPruneCommand.self])

    static func defaultPath(_ environment: [String: String]) -> String {
        (environment["HOME"] ?? NSHomeDirectory()) + "/.azure/msal_token_cache.json"
    }
}

/// The JSON shape of one cache account entry (`msal inspect --json`, `msal prune --json`).
struct MSALEntryJSON: Encodable {
    struct Token: Encodable {
        var target: String
        var expires_at: String?
    }
    var username: String
    var home_account_id: String
    var environment: String
    var realm: String
    var refresh_token: Bool
    var refresh_token_modified: [String]
    var access_tokens: [Token]
    var claims: [String: String]
    var verdicts: [String]

    init(_ e: MSALCache.Entry) {
        username = e.username
        home_account_id = e.homeAccountId
        environment = e.environment
        realm = e.realm
        refresh_token = !e.refreshTokenKeys.isEmpty
        refresh_token_modified = e.refreshTokenModified.compactMap { Int64($0).map { Instant(secondsSinceEpoch: $0).iso8601 } }
        access_tokens = e.accessTokens.map { Token(target: $0.target, expires_at: $0.expiresOn.map { Instant(secondsSinceEpoch: $0).iso8601 }) }
        claims = e.claims
        verdicts = e.verdicts.map(\.rawValue)
    }
}

struct MSALInspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect", abstract: "List the cache's accounts, their tokens, and what is wrong with them.")

    @Argument(help: "The cache file (default ~/.azure/msal_token_cache.json; - reads standard input).") var file: String?
    @Option(name: .long, help: "The tenant accounts should belong to (flags the others).") var tenant: String?
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
        try await run(in: DeckContext(storeFlag: nil, configFlag: nil))
    }

    /// The command with its ports given (`DeckContext`: the environment's HOME names the
    /// default cache, the clock says what has expired): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let cache: MSALCache
        if file == "-" {
            let data = context.input.readToEnd()
            guard data.count <= MSALCacheFile.maxBytes else { throw CLIError.failure("standard input: more than 16 MiB; not a token cache") }
            do { cache = try MSALCache(bytes: Array(data)) } catch let e as MSALCache.FormatError { throw CLIError.failure("standard input: \(e.description)") }
        } else {
            do { cache = try MSALCacheFile(path: file ?? MSALCommand.defaultPath(context.environment)).read() } catch let e as MSALCacheFile.FileError {
                throw CLIError.failure(e.description)
            }
        }
        let entries = cache.entries(tenant: tenant)
        if json { return try context.output.json(entries.map(MSALEntryJSON.init)) }
        if entries.isEmpty { return context.output.raw("The cache holds no accounts.\n") }
        let now = context.clock.now()
        var table = TablePrinter("USERNAME", "HOME ACCOUNT", "REALM", "REFRESH", "ACCESS TOKENS", "VERDICT")
        for e in entries {
            let tokens = e.accessTokens.map { t in
                "\(t.target.split(separator: " ").first ?? "") \(ExpiryText.describe(t.expiresOn.map { Instant(secondsSinceEpoch: $0) }, now: now))"
            }.joined(separator: "; ")
            table.add([e.username.isEmpty ? "(none)" : e.username, e.homeAccountId, e.realm, e.refreshTokenKeys.isEmpty ? "no" : "yes",
                       tokens.isEmpty ? "-" : tokens, e.verdicts.isEmpty ? "ok" : e.verdicts.map(\.rawValue).joined(separator: ", ")])
        }
        context.output.raw(table.render())
    }
}

struct MSALPruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove accounts from an MSAL cache (default: those with no refresh token).",
        discussion: """
            With no selection flags, only accounts without a refresh token are removed (the \
            half-finished sign-ins that break silent sign-in). --keep USER removes every account \
            except those users (username or home account id); --tenant T removes the accounts of \
            other tenants (per realm); --reason R adds the accounts with that verdict. A backup is \
            written beside the file, and the cache lock is held as MSAL's extensions hold it.
            """)

    @Argument(help: "The cache file (default ~/.azure/msal_token_cache.json).") var file: String?
    @Option(name: .long, parsing: .singleValue, help: "Keep only these users (repeatable).") var keep: [String] = []
    @Option(name: .long, help: "Remove the accounts of every other tenant.") var tenant: String?
    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Also remove accounts with this verdict (repeatable): \(MSALCache.Verdict.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "reason"))
    var reason: [String] = []
    @Flag(name: .long, help: "Show what would be removed; change nothing.") var dryRun = false
    @Option(name: .long, help: "How long to wait for another process's cache lock.") var lockTimeout = "30s"
    @Flag(name: .long, help: "Print JSON.") var json = false

    struct ResultJSON: Encodable {
        var dry_run: Bool
        var removed_accounts: [MSALEntryJSON]
        var removed_entries: [String: [String]]
        var backup: String?
    }

    func validate() throws {
        if let bad = reason.first(where: { MSALCache.Verdict(rawValue: $0) == nil }) {
            throw ValidationError("unknown --reason \"\(bad)\"; one of \(MSALCache.Verdict.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if TimeSpan(parsing: lockTimeout) == nil { throw ValidationError("--lock-timeout \"\(lockTimeout)\" is not a duration") }
    }

    func run() async throws {
        try await run(in: DeckContext(storeFlag: nil, configFlag: nil))
    }

    /// The command with its ports given (`DeckContext`: the environment's HOME names the
    /// default cache, the clock says what has expired): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let cacheFile = MSALCacheFile(path: file ?? MSALCommand.defaultPath(context.environment))
        let pruning = MSALCachePruning(keep: keep, tenant: tenant, reasons: Set(reason.compactMap(MSALCache.Verdict.init(rawValue:))))
        let now = context.clock.now()
        do {
            let result = try pruning.run(cacheFile, lockTimeout: Double(TimeSpan(parsing: lockTimeout)!.seconds), now: now, dryRun: dryRun)
            let backup = result.backup
            if json {
                return try context.output.json(ResultJSON(dry_run: dryRun, removed_accounts: result.accounts.map(MSALEntryJSON.init),
                                                          removed_entries: result.entries, backup: backup))
            }
            if result.accounts.isEmpty { return context.output.raw("Nothing to remove from \(cacheFile.path).\n") }
            var table = TablePrinter("USERNAME", "HOME ACCOUNT", "REALM", "WHY")
            for e in result.accounts {
                table.add([e.username, e.homeAccountId, e.realm, e.verdicts.isEmpty ? "not kept" : e.verdicts.map(\.rawValue).joined(separator: ", ")])
            }
            let counts = result.entries.sorted { $0.key < $1.key }.map { "\($0.value.count) \($0.key)" }.joined(separator: ", ")
            context.output.raw(table.render() + (dryRun ? "\nWould remove \(counts) (dry run; nothing changed).\n"
                                                         : "\nRemoved \(counts). Backup: \(backup ?? "-")\n"))
        } catch let e as MSALCacheFile.FileError {
            throw CLIError.failure(e.description)
        }
    }
}
