import Foundation
import GRDB
import AuthDeckSQLite
import AuthDeckVault
import Crypto
import AuthDeckCore
import AuthDeckPlatform

/// authdeck's SQLite store: opening (with every safety check), and the `AccountStore` port.
///
/// Open it once per process with `DeckStore.open`; the value is safe to share between
/// tasks (GRDB's `DatabasePool` serialises writers and lets readers run in parallel).
public final class DeckStore: Sendable {
    public let location: StoreLocation
    /// Problems worth telling the user that do not stop work (loose file modes).
    public let warnings: [String]
    /// Which key source unlocked the data key, for `status` and the TUI header.
    public let keySource: String
    /// The kind of that source, for code that acts on it (`key migrate`).
    public let keyKind: KeySourceKind
    let pool: DatabasePool
    let box: AESSecretBox
    let clock: any WallClock
    /// Renewals' commits, grouped (`commitRenewalInGroup`).
    let commits = RenewalCommits()
    /// Set for a store migrated by a newer authdeck: every write is refused (`newerStore`).
    let readOnly: Bool
    /// Whether this opening created the store file (the caller says where it now is).
    public let created: Bool

    init(location: StoreLocation, warnings: [String], keySource: String, keyKind: KeySourceKind, pool: DatabasePool,
         box: AESSecretBox, clock: any WallClock, readOnly: Bool = false, created: Bool = false) {
        self.readOnly = readOnly
        self.created = created
        self.location = location
        self.warnings = warnings
        self.keySource = keySource
        self.keyKind = keyKind
        self.pool = pool
        self.box = box
        self.clock = clock
    }

