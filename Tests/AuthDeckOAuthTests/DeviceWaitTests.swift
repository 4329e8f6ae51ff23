import Testing
import AuthDeckCore
import AuthDeckOAuth

/// `--timeout` is waited at least in full: the clock is whole seconds, up to one behind.
struct DeviceWaitTests {
    @Test func theWaitLastsAtLeastTheTimeout() {
        let start = Instant(secondsSinceEpoch: 1_800_000_000)
        let wait = DeviceWait(timeout: .seconds(4), now: start)
        // The real start may be 0.99 s after `start`: at start + 4 only 3.01 s may have passed.
        #expect((try? wait.check(now: start + .seconds(4))) != nil, "not before the timeout")
        #expect(throws: AuthFailure.self) { try wait.check(now: start + .seconds(5)) }
        #expect(wait.nap(30, now: start) == 5)
        #expect(DeviceWait(timeout: nil, now: start).nap(30, now: start) == 30)
    }
}
