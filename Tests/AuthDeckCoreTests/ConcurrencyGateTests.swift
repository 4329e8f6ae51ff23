import Testing
import AuthDeckCore

/// The bound on concurrent renewals (`R` in the deck).
@Suite struct ConcurrencyGateTests {
    /// How many pieces run now, the most ever at once, and how many finished.
    actor Tally {
        var now = 0, peak = 0, done = 0
        func enter() { now += 1; peak = max(peak, now) }
        func leave() { now -= 1; done += 1 }
    }

    @Test func neverMoreThanTheLimitAtOnceAndEveryPieceRuns() async {
        let gate = ConcurrencyGate(limit: 3), tally = Tally()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<24 {
                group.addTask {
                    await gate.run {
                        await tally.enter()
                        // Yield a few times so other pieces get a chance to overlap.
                        for _ in 0..<200 { await Task.yield() }
                        await tally.leave()
                    }
                }
            }
        }
        #expect(await tally.done == 24)
        let peak = await tally.peak
        #expect(peak == 3, "the gate let \(peak) run at once")
    }
}