    /// Opens (creating when absent) the store at `location`.
    ///
    /// Refuses, without writing anything, a file that is not an SQLite database, an SQLite
    /// database of another program, a damaged database, and a key source that is missing,
    /// unreadable or does not match. A new store is sealed with the key file; `migrateKey`
    /// moves it to another source.
    public static func open(_ location: StoreLocation, clock: any WallClock, keys: KeySources? = nil) throws -> DeckStore {
        let path = location.databasePath
        let keys = keys ?? KeySources(keyFile: KeyFile(path: location.keyFilePath))
        let keyFile = keys.keyFile
        var warnings: [String] = []
        // The same directory the `authdeck` front checks before answering a token.
        if let w = try FileSafety.ensurePrivateDirectory(location.directory) { warnings.append(w) }

        var created: (key: SymmetricKey, created: Bool)?
        var createdFile = false
        var keyFileKey: SymmetricKey?
        let found = try StoreFileCheck.inspect(path)
        // SQLite opens the -wal, -shm and -journal beside the store as they are: one another
        // user put there (in a shared sticky directory) would read or replace the store's pages.
        // They are claimed (created exclusively, or found to be the user's own) before SQLite.
        if let (sidecar, problem) = StoreSidecars.claim(path) { throw StoreError.io(path: sidecar, detail: problem) }
        switch found {
        case .absent:
            // Key first: a crash between the two leaves a key and no store, never the reverse.
            // Several processes may start on a new store at once: one creates the key and the
            // file, the others use them.
            created = try keyFile.createOrRead()
            createdFile = try FileSafety.createPrivateFile(path, allowExisting: true)
            // Checked after creating too: another process may have created it first.
            try FileSafety.requirePrivateFile(path, what: "store")
        case .authdeck:
            try FileSafety.requirePrivateFile(path, what: "store")
            // The key file is read before the database is opened, so a missing or broken key
            // of a file-sealed store never leads to the database being touched (not even a
            // WAL checkpoint). Only when it fails is the source looked up, read-only.
            do {
                keyFileKey = try keyFile.read()
            } catch {
                if (try? peekKeySource(path)) ?? .file == .file {
                    guard keyFile.exists else { throw StoreError.keyFile(path: keyFile.path, detail: KeySources.missingKeyFile(path)) }
                    throw error
                }
            }
        case .maybeAuthdeck:
            try FileSafety.requirePrivateFile(path, what: "store")
            if keyFile.exists, StoreFileCheck.staysEmpty(path) {
                throw StoreError.unreadable(path: path, detail: "the store file is empty (0 bytes), but its key file \(keyFile.path) exists, "
                                            + "so this is not a new store: its contents were lost or truncated; nothing was created — "
                                            + "restore it from a backup, or move both files away to start a new store")
            }
        }

        let pool = try openPool(path)
        let (fetched, resealed, sealed, superseded) = try pool.read { db in
            (try DataKeySealing.fetch(db), try accessTokensResealed(db), try metadataSealed(db), try Schema.migrator.hasBeenSuperseded(db))
        }
        var sealing = fetched
        if sealing == nil {
            let (wrappingKey, keyCreated) = try created ?? keyFile.createOrRead()
            let raw = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
            let fresh = DataKeySealing(kind: .file, sealed: Data(try AESSecretBox(key: wrappingKey).seal(raw, context: DataKeySealing.context(.file))))
            let now = clock.now()
            // Checked again inside the write: another process opening the new store at the same
            // moment may have stored its data key first, and then that one is used.
            sealing = try pool.write { db -> DataKeySealing in
                if let first = try DataKeySealing.fetch(db) { return first }
                // A new data key only for a blank store: one that holds accounts or names a key
                // source lost its key record to an edit (or damage), and a new key would make
                // every sealed value unreadable for good.
                guard try storeIsBlank(db) else {
                    throw StoreError.unreadable(path: path, detail: "its data key record (meta key_source, data_key.*) is missing or names a "
                                                + "key source it does not hold: the store was edited without the key or is damaged; "
                                                + "nothing was changed — restore it from a backup")
                }
                try fresh.save(db)
                try DeckStore.insertEvent(DeckEvent(at: now, kind: .keyCreated,
                    detail: keyCreated ? "new key file \(keyFile.path)" : "data key wrapped with existing key file \(keyFile.path)"), db)
                return fresh
            }
        }
        guard let sealing else { throw StoreError.unreadable(path: path, detail: "the data key vanished while opening") }
        if sealing.kind == .file { try FileSafety.requirePrivateFile(keyFile.path, what: "key file") }
        let wrappingKey = try (sealing.kind == .file ? keyFileKey ?? created?.key : nil) ?? keys.unlockKey(sealing, storePath: path)
        let dataKey = try unwrap(sealing, with: wrappingKey, keys: keys, storePath: path)
        // A newer authdeck's store: its columns may mean something else, so this one reads it
        // (with a warning) and writes nothing, not even the one-time steps below.
        if superseded {
            warnings.append("\(path) was upgraded by a newer authdeck (a migration this version does not know); "
                            + "this version only reads it — use the newer authdeck to change anything")
        } else {
            do {
                if !resealed { try resealAccessTokens(pool, box: AESSecretBox(key: dataKey)) }
                if !sealed { try sealMetadata(pool, box: AESSecretBox(key: dataKey), storePath: path) }
            } catch let error as DatabaseError {
                throw StoreError.database(error, path: path)
            }
        }
        let store = DeckStore(location: location, warnings: warnings, keySource: keys.describe(sealing), keyKind: sealing.kind,
                              pool: pool, box: AESSecretBox(key: dataKey), clock: clock, readOnly: superseded, created: createdFile)
        // A renewal whose commit failed (a full disk) left its new tokens beside the store.
        let rescue = commitRescues(location, store: store)
        guard !rescue.isEmpty else { return store }
        return DeckStore(location: location, warnings: warnings + rescue, keySource: store.keySource, keyKind: store.keyKind,
                         pool: pool, box: store.box, clock: clock, readOnly: superseded, created: createdFile)
    }

