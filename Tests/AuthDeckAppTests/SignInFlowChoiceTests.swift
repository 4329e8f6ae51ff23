import Testing
import AuthDeckCore
import AuthDeckApp

/// The one rule for which sign-in flow runs, for every provider kind, in the deck and on the
/// command line.
@Suite struct SignInFlowChoiceTests {
    struct Adapter: ProviderAdapter {
        let profile: ProviderProfile
        var capabilities: ProviderCapabilities { .of(profile) }
        func signIn(flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult {
            throw AuthFailure(.misconfigured, code: "unused", remedy: "unused")
        }
        func renew(_ stored: StoredAccount, scopes: [String], hearing: RotationHearing?) async throws -> Credentials {
            throw AuthFailure(.misconfigured, code: "unused", remedy: "unused")
        }
        func revoke(_ stored: StoredAccount) async throws {}
    }

    func adapter(_ kind: ProviderKind, flow: SignInFlow? = nil, options: [String: String] = [:]) -> Adapter {
        var p = ProviderProfile(id: "p", kind: kind)
        p.flow = flow
        p.options = options
        return Adapter(profile: p)
    }

    @Test func theDeckRunsOnlyFlowsItCanShow() {
        #expect(SignInFlowChoice.forDeck(adapter(.azuread)) == .device)
        #expect(SignInFlowChoice.forDeck(adapter(.azuread, flow: .browser)) == .browser)
        #expect(SignInFlowChoice.forDeck(adapter(.azuread, flow: .password)) == .device, "the deck never asks for a password")
        #expect(SignInFlowChoice.forDeck(adapter(.oam)) == .browser)
        // Issue 31, item 7: a password provider got a browser window nobody would approve.
        #expect(SignInFlowChoice.forDeck(adapter(.oam, flow: .password)) == nil)
        #expect(SignInFlowChoice.deckCannotSignIn("corp").contains("`authdeck login corp --password --username NAME`"))
        // A known account of such a provider is signed in again with its password, asked in
        // the deck (the trial: the advice to run a command lacked the demo's store and config).
        #expect(SignInFlowChoice.forDeck(adapter(.oam, flow: .password), username: "alice") == .password)
        #expect(SignInFlowChoice.forDeck(adapter(.sharepoint, options: ["mode": "legacy"]), username: "taro@contoso.com") == .password)
        // Never a password where a device code or the browser serves.
        #expect(SignInFlowChoice.forDeck(adapter(.azuread, flow: .password), username: "taro") == .device)
        #expect(SignInFlowChoice.forDeck(adapter(.oam), username: "alice") == .browser)
        #expect(SignInFlowChoice.forDeck(adapter(.sharepoint, options: ["azure_provider": "work"])) == .device)
        #expect(SignInFlowChoice.forDeck(adapter(.sharepoint, options: ["mode": "legacy"])) == nil, "legacy SharePoint needs a password")
    }

    /// Issue 40, item 3: a SharePoint provider whose flow is browser signs in (and in again)
    /// through the browser window — with no linked Azure AD provider and no legacy mode — while
    /// a linked or legacy one keeps its own way back in the deck (device code, password).
    @Test func aSharePointBrowserFlowOpensTheWindowAndOnlyThen() {
        let window = adapter(.sharepoint, flow: .browser, options: ["site": "contoso.sharepoint.com"])
        #expect(window.capabilities.flows == [.browser, .import])
        #expect(SignInFlowChoice.forDeck(window) == .browser)
        #expect(SignInFlowChoice.forDeck(window, username: "taro@contoso.com") == .browser)
        #expect(BrowserSignIn.handles(.browser, of: window))
        #expect(SignInFlowChoice.forCommandLine(nil, adapter: window) == .browser)
        let linked = adapter(.sharepoint, options: ["azure_provider": "work"])
        #expect(linked.capabilities.flows.contains(.browser), "`login sp --browser` is offered to a linked provider too")
        #expect(SignInFlowChoice.forDeck(linked) == .device)
        #expect(SignInFlowChoice.forDeck(adapter(.sharepoint, options: ["mode": "legacy"]), username: "taro") == .password)
        // A token provider's browser flow is its own (code + PKCE), never the cookie window.
        #expect(!BrowserSignIn.handles(.browser, of: adapter(.azuread, flow: .browser)))
        #expect(!BrowserSignIn.handles(.device, of: linked))
    }

    @Test func theCommandLineTakesWhatWasAskedThenTheProvidersFlowThenItsFirst() {
        #expect(SignInFlowChoice.forCommandLine(.password, adapter: adapter(.azuread, flow: .browser)) == .password)
        #expect(SignInFlowChoice.forCommandLine(nil, adapter: adapter(.azuread, flow: .browser)) == .browser)
        #expect(SignInFlowChoice.forCommandLine(nil, adapter: adapter(.oam)) == .browser)
        #expect(SignInFlowChoice.forCommandLine(nil, adapter: adapter(.sharepoint, options: ["mode": "legacy"])) == .password)
    }
}
