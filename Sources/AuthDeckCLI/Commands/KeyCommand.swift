import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckStore

/// `authdeck key`: which source holds the key that unlocks the store, and moving it.
struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "Show or change where the store's key comes from (key file, passphrase, Secret Service).",
        subcommands: [KeyMigrateCommand.self])
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
        let context = DeckContext(global)
        let store = try context.openStore()
        let result = try store.migrateKey(to: to, keys: context.keySources(newPassphraseFile: passphraseFile))
        if json {
            try Output.json(MigrationJSON(from: result.from.rawValue, to: result.to.rawValue, key_source: result.source, notes: result.notes))
            return
        }
        guard result.from != result.to || result.to == .passphrase else {
            // The "already sealed" note says the same as this line.
            Output.raw("Key source unchanged: \(result.source).\n")
            return
        }
        var out = "Data key re-wrapped: \(result.from.rawValue) → \(result.to.rawValue). Key source: \(result.source).\n"
        if result.to == .passphrase {
            out += "Every command now asks for the passphrase; scripts set AUTHDECK_PASSPHRASE_FILE.\n"
        }
        Output.raw(out)
        for note in result.notes { Output.note(note) }
    }
}
