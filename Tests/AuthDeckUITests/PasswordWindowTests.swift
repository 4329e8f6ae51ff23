import Testing
import AuthDeckCore
@testable import AuthDeckUI
import AuthDeckLook

/// The deck's password window: what is typed is the password (no key binding applies), only
/// dots are drawn, no description of the state holds it, and Enter or Esc end it.
struct PasswordWindowTests {
    func press(_ s: inout DeckState, _ key: Key) -> [DeckEffect] { DeckReducer.reduce(&s, .key(key)) }

    func asked() -> (DeckState, String) {
        var s = DeckTestState.make(width: 100, height: 30)
        let id = s.selectedRow!.id
        _ = press(&s, .enter)
        _ = DeckReducer.reduce(&s, .passwordPrompt(id: id, account: "corp/alice"))
        return (s, id)
    }

    @Test func everyKeyIsPartOfThePasswordAndOnlyDotsAreDrawn() {
        var (s, id) = asked()
        #expect(s.busy[id] == "signing in")
        for c in "q?d/x" { #expect(press(&s, .char(c)) == []) }
        #expect(!s.quitting, "q is a letter of the password here")
        #expect(press(&s, .backspace) == [])
        let text = DeckRenderer.render(s).text
        #expect(text.contains("Sign in corp/alice") && text.contains("> ••••") && !text.contains("> •••••"), "\(text)")
        #expect(!"\(s)".contains("q?d/"), "the state's description holds no typed character")
        guard case .password(_, _, let typed, _)? = s.modal else { Issue.record("the window closed"); return }
        #expect(press(&s, .enter) == [.answerPassword(id: id, typed.secret)])
        #expect(typed.secret.exposedValue == "q?d/")
        #expect(s.modal == nil && s.message == "Signing in corp/alice…")
    }

    @Test func enterWithNothingTypedWaitsAndEscCancels() {
        var (s, id) = asked()
        #expect(press(&s, .enter) == [])
        #expect(s.modal != nil)
        #expect(press(&s, .escape) == [.cancelSignIn(id: id)])
        #expect(s.modal == nil && s.busy[id] == nil && s.message == "Sign-in of \(s.accountName(id)) cancelled.")
    }

    @Test func theSignInEndingClosesTheWindow() {
        var (s, id) = asked()
        _ = press(&s, .char("x"))
        _ = DeckReducer.reduce(&s, .signInFinished(id: id, failure: DeckReducer.cancelledFailure))
        #expect(s.modal == nil)
        #expect(s.message == "Sign-in of \(s.accountName(id)) cancelled.", "as Esc says it")
    }

    @Test func askedAgainTheWindowSaysWhy() {
        var (s, id) = asked()
        _ = DeckReducer.reduce(&s, .passwordPrompt(id: id, account: "corp/alice", note: "the username or password was not accepted\u{1b}[2J"))
        let text = DeckRenderer.render(s).text
        #expect(text.contains("the username or password was not accepted") && text.contains("Password (not shown):"), "\(text)")
        #expect(!text.contains("\u{1b}"), "server text is inert")
        guard case .password(_, _, let typed, _)? = s.modal else { Issue.record("no window"); return }
        #expect(typed.isEmpty, "a new entry each time")
    }

    @Test func aPasteGoneWrongStopsAtTheLimit() {
        var entry = PasswordEntry()
        for _ in 0..<(PasswordEntry.limit + 10) { entry.type("a") }
        #expect(entry.count == PasswordEntry.limit)
        #expect("\(entry)" == "‹1024 characters›")
    }
}
