import Foundation
import AuthDeckCore
import AuthDeckPlatform
#if canImport(Glibc)
import Glibc
#endif

/// Renewal rescue files: where a renewal's result goes when its commit fails.
///
/// The file is reserved (created beside the store, mode 0600, its blocks allocated) before the
/// refresh token is spent, so a disk that fills meanwhile cannot stop the new tokens from
/// being kept. They are sealed under the data key (bound to the account) and committed, with
/// the usual generation check, by the next process that opens the store.
extension DeckStore {
    /// Room for one account's credentials, sealed.
    static let rescueBytes: off_t = 256 << 10
    /// A result kept after its commit failed: the next opening commits it.
    static let rescueMagic = Array("ADRESCU1".utf8)
    /// A result written ahead of its commit: the next opening commits it once its process is gone.
    static let rescueAheadMagic = Array("ADRESCA1".utf8)

    public func reserveRenewalRescue(accountId: String) throws -> RenewalRescue {
        // The process in the name (pid and start time) lets the next opening tell one still
        // running, however long stopped, from one killed (`ProcessIdentity`).
        let path = location.databasePath + ".rescue-\(ProcessIdentity.current.text)-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError.io(path: path, detail: "cannot set aside room for the renewal (\(String(cString: strerror(errno)))); "
                                + "the refresh token was not used, nothing was changed")
        }
        defer { close(fd) }
        let rc = posix_fallocate(fd, 0, Self.rescueBytes)
        guard rc == 0 else {
            unlink(path)
            let reason = rc == ENOSPC ? "the disk is full" : String(cString: strerror(rc))
            throw StoreError.io(path: location.databasePath, detail: "\(reason): no room to keep a renewal's result, so the refresh token "
                                + "was not used; nothing was changed — free some space and try again")
        }
        return RenewalRescue(path: path)
    }

    public func keepInRescue(_ rescue: RenewalRescue, credentials: Credentials, accountId: String, expected: RefreshTokenStamp?,
                             event: DeckEvent, durable: Bool) throws {
        var record: [String: Any] = ["account": accountId, "credentials": Self.encode(credentials), "detail": event.detail]
        if let expected {
            record["generation"] = expected.generation
            if let id = expected.id { record["refresh_id"] = id }
        }
        let plain = try JSONSerialization.data(withJSONObject: record)
        let sealed = try box.seal(Array(plain), context: Self.rescueContext(accountId))
        let length = UInt32(sealed.count)
        let bytes = (durable ? Self.rescueMagic : Self.rescueAheadMagic) + withUnsafeBytes(of: length.bigEndian) { Array($0) } + Array(accountId.utf8.count.description.utf8)
            + [0x0a] + Array(accountId.utf8) + sealed
        let fd = Glibc.open(rescue.path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.io(path: rescue.path, detail: String(cString: strerror(errno))) }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count, !durable || fsync(fd) == 0 else {
            throw StoreError.io(path: rescue.path, detail: "cannot write the renewal's result: \(String(cString: strerror(errno)))")
        }
    }

    public func discardRenewalRescue(_ rescue: RenewalRescue) {
        unlink(rescue.path)
    }

    public func commitLeftRescues() {
        _ = Self.commitRescues(location, store: self)
    }

    /// The associated data of a rescue file's contents.
    static func rescueContext(_ accountId: String) -> String { "authdeck/v1/rescue/\(accountId)" }

    /// Commits what rescue files beside the store hold and removes them; returns warnings for
    /// those that cannot be committed yet (the disk still full) and for files no command can use.
    /// A reservation never written is removed once its process is gone.
    static func commitRescues(_ location: StoreLocation, store: DeckStore) -> [String] {
        let path = location.databasePath
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let prefix = (slash.map { String(path[path.index(after: $0)...]) } ?? path) + ".rescue-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "/" : directory) else { return [] }
        var warnings: [String] = []
        for name in names where name.hasPrefix(prefix) {
            let file = (directory.isEmpty ? "" : directory) + "/" + name
            do {
                if let done = try store.commitRescue(file) { unlink(done) }
            } catch let unusable as RescueFileUnusable {
                // Nothing a later try would change: said, and left for the person to remove.
                warnings.append("\(unusable)")
            } catch {
                // (Named by the directory: a file being committed was renamed to claim it.)
                warnings.append("renewed tokens kept in a rescue file in \(directory) could not be saved yet (\(error)); "
                                + "do not delete the files named \(prefix)…: the next command tries again")
            }
        }
        return warnings
    }

    /// Commits one rescue file; returns the file to remove once done, or nil when it is not
    /// this command's (a renewal still running owns it, or another command took it).
    func commitRescue(_ found: String) throws -> String? {
        var file = found
        // A link, directory, FIFO or socket by that name is nothing a later try would change.
        let checked: stat?
        do { checked = try FileSafety.regularFile(file, what: "rescue file") } catch {
            throw RescueFileUnusable(path: file, reason: "\(error)")
        }
        guard let st = checked else { return nil }
        guard st.st_uid == geteuid(), st.st_mode & 0o077 == 0 else {
            throw RescueFileUnusable(path: file, reason: "not a private file of yours, so authdeck does not read it")
        }
        let fd = Glibc.open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.io(path: file, detail: String(cString: strerror(errno))) }
        defer { close(fd) }
        // The magic first: a file of a renewal still running is left unread (renewals in flight
        // look here before each renewal, `commitLeftRescues`, and a reservation is 256 KiB).
        var data = [UInt8](repeating: 0, count: min(Int(st.st_size), 8))
        guard data.withUnsafeMutableBytes({ Glibc.read(fd, $0.baseAddress, $0.count) }) == data.count else {
            throw StoreError.io(path: file, detail: "cannot read it")
        }
        let magic = st.st_size >= 12 ? data : []
        if magic != Self.rescueMagic {
            // Reserved or written ahead: the renewal's process may still be running (however
            // long it was stopped), and it commits or keeps its own result. Once that process is
            // gone (killed) it is this opening's to commit or remove. A name without the start
            // time (written by an older authdeck) counts as gone after ten minutes.
            let owner = file.components(separatedBy: ".rescue-").last?.split(separator: "-").first.flatMap { ProcessIdentity(text: $0) }
            let running = owner.map { $0.isRunning && ($0.startTicks != nil || Int64(time(nil)) - Int64(st.st_mtim.tv_sec) <= 600) } ?? false
            guard !running else { return nil }
            guard magic == Self.rescueAheadMagic else {
                // Reserved, never written (its full size, its first bytes zero): killed before the provider
                // answered. Anything else is no reservation of ours: said, not deleted.
                guard st.st_size == Self.rescueBytes, data.allSatisfy({ $0 == 0 }) else {
                    throw RescueFileUnusable(path: file, reason: "neither a reservation nor a kept renewal")
                }
                return file
            }
        }
        data = [UInt8](repeating: 0, count: Int(st.st_size))
        guard data.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, $0.count, 0) }) == data.count else {
            throw StoreError.io(path: file, detail: "cannot read it")
        }
        let length = Int(data[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        // Lengths checked before any range is made of them: a crafted file stopped every command.
        guard let newline = data[12...].firstIndex(of: 0x0a), let idLength = Int(String(decoding: data[12..<newline], as: UTF8.self)),
              idLength >= 0, idLength <= data.count, newline + 1 + idLength + length <= data.count else {
            throw RescueFileUnusable(path: file, reason: "damaged: its lengths do not fit the file")
        }
        let accountId = String(decoding: data[(newline + 1)..<(newline + 1 + idLength)], as: UTF8.self)
        let sealed = Array(data[(newline + 1 + idLength)..<(newline + 1 + idLength + length)])
        guard let plain = try? box.open(sealed, context: Self.rescueContext(accountId)) else {
            throw RescueFileUnusable(path: file, reason: "its seal does not open with this store's key for the account it names")
        }
        guard let record = (try? JSONSerialization.jsonObject(with: Data(plain))) as? [String: Any],
              record["account"] as? String == accountId, let encoded = record["credentials"] as? [String: Any],
              let credentials = Self.decode(encoded) else {
            throw RescueFileUnusable(path: file, reason: "damaged: its record cannot be read")
        }
        // Claimed before it is committed, by renaming it to this process: of two commands opening
        // the store at once one commits it and the other finds it gone (both committing it wrote
        // a false "not applied" event); should this one die mid-way, the claim names a process
        // that is gone and the next command takes it.
        let claimed = String(file[..<file.range(of: ".rescue-", options: .backwards)!.upperBound])
            + ProcessIdentity.current.text + "-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        guard rename(file, claimed) == 0 else { return nil }
        file = claimed
        // Written ahead of a commit that went through before its process ended: nothing to do.
        if let rotated = credentials.refreshToken, try account(id: accountId)?.credentials.refreshToken == rotated { return file }
        let detail = (record["detail"] as? String ?? "renewed") + " (saved from \(file): its renewal's commit did not finish)"
        let event = DeckEvent(at: clock.now(), kind: .refreshed, accountId: accountId, detail: detail)
        let expected = (record["generation"] as? Int).map { RefreshTokenStamp(generation: $0, id: record["refresh_id"] as? String) }
        if try !commitRenewal(credentials, accountId: accountId, expected: expected, event: event) {
            // The account changed since (another commit of the same renewal, a sign-in): that is newer.
            try? append(DeckEvent(at: clock.now(), kind: .refreshFailed, accountId: accountId,
                                  detail: "a renewal kept in \(file) was not applied: the account changed since"))
        }
        return file
    }

    static func encode(_ c: Credentials) -> [String: Any] {
        func time(_ i: Instant?) -> Any { i.map { NSNumber(value: $0.secondsSinceEpoch) } ?? NSNull() }
        var out: [String: Any] = [
            "access_tokens": c.accessTokens.map { t -> [String: Any] in
                ["id": t.id, "value": t.value.exposedValue, "scopes": t.scopes, "requested": t.requestedScopes,
                 "type": t.tokenType, "obtained": time(t.obtainedAt), "expires": time(t.expiresAt)]
            },
            "claims": c.idTokenClaims,
            "cookies": c.cookies.map { k -> [String: Any] in
                ["id": k.id, "name": k.name, "value": k.value.exposedValue, "domain": k.domain, "path": k.path,
                 "expires": time(k.expiresAt), "secure": k.secure, "http_only": k.httpOnly]
            },
            "extras": c.extras.mapValues { $0.exposedValue },
        ]
        if let r = c.refreshToken {
            out["refresh_token"] = ["id": r.id, "value": r.value.exposedValue, "generation": r.generation,
                                    "obtained": time(r.obtainedAt), "expires": time(r.expiresAt),
                                    "home": r.home.map { $0.encoded as Any } ?? NSNull()] as [String: Any]
        }
        return out
    }

    static func decode(_ o: [String: Any]) -> Credentials? {
        func time(_ v: Any?) -> Instant? { (v as? NSNumber).map { Instant(secondsSinceEpoch: $0.int64Value) } }
        var c = Credentials()
        for t in o["access_tokens"] as? [[String: Any]] ?? [] {
            guard let id = t["id"] as? String, let value = t["value"] as? String, let obtained = time(t["obtained"]) else { return nil }
            c.accessTokens.append(AccessToken(id: id, value: Secret(value), scopes: t["scopes"] as? [String] ?? [],
                                              requestedScopes: t["requested"] as? [String] ?? [], tokenType: t["type"] as? String ?? "Bearer",
                                              obtainedAt: obtained, expiresAt: time(t["expires"])))
        }
        if let r = o["refresh_token"] as? [String: Any] {
            guard let id = r["id"] as? String, let value = r["value"] as? String, let generation = r["generation"] as? Int,
                  let obtained = time(r["obtained"]) else { return nil }
            c.refreshToken = RefreshToken(id: id, value: Secret(value), generation: generation, obtainedAt: obtained, expiresAt: time(r["expires"]),
                                          home: (r["home"] as? String).flatMap(GrantHome.init(encoded:)))
        }
        c.idTokenClaims = o["claims"] as? [String: String] ?? [:]
        for k in o["cookies"] as? [[String: Any]] ?? [] {
            guard let id = k["id"] as? String, let name = k["name"] as? String, let value = k["value"] as? String,
                  let domain = k["domain"] as? String else { return nil }
            c.cookies.append(Cookie(id: id, name: name, value: Secret(value), domain: domain, path: k["path"] as? String ?? "/",
                                    expiresAt: time(k["expires"]), secure: k["secure"] as? Bool ?? true, httpOnly: k["http_only"] as? Bool ?? true))
        }
        c.extras = (o["extras"] as? [String: String] ?? [:]).mapValues { Secret($0) }
        return c
    }
}
