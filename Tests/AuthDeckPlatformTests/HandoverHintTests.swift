import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import AuthDeckPlatform

/// The front's hint to authdeck-full: set by one, taken (and removed) by the other.
@Suite(.serialized) struct HandoverHintTests {
    @Test func aHintIsTakenOnceAndOnlyItsOwnValueCounts() {
        HandoverHint.markRenewalDue()
        #expect(String(cString: getenv(HandoverHint.variable)) == "renewal-due")
        #expect(HandoverHint.takeRenewalDue())
        #expect(getenv(HandoverHint.variable) == nil, "taken out of the environment: no child inherits it")
        #expect(!HandoverHint.takeRenewalDue())
        setenv(HandoverHint.variable, "something-else", 1)
        #expect(!HandoverHint.takeRenewalDue())
        #expect(getenv(HandoverHint.variable) == nil)
    }
}