    /// Whether the store holds nothing a data key could have sealed: no account, no provider
    /// secret, no key record.
    static func storeIsBlank(_ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: """
            SELECT (SELECT count(*) FROM accounts) + (SELECT count(*) FROM provider_secrets)
                 + (SELECT count(*) FROM meta WHERE key = 'key_source' OR key LIKE 'data_key.%')
            """) == 0
    }

    /// The key source a store names, read through a read-only connection (which never
    /// checkpoints or writes).
    static func peekKeySource(_ path: String) throws -> KeySourceKind {
        var config = Configuration()
        config.readonly = true
        let queue = try DatabaseQueue(path: sqliteName(path), configuration: config)
        let name = try queue.read { db in try String.fetchOne(db, sql: "SELECT CAST(value AS TEXT) FROM meta WHERE key = 'key_source'") }
        return name.flatMap(KeySourceKind.init(rawValue:)) ?? .file
    }

    /// The data key inside `sealing`; a wrapping key that does not open it is named by source.
    static func unwrap(_ sealing: DataKeySealing, with wrappingKey: SymmetricKey, keys: KeySources, storePath: String) throws -> SymmetricKey {
        do {
            return SymmetricKey(data: try AESSecretBox(key: wrappingKey).open(Array(sealing.sealed), context: DataKeySealing.context(sealing.kind)))
        } catch {
            switch sealing.kind {
            case .file: throw StoreError.keyMismatch(keyPath: keys.keyFile.path, storePath: storePath)
            case .passphrase: throw StoreError.keySource(source: "passphrase", detail: "wrong passphrase for \(storePath)")
            case .keyring:
                throw StoreError.keySource(source: "Secret Service", detail: "the item for \(storePath) does not unlock it (a different or damaged key)")
            }
        }
    }

    /// Opens the database, checks it is authdeck's and migrates it. Several processes may do
    /// this at once on a new store; SQLite answers "database is locked" to some of them while
    /// another switches the file to WAL or migrates it (the busy handler does not cover those
    /// moments), so that answer is retried for up to 15 s instead of failing the command.
    static func openPool(_ path: String) throws -> DatabasePool {
        var attempt = 0
        while true {
            do {
                return try openPoolOnce(path)
            } catch let error as DatabaseError where (error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED) && attempt < 300 {
                attempt += 1
                usleep(useconds_t(min(50, 5 * attempt)) * 1000)
            } catch let error as DatabaseError {
                // Opening writes the -wal and -shm files: on a full disk SQLite says "disk I/O
                // error", which would send the user looking for a broken disk.
                let worded = StoreError.database(error, path: path)
                if case .database(_, ResultCode.SQLITE_FULL.rawValue, _) = worded { throw worded }
                throw StoreError.unreadable(path: path, detail: error.message ?? "\(error.resultCode)")
            }
        }
    }

    /// The name to give SQLite for `path`: SQLite reads a name starting with "file:" as a URI
    /// (with options such as nolock=1, or another file); "./" keeps every path a plain name.
    static func sqliteName(_ path: String) -> String { path.hasPrefix("/") ? path : "./" + path }

    static func openPoolOnce(_ path: String) throws -> DatabasePool {
        let path = sqliteName(path)
        var config = Configuration()
        config.busyMode = .timeout(15)
        config.foreignKeysEnabled = true
        config.label = "authdeck"
        // Reads through a memory map, not read(2) into SQLite's own page cache: a listing reads
        // every page. Writes still use write(2). SQLite's documented cost: an I/O error while
        // reading the map is a signal (SIGBUS), not an error code; nothing is written then.
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 268435456") }
        let pool = try DatabasePool(path: path, configuration: config)
        // An existing store is checked with reads only: a write transaction per command
        // would cost time on the hot `token` path and contend for the lock with renewals.
        let ready = try pool.read { db in
            try Int32.fetchOne(db, sql: "PRAGMA application_id") == Schema.applicationID
                && Schema.migrator.hasCompletedMigrations(db)
                && ((Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0) >= StoreLayout.schemaVersion || Schema.migrator.hasBeenSuperseded(db))
        }
        guard !ready else { return pool }
        try pool.write { db in
            let appID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            if appID != Schema.applicationID {
                let objects = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
                guard appID == 0, objects == 0 else {
                    throw StoreError.notADatabase(path: path, detail: "an SQLite database of another program")
                }
                try db.execute(sql: "PRAGMA application_id = \(Schema.applicationID)")
            }
        }
        do {
            try Schema.migrator.migrate(pool)
        } catch let error as DatabaseError {
            // Another process opening the new store at the same moment is migrating it (its
            // first migration committed between our check and our transaction): wait for it
            // to finish, up to 15 s; its schema is the same one.
            for _ in 0..<750 {
                if try pool.read({ try Schema.migrator.hasCompletedMigrations($0) }) { return pool }
                usleep(20_000)
            }
            throw error
        }
        // A store migrated before the version was stamped (by an authdeck that did not stamp
        // it) gets it now, once; a newer authdeck's store is left as it is.
        try pool.write { db in
            if try !Schema.migrator.hasBeenSuperseded(db), (try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0) < StoreLayout.schemaVersion {
                try Schema.stampVersion(db)
            }
        }
        return pool
    }

    /// Runs `body` in one write transaction; for callers composing several changes.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try refuseIfReadOnly()
        return try worded { try pool.write { db in try body(db) } }
    }

    /// Throws `newerStore` for a store this version may only read.
    func refuseIfReadOnly() throws {
        if readOnly { throw StoreError.newerStore(path: location.databasePath) }
    }

    /// SQLite's count of commits made by other connections to this store's writer connection
    /// (`PRAGMA data_version`): it moves when another process changed the store, never for
    /// this process's own writes. Why: the deck rereads everything only when it must.
    public func dataVersion() throws -> Int {
        try worded { try pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 } }
    }

    /// Runs `body` in one read transaction.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try worded { try pool.read { db in try body(db) } }
    }

    /// Runs `body` on the writer connection outside a transaction (it manages its own).
    func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try refuseIfReadOnly()
        return try worded { try pool.writeWithoutTransaction { db in try body(db) } }
    }

    /// Runs `body`, turning SQLite's own failures into `StoreError.database`, which names the
    /// store file and says what it means for the user (a full disk printed as GRDB's "SQLite
    /// error 13 … while executing `INSERT …`" before).
    func worded<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw StoreError.database(error, path: location.databasePath)
        } catch let failure as SQLiteFailure {
            throw StoreError.database(DatabaseError(failure), path: location.databasePath)
        }
    }
}

