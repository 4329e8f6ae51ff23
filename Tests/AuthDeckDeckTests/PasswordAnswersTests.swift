import Testing
import Foundation
import AuthDeckCore
@testable import AuthDeckDeck

/// A sign-in waiting for a password typed into the deck gets it, or nil when it is cancelled
/// before or while it waits — it never waits forever.
struct PasswordAnswersTests {
    @Test func theAnswerReachesTheWaitingSignIn() async {
        let answers = PasswordAnswers()
        let asked = AsyncStream<Void>.makeStream()
        let waiting = Task { await answers.wait(for: "a") { asked.continuation.yield() } }
        for await _ in asked.stream { break }
        answers.answer("a", Secret("pw"))
        #expect(await waiting.value?.exposedValue == "pw")
        // An answer for a sign-in that no longer waits goes nowhere.
        answers.answer("a", Secret("late"))
    }

    @Test func aCancelledSignInStopsWaitingWhenCancelledBeforeOrDuring() async {
        let answers = PasswordAnswers()
        let asked = AsyncStream<Void>.makeStream()
        let during = Task { await answers.wait(for: "b") { asked.continuation.yield() } }
        for await _ in asked.stream { break }
        during.cancel()
        #expect(await during.value == nil)
        let before = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await answers.wait(for: "c") {}
        }
        #expect(await before.value == nil)
    }

    @Test func askingAgainEndsTheOlderWait() async {
        let answers = PasswordAnswers()
        let asked = AsyncStream<Void>.makeStream()
        let first = Task { await answers.wait(for: "d") { asked.continuation.yield() } }
        for await _ in asked.stream { break }
        let second = Task { await answers.wait(for: "d") {} }
        #expect(await first.value == nil)
        answers.answer("d", Secret("x"))
        #expect(await second.value?.exposedValue == "x")
    }
}
