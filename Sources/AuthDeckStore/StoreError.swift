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
    /// SQLite refused a read or write of the store: its primary result code and message.
    case database(path: String, code: Int32, message: String)

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
        case .database(let path, let code, let message):
            switch code {
            case 13: return "\(path): the disk is full; nothing was changed (SQLite: \(message))"
            case 8: return "\(path): the store cannot be written (read-only file or directory); nothing was changed (SQLite: \(message))"
            case 5: return "\(path): another authdeck process held the store too long; nothing was changed — try again (SQLite: \(message))"
            case 11, 26: return "\(path): the store is damaged (SQLite: \(message)); restore it from a backup or move it away"
            case 10: return "\(path): cannot read or write the store file (SQLite: \(message))"
            default: return "\(path): \(message) (SQLite error \(code))"
            }
        }
    }
}
