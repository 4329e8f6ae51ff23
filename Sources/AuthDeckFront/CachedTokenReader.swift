#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Crypto
import AuthDeckCore
import AuthDeckPlatform
import AuthDeckVault

/// Answers `authdeck token ACCOUNT` from the store alone when the answer is certain: a
/// file-sealed store with owner-only files, a config file unchanged since `authdeck-full`
/// last read it, exactly one matching account, and an access token valid beyond the
/// clock-skew margin.
///
/// Anything else — no such token, an ambiguous name, a passphrase or keyring store, a loose
/// file mode (which deserves the full binary's warning), a lock held too long, a schema this
/// code does not know — returns nil, and `authdeck-full` does the whole command from scratch,
/// with its renewal, its errors and its warnings. So this type never prints anything but a
/// token and never decides anything `authdeck-full` would decide differently: account
/// matching and token choice are AuthDeckCore's, the same code the full binary runs.
struct CachedTokenReader {
    let environment: [String: String]

    func token(for query: String) -> String? {
        let location = StoreLocation.resolve(storeFlag: nil, environment: environment)
        let configPath = XDG.configFile(flag: nil, environment: environment).path
        guard let configIdentity = TokenFastPath.configIdentity(path: configPath),
              Self.ownerOnly(location.directory, directory: true),
              Self.ownerOnly(location.databasePath), Self.ownerOnly(location.keyFilePath),
              let wrappingKey = Self.readKeyFile(location.keyFilePath),
              // "./": a relative name starting with "file:" is a file, never an SQLite URI.
              let db = try? SQLiteConnection(path: location.databasePath.hasPrefix("/") ? location.databasePath : "./" + location.databasePath)
        else { return nil }
        return try? answer(query, db: db, wrappingKey: wrappingKey, configIdentity: configIdentity)
    }

    private func answer(_ query: String, db: SQLiteConnection, wrappingKey: SymmetricKey, configIdentity: String) throws -> String? {
        let now = Instant(secondsSinceEpoch: Int64(time(nil)))
        // One read transaction: the key, the account and its tokens from the same snapshot.
        try db.execute("BEGIN")
        defer { try? db.execute("COMMIT") }
        // A store migrated by a newer authdeck: its columns may mean something else.
        var unknownMigrations = false
        try db.query("SELECT identifier FROM grdb_migrations") { row in
            if !StoreLayout.migrations.contains(row[0].text ?? "") { unknownMigrations = true }
        }
        guard !unknownMigrations else { return nil }
        var meta: [String: SQLiteConnection.Value] = [:]
        try db.query("SELECT key, value FROM meta WHERE key IN (?, ?, ?)",
                     [StoreLayout.keySourceKey, StoreLayout.dataKeyKey("file"), TokenFastPath.metaKey]) { row in
            if let key = row[0].text { meta[key] = row[1] }
        }
        guard (meta[StoreLayout.keySourceKey]?.text ?? "file") == "file",
              let record = meta[TokenFastPath.metaKey]?.text.flatMap(TokenFastPath.init(encoded:)),
              record.configIdentity == configIdentity,
              let wrapped = meta[StoreLayout.dataKeyKey("file")]?.bytes,
              let rawDataKey = SealedValue.open(wrapped, key: wrappingKey, context: SealingContext.dataKey(source: "file")) else { return nil }
        let dataKey = SymmetricKey(data: rawDataKey)

        var accounts: [Account] = []
        try db.query("SELECT id, provider_id, subject, username, display_name, created_at, last_used_at FROM accounts WHERE quarantined_at IS NULL ORDER BY provider_id, username, id") { row in
            guard let id = row[0].text, let provider = row[1].text, let subject = row[2].text,
                  let username = row[3].text, let created = row[5].integer else { throw SQLiteConnection.Failure() }
            accounts.append(Account(id: id, providerId: provider, subject: subject, username: username,
                                    displayName: row[4].text ?? "", createdAt: Instant(secondsSinceEpoch: created),
                                    lastUsedAt: row[6].integer.map(Instant.init(secondsSinceEpoch:))))
        }
        guard case .found(let account) = AccountMatcher.resolve(query, in: accounts) else { return nil }

        var tokens: [AccessToken] = []
        var sealed: [String: (value: [UInt8], scopes: String, requested: String?, expires: Int64?)] = [:]
        try db.query("SELECT id, sealed_value, scopes, token_type, obtained_at, expires_at, requested_scopes FROM access_tokens WHERE account_id = ? ORDER BY obtained_at", [account.id]) { row in
            guard let id = row[0].text, let value = row[1].bytes, let scopes = row[2].text,
                  let type = row[3].text, let obtained = row[4].integer else { throw SQLiteConnection.Failure() }
            let requested = row[6].text
            sealed[id] = (value, scopes, requested, row[5].integer)
            tokens.append(AccessToken(id: id, value: .unopened, scopes: scopes.split(separator: " ").map(String.init),
                                      requestedScopes: requested?.split(separator: " ").map(String.init) ?? [],
                                      tokenType: type, obtainedAt: Instant(secondsSinceEpoch: obtained),
                                      expiresAt: row[5].integer.map(Instant.init(secondsSinceEpoch:))))
        }
        let credentials = Credentials(accessTokens: tokens)
        guard let token = credentials.usableAccessToken(for: [], at: now, skew: .seconds(record.clockSkewSeconds)),
              let row = sealed[token.id],
              let value = SealedValue.open(row.value, key: dataKey, context: SealingContext.accessToken(
                  token.id, account: account.id, scopes: row.scopes, requested: row.requested, expiresAt: row.expires)) else { return nil }
        if account.lastUsedAt.map({ now - $0 >= .seconds(StoreLayout.lastUsedResolution) }) ?? true {
            // As `DeckStore.touch`; a failure is not the caller's problem.
            try? db.execute(StoreLayout.touchSQL, [String(now.secondsSinceEpoch), account.id])
        }
        return String(decoding: value, as: UTF8.self)
    }

    /// The key of a key file (`KeyFileFormat`), nil when it is not one.
    static func readKeyFile(_ path: String) -> SymmetricKey? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
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
