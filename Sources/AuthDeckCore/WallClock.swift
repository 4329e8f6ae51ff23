/// The port through which components learn the current time.
///
/// Named `WallClock` rather than `Clock` to stay clear of the standard library's
/// `Clock` protocol. Production code injects a system clock; tests inject `FixedClock`.
public protocol WallClock: Sendable {
    /// The current wall-clock time.
    func now() -> Instant
}

/// A clock that always answers the same instant, for deterministic tests and previews.
public struct FixedClock: WallClock {
    public let instant: Instant

    public init(_ instant: Instant) { self.instant = instant }

    public func now() -> Instant { instant }
}
