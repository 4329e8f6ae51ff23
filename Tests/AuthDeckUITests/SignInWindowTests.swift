import Testing
import AuthDeckCore
@testable import AuthDeckUI
import AuthDeckLook

/// The deck's sign-in window says whom it signs in, the row says a person is being asked, `q`
/// does what the help bar says, and a long address can be copied whole (issue 31, item 13).
struct SignInWindowTests {
    func press(_ s: inout DeckState, _ key: Key) -> [DeckEffect] { DeckReducer.reduce(&s, .key(key)) }

    func opened(url: String, width: Int = 120, height: Int = 40) -> (DeckState, String) {
        var s = DeckTestState.make(width: width, height: height)
        let id = s.selectedRow!.id
        _ = press(&s, .enter)
        _ = DeckReducer.reduce(&s, .signInPrompt(id: id, .browser(url: url, opened: false)))
        return (s, id)
    }

    @Test func theWindowNamesTheAccountAndTheRowSaysSigningIn() {
        let (s, id) = opened(url: "https://idp.example/authorize")
        #expect(s.busy[id] == "signing in", "not \"renewing\" while a person is asked")
        let text = DeckRenderer.render(s).text
        #expect(text.contains("Sign in \(s.accountName(id)) in your browser"), "\(text)")
        #expect(text.contains("signing in"))
    }

    @Test func aNewAccountsWindowNamesTheProvider() {
        var s = DeckTestState.make(width: 120, height: 40)
        s.busy["new:gl"] = "signing in"
        _ = DeckReducer.reduce(&s, .signInPrompt(id: "new:gl", .deviceCode(userCode: "ABCD-1234", verificationURI: "https://idp.example/device",
                                                                           verificationURIComplete: nil, message: nil, expiresAt: DeckTestState.now + .minutes(15))))
        #expect(DeckRenderer.render(s).text.contains("Sign in to gl"))
    }

    @Test func qQuitsAndCancelsTheSignIn() {
        var (s, id) = opened(url: "https://idp.example/authorize")
        #expect(press(&s, .char("q")) == [.cancelSignIn(id: id), .quit])
        #expect(s.quitting && s.modal == nil)
    }

    /// A 300-character address at 80 columns: its rows carry no border, so a selection of
    /// them, joined, is the address.
    @Test func aLongAddressIsDrawnWithoutBordersInItsRows() {
        let url = "https://login.example.com/common/oauth2/v2.0/authorize?client_id=04b07795-8ddb-461a-bbee-02f9e1bf7b46"
            + "&response_type=code&redirect_uri=http%3A%2F%2F127.0.0.1%3A41234&scope=openid+profile+offline_access"
            + "&state=Zm9vYmFyYmF6cXV4&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"
        let (s, _) = opened(url: url, width: 80, height: 24)
        let lines = DeckRenderer.render(s).text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = try? #require(lines.firstIndex { $0.hasPrefix("https://login.example.com") })
        guard let first else { return }
        var joined = ""
        for line in lines[first...] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.contains("│"), url.contains(joined + trimmed) else { break }
            joined += trimmed
        }
        #expect(joined == url, "rows:\n\(lines.joined(separator: "\n"))")
    }

    /// Esc, the key every window's footer names, is in `?` too (issue 31, item 20).
    @Test func escIsListedInTheHelp() {
        let s = DeckTestState.make(width: 120, height: 40)
        #expect(DeckRenderer.helpLines(s).contains { $0.hasPrefix("Esc") && $0.contains("stop the sign-in") })
    }

    /// A prune reason that wraps is indented under its account (issue 31, item 14).
    @Test func wrappedPruneReasonsAreIndented() {
        var s = DeckTestState.make(width: 60, height: 24)
        _ = DeckReducer.reduce(&s, .key(.char("p")))
        let lines = DeckRenderer.render(s).text.split(separator: "\n").map(String.init)
        let inside = lines.compactMap { line -> String? in
            let parts = line.split(separator: "│", omittingEmptySubsequences: false)
            return parts.count == 3 ? String(parts[1]) : nil
        }
        let items = inside.drop { !$0.contains("—") }.prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(items.count > 1)
        let continued = items.filter { !$0.contains("—") }
        #expect(!continued.isEmpty, "some reason wraps at 60 columns:\n\(lines.joined(separator: "\n"))")
        #expect(continued.allSatisfy { $0.hasPrefix("   ") }, "\(continued)")
    }

    /// A provider whose client authdeck registered at the issuer is marked in the provider
    /// pane (issue 29), and a reread of the rows keeps the mark.
    @Test func aDynamicClientIsMarkedInTheProviderPane() {
        var s = DeckTestState.make(width: 120, height: 40)
        guard let i = s.providers.firstIndex(where: { $0.id == "gl" }) else { Issue.record("no gl"); return }
        s.providers[i].dynamicClient = true
        s.providers = DeckSnapshot.tally(s.rows, providers: s.providers)
        #expect(DeckRenderer.render(s).text.contains("OIDC·dyn"))
    }

    /// The add-account picker moves with End and PgDn as lists do (the new-user trial chose
    /// the first provider after End, Enter).
    @Test func theAddAccountPickerMovesWithEndAndHome() {
        var s = DeckTestState.make(width: 120, height: 40)
        s.modal = .addAccount(providers: ["work", "sp", "gl"], selected: 0)
        _ = press(&s, .end)
        #expect(s.modal == .addAccount(providers: ["work", "sp", "gl"], selected: 2))
        _ = press(&s, .home)
        #expect(s.modal == .addAccount(providers: ["work", "sp", "gl"], selected: 0))
        _ = press(&s, .pageDown)
        #expect(press(&s, .enter) == [.signIn(provider: "gl")])
    }

    /// With ASCII glyphs the window's prose reads "Waiting..." (it read "Waiting>").
    @Test func asciiProseSpellsItsEllipsis() {
        var s = DeckTestState.make(width: 80, height: 24)
        s.modal = .browser(id: "new:gl", url: "https://idp.example/authorize")
        let text = DeckRenderer.render(s, glyphs: .plain).text
        #expect(text.contains("Waiting for the sign-in... o opens it again"), "\(text)")
    }
}
