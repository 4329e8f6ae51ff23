/// Waiting between polls, injectable so flow tests need not wait in real time.
public protocol Sleeper: Sendable {
    func sleep(seconds: Double) async throws
}

/// Sleeps for real (cancellable).
public struct TaskSleeper: Sleeper {
    public init() {}
    public func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }
}
