import AuthDeckCore
import Synchronization

/// A clock tests can move forward, safe to share across tasks.
public final class MutableClock: WallClock {
    private let seconds: Mutex<Int64>

    public init(_ start: Instant) { seconds = Mutex(start.secondsSinceEpoch) }

    public func now() -> Instant { Instant(secondsSinceEpoch: seconds.withLock { $0 }) }

    public func advance(_ span: TimeSpan) { seconds.withLock { $0 += span.seconds } }
}