/// What is at the store path before authdeck opens it.
enum StoreFileCheck {
    case absent
    case authdeck
    /// An SQLite file with no application id and no schema in its main file: a store whose
    /// first transaction is still in the WAL, or one that was never initialised.
    case maybeAuthdeck

    static let magic = Array("SQLite format 3\0".utf8)

    /// Whether the store at `path` is an empty file with no write-ahead log, and stays so for
    /// two seconds. Why wait: a process creating a new store makes the key, then the empty
    /// file, then its first transaction — another process may look in between.
    static func staysEmpty(_ path: String) -> Bool {
        func empty() -> Bool {
            var st = stat(), wal = stat()
            guard lstat(path, &st) == 0, st.st_size == 0 else { return false }
            return lstat(path + "-wal", &wal) != 0 || wal.st_size == 0
        }
        for _ in 0..<40 {
            guard empty() else { return false }
            usleep(50_000)
        }
        return empty()
    }

    /// What is at `path`; "not a database" only when a second look agrees.
    ///
    /// Why the second look: another process creating the store at this moment writes its first
    /// page with one pwrite, which a read at the same instant can see half written (four
    /// sign-ins at once on a new store: one refused it as "not an SQLite database"). A foreign
    /// file stays what it is, so refusing it costs five more reads and 100 ms; a store being
    /// born is whole by then.
    static func inspect(_ path: String) throws -> StoreFileCheck {
        var looks = 0
        while true {
            do {
                return try inspectOnce(path)
            } catch StoreError.notADatabase where looks < 5 {
                looks += 1
                usleep(20_000)
            }
        }
    }

    /// Looks with `lstat` first and reads through `O_NOFOLLOW`: only a regular file is opened.
    private static func inspectOnce(_ path: String) throws -> StoreFileCheck {
        guard try FileSafety.regularFile(path, what: "store") != nil else { return .absent }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw StoreError.unreadable(path: path, detail: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 100)
        let n = read(fd, &header, header.count)
        header = Array(header.prefix(max(0, n)))
        if header.isEmpty { return .maybeAuthdeck }
        guard header.count >= 72, Array(header[0..<16]) == magic else {
            throw StoreError.notADatabase(path: path, detail: "not an SQLite database")
        }
        func be32(_ at: Int) -> UInt32 { header[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        if Int32(bitPattern: be32(68)) == Schema.applicationID { return .authdeck }
        if be32(68) == 0, be32(40) == 0 { return .maybeAuthdeck }
        throw StoreError.notADatabase(path: path, detail: "an SQLite database of another program")
    }
}
