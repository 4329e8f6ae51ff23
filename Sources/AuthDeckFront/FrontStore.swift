#if canImport(Glibc)
import Glibc
#endif
import Crypto
import AuthDeckCore
import AuthDeckPlatform
import AuthDeckVault
import AuthDeckSQLite

/// The store as the front may read it: file-sealed, owner-only files, sidecars claimed, and
/// the config file's identity taken first; and, inside a read transaction, the data key and
/// the sealed meta records believed for that config file.
///
/// Why one type: every fast answer (`token`, the helpers, `status --short`) must refuse the
/// same stores — a loose mode, a passphrase or keyring store, a newer schema — and hand them
/// to `authdeck-full`, which warns or asks.
struct FrontStore {
    let db: SQLiteConnection
    let wrappingKey: SymmetricKey
    let configIdentity: String

    /// The store at the paths `environment` names, nil when the front must hand over.
    static func open(environment: [String: String]) -> FrontStore? {
        // Without HOME the paths come from the password database, which a statically linked
        // front reads through glibc's NSS modules of the build machine: authdeck-full decides.
        guard environment["HOME"]?.isEmpty == false else { return nil }
        let location = StoreLocation.resolve(storeFlag: nil, environment: environment)
        let config = XDG.configFile(flag: nil, environment: environment)
        guard let configIdentity = ConfigFileIdentity.of(path: config.path),
              // A file named by AUTHDECK_CONFIG must exist: authdeck-full says so when it does not.
              !(config.explicit && configIdentity.hasPrefix("absent ")),
              // The records below were derived from the config file: one that others can write
              // now (or in a directory they can write) is authdeck-full's to refuse, by name.
              configIdentity.hasPrefix("absent ") || TrustedPath.problem(config.path, home: environment["HOME"]) == nil,
              ownerOnly(location.directory, directory: true),
              ownerOnly(location.databasePath), ownerOnly(location.keyFilePath),
              // SQLite would use a -wal, -shm or -journal that another user put beside the store:
              // they are claimed (created exclusively, or found private and the user's) first.
              StoreSidecars.claim(location.databasePath) == nil,
              let wrappingKey = readKeyFile(location.keyFilePath),
              // "./": a relative name starting with "file:" is a file, never an SQLite URI.
              let db = try? SQLiteConnection(path: location.databasePath.hasPrefix("/") ? location.databasePath : "./" + location.databasePath)
        else { return nil }
        return FrontStore(db: db, wrappingKey: wrappingKey, configIdentity: configIdentity)
    }

    /// The data key and the meta rows named by `keys`, read inside the caller's transaction.
    struct Snapshot {
        let dataKey: SymmetricKey
        let meta: [String: [UInt8]]
        let configIdentity: String

        /// A record authdeck-full wrote when it last read the config, believed only when it
        /// names this very file and its seal opens.
        func believed<R: SealedMetaRecord>(_: R.Type) -> R? {
            guard let record = meta[R.metaKey].map({ String(decoding: $0, as: UTF8.self) }).flatMap(R.init(encoded:)),
                  record.configIdentity == configIdentity,
                  let seal = meta[R.sealKey], SealedValue.open(seal, key: dataKey, context: record.sealingContext) != nil else { return nil }
            return record
        }
    }

    /// The snapshot of a store whose schema version this code knows and whose data key opens under
    /// the key file; nil otherwise. `keys` are the meta keys of the records wanted.
    func snapshot(records keys: [String]) throws -> Snapshot? {
        // A store migrated by a newer authdeck: its columns may mean something else; an older
        // or unstamped one is authdeck-full's to migrate (`StoreLayout.schemaVersion`).
        let version = try db.statement("PRAGMA user_version")
        guard try version.next(), version.int64(0) == Int64(StoreLayout.schemaVersion) else { return nil }
        let wanted = [StoreLayout.keySourceKey, StoreLayout.dataKeyKey("file")] + keys
        var meta: [String: [UInt8]] = [:]
        let metaRows = try db.statement("SELECT key, value FROM meta WHERE key IN (" + wanted.map { _ in "?" }.joined(separator: ", ") + ")",
                                        wanted.map { .text($0) })
        while try metaRows.next() { meta[metaRows.string(0)] = metaRows.bytes(1) }
        guard (meta[StoreLayout.keySourceKey].map { String(decoding: $0, as: UTF8.self) } ?? "file") == "file",
              let wrapped = meta[StoreLayout.dataKeyKey("file")],
              let rawDataKey = SealedValue.open(wrapped, key: wrappingKey, context: SealingContext.dataKey(source: "file")) else { return nil }
        return Snapshot(dataKey: SymmetricKey(data: rawDataKey), meta: meta, configIdentity: configIdentity)
    }

    /// The key of a key file (`KeyFileFormat`), nil when it is not one.
    static func readKeyFile(_ path: String) -> SymmetricKey? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0, case .success(let raw) = KeyFileFormat.parse(Array(buffer[..<n])) else { return nil }
        return SymmetricKey(data: raw)
    }

    /// Whether `path` is yours and no one else can read or write it: a directory, or a regular
    /// file seen with `lstat` (no link, FIFO or device). `authdeck-full` refuses or warns otherwise.
    static func ownerOnly(_ path: String, directory: Bool = false) -> Bool {
        var st = stat()
        guard (directory ? stat(path, &st) : lstat(path, &st)) == 0, (st.st_mode & 0o077) == 0, st.st_uid == geteuid() else { return false }
        return (st.st_mode & S_IFMT) == (directory ? S_IFDIR : S_IFREG)
    }
}
