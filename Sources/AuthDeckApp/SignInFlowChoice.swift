import AuthDeckCore

/// Which sign-in flow runs: one rule for `authdeck login`, the deck's `a` and its re-sign-in.
public enum SignInFlowChoice {
    /// The command line can ask for anything: the flow asked for, else the provider's `flow`,
    /// else the first flow the provider offers.
    public static func forCommandLine(_ requested: SignInFlow?, adapter: any ProviderAdapter) -> SignInFlow {
        requested ?? adapter.profile.flow ?? adapter.capabilities.flows.first ?? .device
    }

    /// The deck's flow: the provider's `flow` when it is device or browser, else device, else
    /// browser — never a browser for a provider whose `flow` is something else (a browser
    /// window its people are not meant to use would wait for an approval nobody gives, as for
    /// the demo's OAM account), and for a provider of cookies only when its `flow` is browser
    /// (its window replaces a linked or legacy provider's own way back, which needs no window).
    /// A provider that offers a person nothing else in the
    /// deck signs a known account (`username`) in again with its password, asked in a window
    /// of the deck; nil when nothing fits (a new account of a password-only provider).
    public static func forDeck(_ adapter: any ProviderAdapter, username: String? = nil) -> SignInFlow? {
        let offered = adapter.capabilities.flows
        let configured = adapter.profile.flow
        let browserAllowed = configured == .browser || (configured == nil && !adapter.capabilities.producesCookies)
        let shown = [configured, .device, browserAllowed ? .browser : nil].compactMap { $0 }
            .first { offered.contains($0) && ($0 == .device || $0 == .browser) }
        if let shown { return shown }
        return username != nil && offered.contains(.password) ? .password : nil
    }

    /// What the deck says when `forDeck` finds nothing (adding an account of a password-only
    /// provider: the deck knows no username to ask a password for).
    public static func deckCannotSignIn(_ providerId: String) -> String {
        "a new account here needs a username and password: run `authdeck login \(providerId) --password --username NAME` "
            + "(the deck asks for the password of an account it knows)"
    }
}
