import GRDB
import AuthDeckCore

/// A store failure worded for a person: which file, and what is wrong with it.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    case notADatabase(path: String, detail: String)
    case unreadable(path: String, detail: String)
    case keyFile(path: String, detail: String)
    case keyMismatch(keyPath: String, storePath: String)
    /// A passphrase or Secret Service failure: which source, and what went wrong.
    case keySource(source: String, detail: String)
    case sealedValueRejected(context: String)
    case io(path: String, detail: String)
    case notFound(accountId: String)
    /// An account row whose seal does not match its provider, subject, username or realm (or
    /// one of its credential rows that does not open): edited without the key, so unused.
    case accountTampered(accountId: String)
    /// A store migrated by a newer authdeck: this version reads it and writes nothing.
    case newerStore(path: String)
    /// SQLite refused a read or write of the store: its primary result code and message.
    case database(path: String, code: Int32, message: String)

    /// `database` for an SQLite failure on the store at `path`; SQLite's "disk I/O error" on a
    /// file system with no space left (its failed -wal/-shm write) is called a full disk.
    static func database(_ error: DatabaseError, path: String) -> StoreError {
        let full = error.resultCode == .SQLITE_FULL || (error.resultCode == .SQLITE_IOERR && FileSafety.diskFull(near: path))
        return .database(path: path, code: (full ? ResultCode.SQLITE_FULL : error.resultCode).rawValue,
                         message: error.message ?? "\(error.resultCode)")
    }

    public var description: String {
        switch self {
        case .notADatabase(let path, let detail):
            return "\(path): not an authdeck store (\(detail)); left untouched — move it away or pass --store"
        case .unreadable(let path, let detail):
            return "\(path): cannot read the store: \(detail)"
        case .keyFile(let path, let detail):
            return "\(path): \(detail)"
        case .keyMismatch(let keyPath, let storePath):
            return "\(keyPath): this key does not unlock \(storePath) (a different or damaged key file)"
        case .keySource(let source, let detail):
            return "\(source): \(detail)"
        case .sealedValueRejected(let context):
            return "a sealed value failed authentication (\(context)): the store was tampered with or damaged"
        case .io(let path, let detail):
            return "\(path): \(detail)"
        case .notFound(let accountId):
            return "no account \(accountId)"
        case .accountTampered(let accountId):
            return "\(accountId): its record in the store was changed without the key (its provider, identity, username, realm or "
                + "a credential's binding no longer matches its seal); its credentials are not used — sign it out with "
                + "`authdeck logout \(accountId) --local` and sign in again"
        case .newerStore(let path):
            return "\(path) was upgraded by a newer authdeck; this version only reads it and changed nothing — use the newer authdeck"
        case .database(let path, let code, let message):
            switch ResultCode(rawValue: code) {
            case .SQLITE_FULL: return "\(path): the disk is full; nothing was changed (SQLite: \(message))"
            case .SQLITE_READONLY: return "\(path): the store cannot be written (read-only file or directory); nothing was changed (SQLite: \(message))"
            case .SQLITE_BUSY: return "\(path): another authdeck process held the store too long; nothing was changed — try again (SQLite: \(message))"
            case .SQLITE_CORRUPT, .SQLITE_NOTADB: return "\(path): the store is damaged (SQLite: \(message)); restore it from a backup or move it away"
            case .SQLITE_IOERR: return "\(path): cannot read or write the store file (SQLite: \(message))"
            default: return "\(path): \(message) (SQLite error \(code))"
            }
        }
    }
}

extension StoreError: ReportedError {
    public var sentence: String { description }
    public var exitStatus: Int32 { ExitStatus.failure }
}
