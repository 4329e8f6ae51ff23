import Foundation

/// Where the store and its key file live, resolved from flags, environment and XDG rules.
public struct StoreLocation: Equatable, Sendable {
    public var databasePath: String
    public var keyFilePath: String

    public init(databasePath: String, keyFilePath: String) {
        self.databasePath = databasePath
        self.keyFilePath = keyFilePath
    }

    /// Resolution order: `--store` flag, `AUTHDECK_STORE`, `$XDG_DATA_HOME/authdeck/authdeck.db`,
    /// `~/.local/share/authdeck/authdeck.db`. The key file: `AUTHDECK_KEY_FILE`, else `key`
    /// in the data directory (never beside a `--store` elsewhere, so copying a store file
    /// does not copy its key along).
    public static func resolve(storeFlag: String?, environment: [String: String]) -> StoreLocation {
        let dataDir = XDG.dataHome(environment) + "/authdeck"
        let db = storeFlag ?? environment["AUTHDECK_STORE"].flatMap { $0.isEmpty ? nil : $0 } ?? dataDir + "/authdeck.db"
        let key = environment["AUTHDECK_KEY_FILE"].flatMap { $0.isEmpty ? nil : $0 } ?? dataDir + "/key"
        return StoreLocation(databasePath: db, keyFilePath: key)
    }
}

/// XDG base directory lookups with the spec's fallbacks.
public enum XDG {
    public static func home(_ env: [String: String]) -> String {
        env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    public static func dataHome(_ env: [String: String]) -> String {
        absolute(env["XDG_DATA_HOME"]) ?? home(env) + "/.local/share"
    }

    public static func configHome(_ env: [String: String]) -> String {
        absolute(env["XDG_CONFIG_HOME"]) ?? home(env) + "/.config"
    }

    /// The spec says relative paths in these variables are invalid and must be ignored.
    static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value
    }
}
