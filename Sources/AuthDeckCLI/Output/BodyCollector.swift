import Foundation

/// A response body kept in memory for `request --json`, which prints it inside the JSON
/// answer instead of streaming it to stdout. The request's own cap (1 MiB) bounds it.
// @unchecked: the transfer's thread appends under the lock; the caller reads after the transfer ends.
final class BodyCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []

    /// Appends a chunk; always accepts (the transfer caps the size).
    var write: @Sendable (UnsafeRawBufferPointer) -> Bool {
        { chunk in
            self.lock.withLock { self.bytes.append(contentsOf: chunk) }
            return true
        }
    }

    /// What was received so far.
    var collected: [UInt8] { lock.withLock { bytes } }
}
