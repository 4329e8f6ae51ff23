/// Lets at most `limit` pieces of work run at once; the rest wait their turn in order.
///
/// `R` on a deck of hundreds of expiring accounts must not open hundreds of connections to
/// one provider at the same moment (and trip its rate limits); the gate bounds it.
public actor ConcurrencyGate {
    public let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(limit: Int) {
        precondition(limit > 0, "a gate needs room for at least one")
        self.limit = limit
    }

    /// Runs `work` once a place is free.
    public func run<T: Sendable>(_ work: @Sendable () async -> T) async -> T {
        if running < limit {
            running += 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        defer {
            // Hand the place straight to the next in line, or give it back.
            if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
        }
        return await work()
    }
}
