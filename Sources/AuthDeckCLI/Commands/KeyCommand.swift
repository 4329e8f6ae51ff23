import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckStore

/// `authdeck key`: which source holds the key that unlocks the store, and moving it.
struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "Show or change where the store's key comes from (key file, passphrase, Secret Service).",
        subcommands: [KeyMigrateCommand.self])

    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Print JSON: the store, its key source, and the key file's path and whether it exists.") var json = false

    /// The `--json` answer of `authdeck key`. `source` and `key_source` are absent when there
    /// is no store yet (the first sign-in or import creates it, sealed with the key file).
    struct KeyJSON: Encodable {
        var store: String
        var store_exists: Bool
        /// file, passphrase or keyring.
        var source: String?
        /// The source as `status` names it (the key file's path, "passphrase", "Secret Service …").
        var key_source: String?
        var key_file: String
        var key_file_exists: Bool
        var warnings: [String]
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// Which key source unlocks the store (opening it, as `status` does, proves the key works),
    /// with the command's ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let store = try context.openStoreIfPresent()
        let keyFile = context.location.keyFilePath
        let answer = KeyJSON(store: context.location.databasePath, store_exists: store != nil, source: store?.keyKind.rawValue,
                             key_source: store?.keySource, key_file: keyFile, key_file_exists: FileManager.default.fileExists(atPath: keyFile),
                             warnings: store?.warnings ?? [])
        if json { return try context.output.json(answer) }
        guard let store else {
            return context.output.raw("No store yet at \(answer.store): the first sign-in or import creates it, sealed with the key file \(keyFile).\n")
        }
        context.output.raw("store:      \(answer.store)\nkey source: \(store.keySource)\n"
                           + (store.keyKind == .file ? "" : "key file:   \(keyFile) (\(answer.key_file_exists ? "present, not used" : "absent"))\n"))
    }
}

extension KeySourceKind: ExpressibleByArgument {}

/// `authdeck key migrate --to keyring|passphrase|file`: re-wraps the data key; nothing else
/// in the store is touched.
struct KeyMigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Seal the store's data key with another key source (nothing is re-encrypted or lost).",
        discussion: """
        file: a 0600 key file (AUTHDECK_KEY_FILE, default $XDG_DATA_HOME/authdeck/key).
        passphrase: scrypt; asked on the terminal, or read from AUTHDECK_PASSPHRASE_FILE (then every
        command needs that variable). --to passphrase on a passphrase store changes the passphrase.
        keyring: the Secret Service of the session bus (GNOME Keyring, KeePassXC…), through libsecret.
        """)

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: ArgumentHelp("The new key source.", valueName: "file|passphrase|keyring")) var to: KeySourceKind
    @Option(name: .long, help: ArgumentHelp("Read the new passphrase from this file (default: AUTHDECK_PASSPHRASE_FILE, else ask).",
                                            valueName: "path"))
    var passphraseFile: String?
    @Flag(name: .long, help: "Print JSON.") var json = false

    struct MigrationJSON: Encodable {
        var from: String
        var to: String
        var key_source: String
        var notes: [String]
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let store = try context.openStore()
        let result = try store.migrateKey(to: to, keys: context.keySources(newPassphraseFile: passphraseFile))
        if json {
            try context.output.json(MigrationJSON(from: result.from.rawValue, to: result.to.rawValue, key_source: result.source, notes: result.notes))
            return
        }
        guard result.from != result.to || result.to == .passphrase else {
            // The "already sealed" note says the same as this line.
            context.output.raw("Key source unchanged: \(result.source).\n")
            return
        }
        var out = "Data key re-wrapped: \(result.from.rawValue) → \(result.to.rawValue). Key source: \(result.source).\n"
        if result.to == .passphrase {
            out += "Every command now asks for the passphrase; scripts set AUTHDECK_PASSPHRASE_FILE.\n"
        }
        context.output.raw(out)
        for note in result.notes { context.output.note(note) }
    }
}
