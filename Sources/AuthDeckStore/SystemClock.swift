import Foundation
import AuthDeckCore

/// The real wall clock, injected at the composition root and nowhere else.
public struct SystemClock: WallClock {
    public init() {}

    public func now() -> Instant {
        Instant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))
    }
}
