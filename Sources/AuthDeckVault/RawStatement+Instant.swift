import AuthDeckCore
import AuthDeckSQLite

extension RawStatement {
    /// An integer column of seconds since the epoch (the epoch for NULL).
    public func instant(_ index: Int32) -> Instant { Instant(secondsSinceEpoch: int64(index)) }

    /// An integer column of seconds since the epoch, nil for NULL.
    public func optionalInstant(_ index: Int32) -> Instant? { optionalInt64(index).map(Instant.init(secondsSinceEpoch:)) }

    /// A text column of space-separated words (scopes).
    func words(_ index: Int32) -> [String] { string(index).split(separator: " ").map(String.init) }
}
