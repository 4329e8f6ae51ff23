#if canImport(Glibc)
import Glibc
#endif

/// Where the store and its key file live, resolved from flags, environment and XDG rules.
///
/// Lives in the platform module (no Foundation) because both binaries resolve it: the
/// `authdeck` front serving cached tokens and `authdeck-full`, and they must never disagree.
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

    /// The bytes of the database file and its write-ahead log (0 for what does not exist yet):
    /// how much a read of every account has to go through.
    public var storeBytes: Int {
        var total = 0
        for path in [databasePath, databasePath + "-wal"] {
            var info = stat()
            if stat(path, &info) == 0 { total += Int(info.st_size) }
        }
        return total
    }

    /// The directory holding the database file ("." for a bare file name).
    public var directory: String {
        guard let slash = databasePath.lastIndex(of: "/") else { return "." }
        return slash == databasePath.startIndex ? "/" : String(databasePath[..<slash])
    }
}

/// XDG base directory lookups with the spec's fallbacks.
public enum XDG {
    /// `$HOME`, else the home directory of the user in the password database.
    public static func home(_ env: [String: String]) -> String {
        if let home = env["HOME"], !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
        return "/"
    }

    public static func dataHome(_ env: [String: String]) -> String {
        absolute(env["XDG_DATA_HOME"]) ?? home(env) + "/.local/share"
    }

    public static func configHome(_ env: [String: String]) -> String {
        absolute(env["XDG_CONFIG_HOME"]) ?? home(env) + "/.config"
    }

    /// config.toml: the `--config` flag, `AUTHDECK_CONFIG`, else `$XDG_CONFIG_HOME/authdeck/config.toml`.
    /// `explicit` is true for a path the user named, which must then exist.
    public static func configFile(flag: String?, environment: [String: String]) -> (path: String, explicit: Bool) {
        if let flag { return (flag, true) }
        if let env = environment["AUTHDECK_CONFIG"], !env.isEmpty { return (env, true) }
        return (configHome(environment) + "/authdeck/config.toml", false)
    }

    /// The spec says relative paths in these variables are invalid and must be ignored.
    static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value
    }
}
