import Foundation
import GRDB
import Crypto
import AuthDeckCore

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
    let pool: DatabasePool
    let box: AESSecretBox
    let clock: any WallClock

    init(location: StoreLocation, warnings: [String], keySource: String, pool: DatabasePool,
         box: AESSecretBox, clock: any WallClock) {
        self.location = location
        self.warnings = warnings
        self.keySource = keySource
        self.pool = pool
        self.box = box
        self.clock = clock
    }

    /// Opens (creating when absent) the store at `location`.
    ///
    /// Refuses, without writing anything, a file that is not an SQLite database, an SQLite
    /// database of another program, a damaged database, and a key file that is missing,
    /// unreadable or does not match.
    public static func open(_ location: StoreLocation, clock: any WallClock) throws -> DeckStore {
        let path = location.databasePath
        var warnings: [String] = []
        func missingKey(_ store: String) -> String {
            "key file is missing, and the store \(store) was sealed with it; restore the file or point AUTHDECK_KEY_FILE at it"
        }
        let dir = (path as NSString).deletingLastPathComponent
        if let w = try FileSafety.ensurePrivateDirectory(dir.isEmpty ? "." : dir) { warnings.append(w) }

        // The key file is checked before the database is opened, so a missing or broken key
        // never leads to the database being touched (not even a WAL checkpoint).
        let keyFile = KeyFile(path: location.keyFilePath)
        var kek: SymmetricKey?
        var keyCreated = false
        switch try StoreFileCheck.inspect(path) {
        case .absent:
            // Key first: a crash between the two leaves a key and no store, never the reverse.
            // Several processes may start on a new store at once: one creates the key and the
            // file, the others use them.
            let (key, created) = try keyFile.createOrRead()
            kek = key
            keyCreated = created
            try FileSafety.createPrivateFile(path, allowExisting: true)
        case .authdeck:
            if let w = FileSafety.looseModeWarning(path) { warnings.append(w) }
            guard keyFile.exists else { throw StoreError.keyFile(path: keyFile.path, detail: missingKey(path)) }
            kek = try keyFile.read()
        case .maybeAuthdeck:
            kek = keyFile.exists ? try keyFile.read() : nil
        }
        if !keyCreated, keyFile.exists, let w = FileSafety.looseModeWarning(keyFile.path) { warnings.append(w) }

        let pool = try openPool(path)
        let wrapped = try pool.read { db in try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'data_key.file'") }
        let dataKey: SymmetricKey
        if let wrapped {
            guard let kek else { throw StoreError.keyFile(path: keyFile.path, detail: missingKey(path)) }
            do {
                let raw = try AESSecretBox(key: kek).open(Array(wrapped), context: "authdeck/v1/meta/data_key/file")
                dataKey = SymmetricKey(data: raw)
            } catch {
                throw StoreError.keyMismatch(keyPath: keyFile.path, storePath: path)
            }
        } else {
            if kek == nil { keyCreated = true }
            let wrappingKey = try kek ?? keyFile.create()
            let fresh = SymmetricKey(size: .bits256)
            let raw = fresh.withUnsafeBytes { Array($0) }
            let sealed = try AESSecretBox(key: wrappingKey).seal(raw, context: "authdeck/v1/meta/data_key/file")
            let now = clock.now()
            // Checked again inside the write: another process opening the new store at the same
            // moment may have stored its data key first, and then that one is used.
            let stored = try pool.write { db -> Data in
                if let first = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'data_key.file'") { return first }
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('data_key.file', ?)", arguments: [Data(sealed)])
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('key_source', 'file')")
                try DeckStore.insertEvent(DeckEvent(at: now, kind: .keyCreated,
                    detail: keyCreated ? "new key file \(keyFile.path)" : "data key wrapped with existing key file \(keyFile.path)"), db)
                return Data(sealed)
            }
            do {
                dataKey = SymmetricKey(data: try AESSecretBox(key: wrappingKey).open(Array(stored), context: "authdeck/v1/meta/data_key/file"))
            } catch {
                throw StoreError.keyMismatch(keyPath: keyFile.path, storePath: path)
            }
        }
        return DeckStore(location: location, warnings: warnings, keySource: "key file \(keyFile.path)",
                         pool: pool, box: AESSecretBox(key: dataKey), clock: clock)
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
                throw StoreError.unreadable(path: path, detail: error.message ?? "\(error.resultCode)")
            }
        }
    }

    static func openPoolOnce(_ path: String) throws -> DatabasePool {
        var config = Configuration()
        config.busyMode = .timeout(15)
        config.foreignKeysEnabled = true
        config.label = "authdeck"
        let pool = try DatabasePool(path: path, configuration: config)
        // An existing store is checked with reads only: a write transaction per command
        // would cost time on the hot `token` path and contend for the lock with renewals.
        let ready = try pool.read { db in
            try Int32.fetchOne(db, sql: "PRAGMA application_id") == Schema.applicationID
                && Schema.migrator.hasCompletedMigrations(db)
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
        return pool
    }

    /// Runs `body` in one write transaction; for callers composing several changes.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.write { db in try body(db) }
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

    static func inspect(_ path: String) throws -> StoreFileCheck {
        guard FileManager.default.fileExists(atPath: path) else { return .absent }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError.unreadable(path: path, detail: "permission denied")
        }
        defer { try? handle.close() }
        let header = Array((try? handle.read(upToCount: 100)) ?? Data())
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
